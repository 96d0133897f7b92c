"""Session 34 (FIXD): runs told in the writer's words and in an environment report.

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's class or condition, and the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import PROBE, assert_no_path, assert_verdict, probed_path, roots, run
from spectrace.assemblers.run_forms import form_of
from spectrace.dialects.base import LogLine

TOLD = "the writer's deployment told in a sentence"


def _line(raw: str) -> LogLine:
    return LogLine("t.log", 1, 0, raw, raw, "plain", "")


# --- the writer's own deployment told in prose, its release and method anywhere in the sentence ---

# a comment on another user's crash adding the writer's production facts: the deployment in one
# sentence, wrapped, its release and its method inside a parenthesis after other words
_WRAPPED = ["dana-w commented on Sep 2, 2026", "",
            "Some context from our side before anyone digs in. For the last month we have been serving this",
            "exact checkpoint to internal users (dense 32B, four L40S cards, SGLang 0.5.17 with EAGLE3 drafting",
            "at 3 steps, topk 1, 4 draft tokens), and the numbers match the report above."]  # fmt: skip


@pytest.mark.parametrize(("lines", "value", "classes", "said"), [
    (_WRAPPED, "v2", "EAGLEWorkerV2", "we have been serving this"),
    # another engine, its method in words, one line
    (["Re: the long-prompt failure", "",
      "We currently run Llama-3.3-70B for the support bot on vLLM 0.27.1, with ngram speculation "
      "(prompt lookup, k=4) turned on."], "other", "NgramProposer", "We currently run"),
    # a bullet list of facts
    (["Facts from our side:", "",
      "- We run it in production (SGLang 0.5.17, MTP NEXTN 3/1/4, TP=4, page size 1).",
      "- Traffic is mostly short chat turns."], "v2", "EAGLEWorkerV2", "We run it in production"),
    # Chinese, Japanese, Korean
    (["补充一些信息：我们在线上集群运行同一个模型（Qwen3-30B-A3B，SGLang 0.5.17，MTP NEXTN 3/1/4，TP=4），供参考。"],
     "v2", "EAGLEWorkerV2", "我们在线上集群运行"),
    (["補足です。本番環境では同じモデルを SGLang 0.5.17 と MTP（NEXTN 3/1/4、TP=4）で運用しています。"],
     "v2", "EAGLEWorkerV2", "運用しています"),
    (["참고로 저희는 같은 모델을 SGLang 0.5.17 과 MTP NEXTN 3/1/4, TP=4 설정으로 프로덕션에서 운영하고 있습니다."],
     "v2", "EAGLEWorkerV2", "운영하고 있습니다"),
], ids=["wrapped-comment", "vllm-ngram", "bullet", "chinese", "japanese", "korean"])  # fmt: skip
def test_the_writers_deployment_told_in_a_sentence_decides(
    tmp_path: Path, lines: list[str], value: str, classes: str, said: str
) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, value, classes)
    assert any(said in e.text for e in path.evidence), path.evidence


def test_the_same_deployment_as_a_vllm_eagle_draft_gives_the_runner_condition(tmp_path: Path) -> None:
    path = probed_path(tmp_path, ["Re: crash on long prompts", "",
                                  "We currently run Llama-3.3-70B for the support bot on vLLM 0.27.1 "
                                  "with an EAGLE3 draft (3 speculative tokens)."])  # fmt: skip
    assert_verdict(path, "unknown", "EagleProposer|EagleSpeculator")


@pytest.mark.parametrize("lines", [
    ["Some context before anyone digs in. Next quarter we plan to run this exact checkpoint for",
     "internal users (dense 32B, four L40S cards, SGLang 0.5.17 with EAGLE3 drafting at 3 steps)."],
    ["You can run the same model in production (SGLang 0.5.17, MTP NEXTN 3/1/4, TP=4) on four cards."],
    ["To run the same model in production, we set SGLang 0.5.17 with MTP NEXTN 3/1/4 and TP=4."],
    ["In this guide we run the same model in production shape (SGLang 0.5.17, MTP NEXTN 3/1/4, TP=4)."],
    ["Should we run the same model in production on SGLang 0.5.17 with MTP NEXTN 3/1/4?"],
    ["我们计划在线上集群运行同一个模型（SGLang 0.5.17，MTP NEXTN 3/1/4，TP=4）。"],
    ["本番環境では同じモデルを SGLang 0.5.17 と MTP（NEXTN 3/1/4）で運用する予定です。"],
    # a how-to page narrating in the first person
    ["# Serving a 32B model with NEXTN", "", "## Steps", "",
     "Next, we run the server on SGLang 0.5.17 with MTP NEXTN 3/1/4 and TP=4.",
     "You can then send a request to port 30000."],
], ids=["plan", "you-can", "to-run", "guide", "question", "chinese-plan", "japanese-plan", "how-to"])  # fmt: skip
def test_a_deployment_planned_offered_or_narrated_gives_no_path(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


@pytest.mark.parametrize("text", [
    "Мы уже используем эту модель в проде (SGLang 0.5.17, MTP NEXTN 3/1/4, TP=4).",
    "En producción desplegamos el mismo modelo (SGLang 0.5.17, MTP NEXTN 3/1/4, TP=4).",
    "En production, nous faisons tourner le même modèle (SGLang 0.5.17, MTP NEXTN 3/1/4, TP=4).",
    "I'm hosting the 8B chat model at home on TensorRT-LLM 1.2.0 with a Medusa head set.",
])  # fmt: skip
def test_the_told_deployment_form_in_other_languages(text: str) -> None:
    assert form_of(_line(text)) == TOLD


@pytest.mark.parametrize("text", [
    "We will run the same model on SGLang 0.5.17 with MTP NEXTN 3/1/4.",
    "If we run the same model on SGLang 0.5.17 with MTP NEXTN 3/1/4 it may crash.",
    "We run the same model in production (SGLang 0.5.17, TP=4).",  # no method
    "We run the same model in production with EAGLE3 drafts.",  # no release
    "The maintainers run vLLM 0.27.1 with EAGLE3 in CI.",  # not the writer
    "저희는 같은 모델을 SGLang 0.5.17 과 MTP 설정으로 운영할 예정입니다.",
    "Если мы используем SGLang 0.5.17 с MTP NEXTN 3/1/4, сервер падает?",
    "Para ejecutar el modelo, desplegamos SGLang 0.5.17 con MTP NEXTN 3/1/4.",
    "Dans ce guide, nous utilisons SGLang 0.5.17 avec MTP NEXTN 3/1/4.",
])  # fmt: skip
def test_a_deployment_to_come_or_incomplete_is_no_run_form(text: str) -> None:
    assert form_of(_line(text)) is None


# --- an environment report's version field and the runner's own file in a record's tag ----------

_ISSUE = ["[Bug]: {title} #90001", "https://github.com/vllm-project/vllm/issues/90001", "Open",
          "opened on Aug 26, 2026", ""]  # fmt: skip


def _issue(title: str, body: list[str]) -> list[str]:
    return [*(line.format(title=title) for line in _ISSUE), *body]


@pytest.mark.parametrize(("lines", "classes", "runner_line"), [
    # a hand-written environment block's field, the V1 runner's tag behind an elided prefix
    (_issue("MTP head load runs out of memory on a 24 GB card", [
        "### Your current environment", "", "```text", "vLLM:      0.27.1 (wheel, fresh venv)",
        "torch:     2.13.0+cu130", "GPU:       1x RTX 4090 24 GiB", "```", "",
        "### 🐛 Describe the bug", "",
        "Plain serving is fine. With `--speculative-config '{\"method\":\"mtp\",\"num_speculative_tokens\":2}'` "
        "the load fails:", "", "```",
        "ERROR ... [gpu_model_runner.py:5120] Failed to load model - not enough GPU memory.",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.90 GiB.", "```"]),
     "EagleProposer", "[gpu_model_runner.py:5120]"),
    # the tag after a level and an ISO stamp, no release stated
    (_issue("EAGLE3 drafter shape error after warmup", [
        "Serving with `vllm serve org/chat-8b --speculative-config "
        "'{\"method\":\"eagle3\",\"model\":\"org/chat-8b-eagle3\",\"num_speculative_tokens\":3}'`.", "",
        "WARNING 2026-08-30T09:12:44 [gpu_model_runner.py:4388] Drafter warmup took 3.1 s",
        "ERROR 2026-08-30T09:13:02 [core.py:812] EngineCore encountered a fatal error.",
        "RuntimeError: shape mismatch in the draft head"]), "EagleProposer", "[gpu_model_runner.py:4388]"),
    # the model runner v2's speculator file, a release keyed in a manifest's JSON
    (_issue("MTP run hangs after the first batch", [
        "Env: `\"vllm_version\": \"0.27.1\"` as our deployment manifest records it. We serve with "
        "`--speculative-config '{\"method\":\"mtp\",\"num_speculative_tokens\":1}'`.", "",
        "INFO ... [speculator.py:92] Capturing model for speculator...",
        "RuntimeError: step timed out"]), "MTPSpeculator", "[speculator.py:92]"),
], ids=["v1-elided-prefix", "v1-iso-stamp", "mrv2-json-release"])  # fmt: skip
def test_the_runners_own_file_in_a_records_tag_settles_the_runner(
    tmp_path: Path, lines: list[str], classes: str, runner_line: str
) -> None:
    first = roots(run(tmp_path, [*lines, "", *PROBE]))[0]  # the text's own crash, or the probe
    path = first.worker_path
    assert path is not None
    assert_verdict(path, "other", classes)
    (said,) = [e for e in path.evidence if e.worker_class == classes]
    assert "model runner" in said.reason, said
    at = int(said.reason.rsplit("(line ", 1)[1].split(")", 1)[0])
    assert runner_line in lines[at - 1], (at, said)


def test_a_release_in_an_environment_field_leaves_only_the_runner_to_ask(tmp_path: Path) -> None:
    path = probed_path(tmp_path, _issue("EAGLE3 drafter shape error", [
        "### Your current environment", "", "```text", "vLLM:      0.27.1", "GPU:       1x H100", "```", "",
        "`vllm serve org/chat-8b --speculative-config '{\"method\":\"eagle3\",\"model\":\"org/chat-8b-eagle3\"}'`",
        "fails with a shape mismatch."]))  # fmt: skip
    assert path.conditional and "vLLM 0.27.1" in path.conditional, path
    assert "the vLLM version" not in path.missing[0] and "VLLM_USE_V2_MODEL_RUNNER" in path.missing[0], path.missing


@pytest.mark.parametrize(("lines", "value", "classes"), [
    (["[Bug] NEXTN crash on decode", "", "```json", '{"sglang_version": "0.5.17", "gpu": "H200", "tp": 8}', "```", "",
      "python -m sglang.launch_server --model-path org/ds --speculative-algorithm NEXTN --tp 8", "",
      "RuntimeError: illegal memory access"], "v2", "EAGLEWorkerV2"),
    (["[Bug] EAGLE crash on decode", "", "environment:", "  sglang_version: 0.4.6", "  gpu: A100", "",
      "python -m sglang.launch_server --model-path org/llama --speculative-algorithm EAGLE "
      "--speculative-draft-model-path org/llama-eagle --tp 2", "", "RuntimeError: illegal memory access"],
     "v1", "EAGLEWorker"),
    (["NVIDIA/TensorRT-LLM · issue #9001 · open", "", "[Bug]: Eagle3 crashes with trtllm-serve", "",
      "### System Info", "", "TensorRT-LLM:   1.2.0", "GPU:            NVIDIA H100 80GB HBM3", "",
      "I run trtllm-serve with speculative_config decoding_type: Eagle3 and it crashes at start."],
     "other", "Eagle3OneModelWorker"),
], ids=["sglang-json", "sglang-yaml", "trtllm-padded"])  # fmt: skip
def test_an_environment_reports_version_field_of_each_engine_decides(
    tmp_path: Path, lines: list[str], value: str, classes: str
) -> None:
    assert_verdict(probed_path(tmp_path, lines), value, classes)


def test_a_runner_tag_a_troubleshooting_section_shows_the_reader_gives_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, [
        "# Serving an MTP head on a 24 GB card", "", "## Requirements", "", "- vLLM: 0.27.1 or newer",
        "- one 24 GB GPU", "", "## Steps", "",
        "Run `vllm serve org/chat-27b --speculative-config '{\"method\":\"mtp\",\"num_speculative_tokens\":1}'`.",
        "", "## Troubleshooting", "", "If the card is too small you will see a line such as:", "", "```",
        "ERROR ... [gpu_model_runner.py:5120] Failed to load model - not enough GPU memory.", "```"])  # fmt: skip


@pytest.mark.parametrize(("text", "runner"), [
    ("ERROR ... [gpu_model_runner.py:5403] Failed to load model - not enough GPU memory.", "v1"),
    ("(EngineCore_DP0 pid=12) ERROR [gpu_model_runner.py:4388] draft warmup failed", "v1"),
    ("... [gpu_model_runner.py:5403] Failed to load model - not enough GPU memory.", "v1"),  # level cut too
    ("INFO 2026-08-26 10:11:12,123 [speculator.py:92] Capturing model for speculator...", "v2"),
    ("The allocation comes from [gpu_model_runner.py:5403](https://example.org/src#L5403).", None),
    ("ERROR ... [gpu_worker.py:301] Worker failed to start", None),  # both runners' worker
])  # fmt: skip
def test_the_runner_a_records_module_tag_names(text: str, runner: str | None) -> None:
    from spectrace.assemblers.vllm_runner import module_runner

    assert module_runner(text) == runner


@pytest.mark.parametrize(("text", "release"), [
    ("vLLM:     0.27.1 (pip, isolated venv)", "0.27.1"),
    ('  "vllm_version": "0.27.1",', "0.27.1"),
    ('{"vllm": "0.27.1"}', "0.27.1"),
    ("vLLM: >= 0.27.1", None),  # a requirement, no release
])  # fmt: skip
def test_vllms_release_in_an_environment_field(text: str, release: str | None) -> None:
    from spectrace.assemblers.vllm_config import prose_version

    assert prose_version(text) == release


# --- a CI change telling its speculative variants died with an exit code or a signal -------------


def _ci_pull(repo: str, number: int, title: str, body: list[str]) -> list[str]:
    return [f"{repo} · pull request #{number} · merged · Python", f"# {title}", "",
            "dana-w · description · 2026-05-10", "## Summary", "", *body]  # fmt: skip


@pytest.mark.parametrize(("lines", "classes"), [
    # bullets changing the matrix (one naming a plain variant), then the crash told in prose
    (_ci_pull("sgl-project/sglang", 40011, "[CI] Remove failing Qwen3 MTP nightly jobs, keep the base job", [
        "- Remove the TP4+MTP job from the nightly matrix",
        "- Keep the base TP4 job and add a TP4 variant without speculative decoding", "",
        "The TP4+MTP job failed with exit code 1 on the MI355X runners in the last three nightlies."]),
     "EAGLEWorker|EAGLEWorkerV2"),
    # a signal, on vLLM's tree
    (_ci_pull("vllm-project/vllm", 90011, "[CI] Remove the crashing EAGLE3 spec-decode nightly on H100", [
        "- Remove the Llama-3 EAGLE3 nightly entry",
        "- Add a plain Llama-3 variant (no speculative decoding) so the model stays covered", "",
        "The EAGLE3 nightly job was killed with SIGKILL on the H100 pool twice this week."]),
     "EagleProposer"),  # (the PR's day predates MRV2 by default)
    # a table of the variants' last results
    (_ci_pull("sgl-project/sglang", 40013, "[CI] Remove the crashing Qwen3 MTP variant", [
        "- Keep the TP8 variant and drop the TP8+MTP variant", "",
        "| variant | last nightly |", "|---|---|", "| TP8 | passed |",
        "| TP8+MTP | crashed with exit code -9 (OOM killed) |"]), "EAGLEWorker|EAGLEWorkerV2"),
], ids=["sglang-bullets", "vllm-signal", "sglang-table"])  # fmt: skip
def test_a_ci_change_telling_its_variant_died_with_an_exit_code_gives_the_family(
    tmp_path: Path, lines: list[str], classes: str
) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "unknown" if "|" in classes else "other", classes)
    assert any(("exit code" in e.text or "SIGKILL" in e.text) for e in path.evidence), path.evidence


@pytest.mark.parametrize("lines", [
    ["# Nightly CI for speculative decoding", "", "## What each job runs", "",
     "- TP8 + MTP: the MTP head with 3 draft tokens", "- TP8 + EAGLE3: an EAGLE3 draft", "",
     "## Troubleshooting", "",
     "If a speculative job exits with code 137, it ran out of memory; lower --mem-fraction-static.",
     "A job that may fail with exit code 1 on B200 is marked flaky."],
    _ci_pull("sgl-project/sglang", 40003, "[CI] Add a TP8+MTP nightly variant", [
        "- Add a TP8+MTP variant for Kimi K2.5 (it could crash with exit code -9 until the memory fix lands)", "",
        "## Test plan", "", "- [ ] The new variant passes on 8-gpu runners"]),
], ids=["ci-docs", "pr-adding-a-variant"])  # fmt: skip
def test_an_exit_code_a_page_or_a_change_supposes_gives_no_path(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


@pytest.mark.parametrize(("text", "told"), [
    ("The TP8+MTP variant crashes with exit code -9 (OOM killed) on H200.", True),
    ("the nightly job failed with exit status 1 on the B200 runner", True),
    ("If the server exits with code 137, lower the memory fraction.", False),
    ("The server may crash with exit code -9 when memory runs out.", False),
    ("Known issue: the MTP variant crashes with exit code 1 on B200.", False),
    ("Exit code 1 means the variant failed.", False),
])  # fmt: skip
def test_a_death_with_an_exit_code_is_a_run_told(text: str, told: bool) -> None:
    from spectrace.assemblers.run_prose import told_run

    assert told_run(text) is told


@pytest.mark.parametrize(("text", "plain"), [
    ("- Keep the TP8 base variant and add a TP8+DP8 variant (without speculative decoding)", False),
    ("- Adds a plain nightly job beside the MTP one, without speculative decoding", False),
    ("Same crash without speculative decoding.", True),
])  # fmt: skip
def test_a_matrix_change_naming_a_plain_variant_states_no_plain_run(text: str, plain: bool) -> None:
    from spectrace.assemblers.quotes import plain_run

    assert plain_run(_line(text)) is plain
