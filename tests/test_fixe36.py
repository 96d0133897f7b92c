"""Session 36 (FIXE): a sentence's other arm or another class named beside the run's.

Two shapes of one family: a sentence that shows the speculative run and, in a clause of its
own, the same setup without speculation (an A/B comparison); and a sentence saying a class is
not wired in, beside another naming the class the code does build. Each negation holds only
for what its own clause names. Every test writes its own lines and asserts what a user sees
(the worker path's class or condition, the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path, store_thread
from spectrace.assemblers import not_run
from spectrace.assemblers.quotes import plain_run
from spectrace.dialects.base import LogLine


def _issue(repo: str, title: str, day: str, body: list[str]) -> list[str]:
    return store_thread(repo, "issue", 9311, title, day, body, author="mira")


# --- an A/B comparison: the speculative run and, in a clause of its own, the same setup
# without speculation; the plain arm does not cancel the run the sentence shows ---


@pytest.mark.parametrize(("lines", "said"), [
    # an inline-code serve command opening the sentence, the plain arm after "while"
    (_issue("vllm-project/vllm", "[Bug] gibberish with speculative decoding on 0.21.0", "2026-05-02", [
        "Running on vLLM 0.21.0 with 4x H100.", "",
        "`vllm serve org/Model-A --speculative-config '{\"method\":\"eagle3\",\"model\":\"org/Model-A-eagle3\","
        "\"num_speculative_tokens\":3}'` returns repeated tokens for every prompt, while the same build "
        "without speculative decoding answers normally and gives correct output."]),
     "returns repeated tokens"),
    # the plain arm after a semicolon, a Python LLM(...) call's dict in inline code
    (_issue("vllm-project/vllm", "[Bug] ngram drafts break JSON mode on 0.20.2", "2026-04-11", [
        "vLLM 0.20.2, one A100.", "",
        "With `speculative_config={\"method\": \"ngram\", \"num_speculative_tokens\": 4}` the JSON schema "
        "is violated on half the requests; the same image with no speculative config gives correct output."]),
     "the JSON schema"),
    # "whereas", the arm naming the plain server
    (_issue("vllm-project/vllm", "[Bug] MTP output drifts on 0.22.1", "2026-06-20", [
        "Setup: vLLM 0.22.1, 8x H200.", "",
        "Serving with `--speculative-config '{\"method\":\"mtp\",\"num_speculative_tokens\":2}'` the answers "
        "drift after 300 tokens, whereas the same server without speculation stays coherent."]),
     "the answers drift"),
], ids=["while-eagle3", "semicolon-ngram", "whereas-mtp"])  # fmt: skip
def test_an_ab_sentence_keeps_its_speculative_arm(tmp_path: Path, lines: list[str], said: str) -> None:
    path = probed_path(tmp_path, lines)
    assert path.worker_class == "EagleProposer" or "EagleProposer" in (path.conditional or "") \
        or "NgramProposer" in (path.worker_class or path.conditional or ""), path
    assert any(said in e.text for e in path.evidence), path.evidence


def test_an_ab_sentence_on_the_ascend_plugin_gives_the_plugins_mtp_classes(tmp_path: Path) -> None:
    lines = _issue("vllm-project/vllm-ascend", "[Bug] MTP verify step returns noise on 910B", "2026-08-14", [
        "- Hardware: 4x Atlas 800I A2", "- Model: org/Big-MoE W8A8", "",
        "`vllm serve org/Big-MoE --speculative-config '{\"method\":\"mtp\",\"num_speculative_tokens\":1}'` "
        "prints noise after the first token, while the same wheel without speculative decoding produces "
        "coherent output."])  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "unknown", "AscendEagleProposer")
    assert any("prints noise" in e.text for e in path.evidence), path.evidence


@pytest.mark.parametrize("lines", [
    # a tuning guide's sentence with the same two arms: no run, no path
    ["# Tuning speculative decoding on vLLM", "", "## When to enable it", "",
     "Starting `vllm serve org/Model-A --speculative-config '{\"method\":\"eagle3\"}'` can raise throughput, "
     "while the same wheel without speculative decoding is easier to debug.", "",
     "## Steps", "", "1. Pick a draft.", "2. Measure."],
    # the speculative arm is the docs' suggestion; the writer's own run is plain
    _issue("vllm-project/vllm", "[Bug] slow first token on 0.21.0", "2026-05-09", [
        "The docs suggest `--speculative-config '{\"method\":\"ngram\"}'`; we run the same build without "
        "speculative decoding and TTFT is 9 s at batch 1."]),
], ids=["guide", "docs-arm"])  # fmt: skip
def test_an_ab_sentence_in_a_guide_or_beside_docs_advice_gives_no_path(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


# --- a "not wired in" sentence negates the class it names, not another class the text names
# as the one the code builds ---


def _lines(*texts: str) -> list[LogLine]:
    return [LogLine("t.md", n, 0, t, t, "plain", "") for n, t in enumerate(texts, 1)]


@pytest.mark.parametrize("text", [
    # the built class in one sentence, the staged one unwired in the next
    "Our runner always instantiates the JAX `DFlashProposer`. A staged `DFlashTorchProposer` is there for this "
    "contract but is not wired into the runner.",
    # a semicolon between them, no code marks
    "Our worker builds EagleProposer for every request; the new LayeredEagleProposer is not hooked up yet.",
    # "falls back to", the unwired class first
    "The `MtpTreeProposer` is not wired in, so the model runner falls back to `EagleProposer`.",
], ids=["two-sentences", "semicolon", "falls-back"])  # fmt: skip
def test_a_class_not_wired_beside_the_class_built_sets_no_line_apart(text: str) -> None:
    assert not_run.read_apart(_lines("rhea · description · 2026-05-03", text)).why("t.md", 2) is None


@pytest.mark.parametrize("text", [
    "The new `FooProposer` is not wired into the runner yet.",
    "The runner uses `DFlashProposer`, and `DFlashProposer` is not wired into the scheduler.",
    "The MTP flags are not wired into the launch script.",
], ids=["one-class", "same-class", "no-class"])  # fmt: skip
def test_a_not_wired_sentence_naming_no_other_built_class_still_sets_its_line_apart(text: str) -> None:
    why = not_run.read_apart(_lines("rhea · description · 2026-05-03", text)).why("t.md", 2)
    assert why is not None and why.startswith(not_run.UNWIRED), why


@pytest.mark.parametrize(("lines", "value", "cls"), [
    # a CI job's failure told in prose, the built class and the staged one on one line
    (_issue("vllm-project/vllm", "[CI] DFlash nightly red on 0.24.0", "2026-07-21", [
        "The DFlash nightly on vLLM 0.24.0 has failed every run since July 2: the model runner always "
        "instantiates `DFlashProposer`, whose draft step asserts on the hidden-state shape. The staged "
        "`DFlashTreeProposer` is not wired into the runner."]), "other", "DFlashProposer"),
    # a launch in inline code, the unwired class after a semicolon
    (_issue("vllm-project/vllm", "[Bug] DFlash crash on 0.24.0 with 2x H100", "2026-07-21", [
        "vLLM 0.24.0. We launch `vllm serve org/Q3-8B --speculative-config "
        "'{\"method\":\"dflash\",\"model\":\"org/Q3-8B-dflash\",\"num_speculative_tokens\":6}'` and it crashes "
        "on the first request. The model runner instantiates `DFlashProposer` here; the newer "
        "`DFlashTreeProposer` is not wired into the runner."]), "other", "DFlashProposer"),
    # SGLang: the scheduler's worker named as created, the V2 worker not wired for the setup
    (_issue("sgl-project/sglang", "[Bug] EAGLE3 decode hangs on v0.5.9 with 8x H200", "2026-03-11", [
        "Our EAGLE3 server on SGLang v0.5.9 hangs after about 400 requests, every time: the scheduler always "
        "creates `EAGLEWorker` for it; the newer `EAGLEWorkerV2` is not wired in for our setup."]),
     "v1", "EAGLEWorker"),
], ids=["ci-prose", "inline-launch", "sglang"])  # fmt: skip
def test_a_run_naming_the_built_class_beside_an_unwired_one_keeps_its_class(
    tmp_path: Path, lines: list[str], value: str, cls: str
) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, value, cls)


def test_design_notes_naming_the_built_and_the_unwired_class_give_no_path(tmp_path: Path) -> None:
    lines = ["# DFlash on the model runner: design notes", "", "## Current state", "",
             "The model runner instantiates `DFlashProposer` for the dflash method. The staged "
             "`DFlashTreeProposer` exists but is not wired into the runner.", "",
             "## Next steps", "", "- wire the tree proposer", "- add tests"]  # fmt: skip
    assert_no_path(tmp_path, lines)


# --- a release candidate a title writes without its patch or with a dot or dash before "rc"
# ("0.18.rc1", "v0.13rc1", "v0.11.0-rc2") is the tracker's release, and bounds the plugin's class ---


def _ascend(title: str) -> list[str]:
    return ["vllm-project/vllm-ascend · issue #9001 · open · Python", f"# {title}", "",
            "lin · description · 2026-05-01",
            "We serve Qwen3-Next with MTP on 8 cards and the throughput drops by 30% against the plain server."]  # fmt: skip


@pytest.mark.parametrize(("title", "cls"), [
    ("[Bug]: 0.18.rc1 MTP 开启后吞吐下降", "AscendEagleProposer"),
    ("[Bug]: v0.13rc1 MTP crashes at warm-up on A3", "MtpProposer"),
    ("[Performance]: MTP slower on v0.11.0-rc2", "MtpProposer"),
], ids=["dot-rc", "no-patch", "dash-rc"])  # fmt: skip
def test_a_titles_short_release_candidate_bounds_the_plugins_class(tmp_path: Path, title: str, cls: str) -> None:
    path = probed_path(tmp_path, _ascend(title))
    assert_verdict(path, "other", cls)


def test_a_model_version_in_a_title_is_no_release(tmp_path: Path) -> None:
    # "Qwen 3.5" and a bare "0.18" bound nothing: the condition over the plugin's eras stays
    path = probed_path(tmp_path, _ascend("[Bug]: Qwen 3.5 MTP slower than 0.18 numbers"))
    assert path.worker_class is None and path.conditional and "MtpProposer" in path.conditional, path


def test_a_howto_titled_with_a_short_release_candidate_gives_no_path(tmp_path: Path) -> None:
    lines = ["# How to enable MTP on vllm-ascend 0.18.rc1", "", "## Steps", "",
             "1. Install the 0.18.rc1 wheel.",
             "2. Add `--speculative-config '{\"method\":\"mtp\",\"num_speculative_tokens\":1}'` to `vllm serve`.",
             "3. Check the acceptance rate in the metrics."]  # fmt: skip
    assert_no_path(tmp_path, lines)


@pytest.mark.parametrize(("text", "plain"), [
    # the plain arm said to work: no wall between the thread's lines
    ("`vllm serve m --speculative-config '{\"method\":\"mtp\"}'` garbles its output, while the same wheel "
     "without speculative decoding produces coherent output.", False),
    ("Without speculative decoding the server stays coherent.", False),
    # the writer's own plain run, failing too or told before its log: a plain run, a wall
    ("The same wheel without speculative decoding does not produce coherent output either.", True),
    ("I run the same command but without the `--speculative-*` flags and get:", True),
], ids=["ab-coherent", "stays-coherent", "not-coherent", "same-command"])  # fmt: skip
def test_a_plain_arm_said_to_give_sound_output_is_another_run(text: str, plain: bool) -> None:
    assert plain_run(LogLine("t.md", 1, 0, text, text, "plain", "")) is plain
