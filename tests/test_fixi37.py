"""Session 37 (FIXI): a vLLM run that shows it speculated (the engine's own spec-decode record)
on a model whose checkpoints carry MTP layers, where no line names a method, a draft or a family:
the MTP class, as a condition on the run drafting with those layers (rules/paths/mtp_models.toml,
``vllm_finish._native_mtp``). The same table gives vLLM's reading of a method-less draft named
for such a family (``vllm_methods.mtp_draft``).

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's condition, and the line that proves it)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from packaging.version import Version

from real_logs_helpers import PROBE, assert_no_path, assert_verdict, roots, run, store_thread
from spectrace.assemblers.mtp_models import mtp_models
from spectrace.assemblers.vllm_methods import infer
from spectrace.worker_path import WorkerPath

RULES = Path(__file__).resolve().parents[1] / "rules" / "paths"


def _crash_path(tmp_path: Path, lines: list[str]) -> WorkerPath:
    """The worker path of the text's first root-cause crash (a probe's where it has none)."""
    crashes = roots(run(tmp_path, lines)) or roots(run(tmp_path, [*lines, *PROBE]))
    assert crashes and crashes[0].worker_path is not None
    return crashes[0].worker_path


def _issue(number: int, title: str, day: str, body: list[str]) -> list[str]:
    return store_thread("vllm-project/vllm", "issue", number, title, day, body, author="kai")


def _metrics(head: str = "(APIServer pid=11) INFO 03-14 08:02:44 [metrics.py:101] ") -> str:
    return (f"{head}SpecDecoding metrics: Mean acceptance length: 2.64, Accepted throughput: 171.5 "
            "tokens/s, Drafted throughput: 212.8 tokens/s, Accepted: 17150 tokens, Drafted: 21280 "
            "tokens, Per-position acceptance rate: 0.781, 0.574, Avg Draft acceptance rate: 80.6%")


_ENGINE_DIES = ["(EngineCore_DP0 pid=40) ERROR 03-14 09:12:05 [core.py:851] EngineCore encountered a fatal error.",
                "(EngineCore_DP0 pid=40) ERROR 03-14 09:12:05 [core.py:851] RuntimeError: CUDA error: misaligned address"]


# --- the engine's record of a speculating run, a model with its own MTP layers, no method named ---


@pytest.mark.parametrize(("lines", "classes", "said"), [
    # an English bug report: the release and the model in a sentence, the server's metrics record
    (_issue(61001, "[Bug]: engine core dies under load after a few hours", "2026-03-14", [
        "Serving Qwen/Qwen3.5-122B-A10B-FP8 with vLLM 0.19.1 on 4x H200.", "", "```", _metrics(),
        *_ENGINE_DIES, "```"]),
     "EagleProposer", "SpecDecoding metrics"),
    # a Chinese report, the log pasted as an indented block
    (_issue(61002, "[Bug]: 长时间运行后 GLM-4.6 服务崩溃", "2026-02-09", [
        "环境：vLLM 0.18.0，8 张 H20，模型 zai-org/GLM-4.6-FP8，TP8。", "运行约两小时后崩溃，日志：", "",
        "    " + _metrics(), *("    " + ln for ln in _ENGINE_DIES)]),
     "EagleProposer", "SpecDecoding metrics"),
    # a served model with no release: vllm bench serve's block, the class by release and runner
    (_issue(61003, "[Bug]: illegal memory access after the benchmark", "2026-05-02", [
        "```", "vllm serve nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-FP8 --tensor-parallel-size 4", "```",
        "The benchmark before the crash:", "```", "============ Serving Benchmark Result ============",
        "Successful requests:                     400",
        "---------------Speculative Decoding---------------",
        "Acceptance rate (%):                     68.12", "Acceptance length:                       2.36",
        "Drafts:                                  41002", "```"]),
     "EagleProposer|MTPSpeculator", "Acceptance rate (%):"),
    # the server's Prometheus counters scraped before the crash
    (_issue(61004, "[Bug]: server stops answering, DeepSeek-V3.2 on 8x B200", "2026-04-20", [
        "Running deepseek-ai/DeepSeek-V3.2 on vLLM 0.20.0. /metrics just before it stopped:", "```",
        'vllm:spec_decode_num_drafts_total{model_name="deepseek-ai/DeepSeek-V3.2"} 88211',
        'vllm:spec_decode_num_accepted_tokens_total{model_name="deepseek-ai/DeepSeek-V3.2"} 151002',
        "```"]),
     "EagleProposer", "vllm:spec_decode_num_drafts_total"),
], ids=["english-report", "chinese-indented-log", "bench-block-no-release", "prometheus-counters"])  # fmt: skip
def test_a_speculating_run_of_a_model_with_its_own_mtp_layers_names_the_mtp_class(
    tmp_path: Path, lines: list[str], classes: str, said: str
) -> None:
    path = _crash_path(tmp_path, lines)
    assert_verdict(path, "unknown", classes)
    assert "own MTP layers" in (path.conditional or ""), path.conditional
    assert path.family == "MTP", path
    assert any(said in e.text and "MTP layers" in e.reason for e in path.evidence), path.evidence


# --- near misses: no run, a draft of its own, two such models, a release before the MTP model ---


@pytest.mark.parametrize("lines", [
    # a docs page quoting the record in a sentence
    ["# Reading the speculative metrics of Qwen3.5-27B", "",
     "Every few seconds the server prints a record such as `SpecDecoding metrics: Mean acceptance "
     "length: 2.10, Accepted: 100 tokens, Drafted: 150 tokens` that the page explains below.", "",
     "## Fields", "", "- Mean acceptance length: accepted drafts per step plus one"],
    # the release predates vLLM's MTP model for the family (qwen3_5_mtp.py came in 0.17.0)
    _issue(61011, "[Bug]: engine dies on Qwen3.5", "2026-02-01", [
        "Serving Qwen/Qwen3.5-35B-A3B with vLLM 0.16.0.", "", "```", _metrics(), *_ENGINE_DIES, "```"]),
    # two families with MTP layers named: which one ran is not told
    _issue(61012, "[Bug]: both GLM-4.7 and Qwen3.5-27B die on vLLM 0.20.0", "2026-06-01", [
        "Same crash with zai-org/GLM-4.7-FP8 and Qwen/Qwen3.5-27B.", "", "```", _metrics(), *_ENGINE_DIES, "```"]),
    # a reply quoting another writer's record
    _issue(61013, "[Usage]: what does acceptance length mean for Qwen3.5-27B?", "2026-06-03", [
        "> " + _metrics(""), "", "Is 2.64 good for this model?"]),
], ids=["docs-page", "release-before-mtp-model", "two-families", "quoted-reply"])  # fmt: skip
def test_no_run_or_no_one_model_gives_no_mtp_condition(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


def test_a_draft_model_of_its_own_is_not_the_targets_mtp(tmp_path: Path) -> None:
    """A report naming its draft model: the run's draft is that model, not the target's layers."""
    path = _crash_path(tmp_path, _issue(61014, "[Bug]: crash on vLLM 0.20.0", "2026-06-02", [
        "We serve Qwen/Qwen3.5-27B with Qwen/Qwen3.5-0.8B as the draft model.", "", "```", _metrics(),
        *_ENGINE_DIES, "```"]))  # fmt: skip
    assert_verdict(path, "other", "DraftModelProposer")
    assert not any("own MTP layers" in e.reason for e in path.evidence), path.evidence


def test_a_served_model_without_mtp_layers_ignores_another_named_in_prose(tmp_path: Path) -> None:
    assert_no_path(tmp_path, _issue(61015, "[Bug]: crash after switching from Qwen3.5-27B", "2026-06-02", [
        "It worked with Qwen3.5-27B; now it dies:", "```",
        "vllm serve meta-llama/Llama-3.3-70B-Instruct --tensor-parallel-size 4", "```", "```", _metrics(),
        *_ENGINE_DIES, "```"]))  # fmt: skip


# --- vLLM's reading of a method-less draft named for a family of the table ---


@pytest.mark.parametrize(("draft", "release", "method"), [
    ("zai-org/GLM-4.7-FP8", "0.20.0", "mtp"),  # Glm4MoeForCausalLM -> glm4_moe_mtp
    ("XiaomiMiMo/MiMo-7B-RL", "0.12.0", "mtp"),  # MiMoForCausalLM -> mimo_mtp
    ("zai-org/GLM-4.7-FP8", "0.9.2", None),  # before glm4_moe_mtp: a plain draft on V0
    ("Qwen/Qwen3.5-0.8B", "0.20.0", "draft_model"),  # as_draft = false
    ("z-lab/Qwen3.5-9B-DFlash", "0.21.0", "dflash"),  # another method's checkpoint
])  # fmt: skip
def test_a_method_less_draft_of_a_family_with_mtp_layers(draft: str, release: str, method: str | None) -> None:
    found = infer(draft, release)
    assert found is not None
    if method is None:
        assert found.method != "mtp" and "mtp" not in found.reason.lower(), found
    else:
        assert found.method == method, found


# --- the table against the frameworks' trees (the generated path tables) ---


def _first_releases(name: str) -> dict[str, Version]:
    rows = tomllib.loads((RULES / f"{name}.toml").read_text("utf-8"))["frame"]
    return {r["file"]: Version(r["releases"][0].lstrip("v")) for r in rows if r.get("role") == "draft_model"}


def test_every_row_names_the_frameworks_own_mtp_files_and_no_earlier_release() -> None:
    vllm, sglang = _first_releases("vllm"), _first_releases("sglang")
    for row in mtp_models():
        assert row.vllm_file in vllm, row.name
        assert Version(row.vllm_first) >= vllm[row.vllm_file], row.name
        if row.sglang_file:
            assert row.sglang_file in sglang, row.name
            assert Version(row.sglang_first) == sglang[row.sglang_file], row.name


# --- a draft model qualified as one of its own ("dense / standalone / separate draft model"): the
# draft-model method, which the bare lower-case "draft model" is not ---


@pytest.mark.parametrize(("lines", "said"), [
    # a bug title naming the pairing that fails
    (_issue(61021, "[Bug]: KV cache spec mismatch with a dense draft model and a sliding-window target",
            "2026-05-20", ["Serving fails at start-up on vLLM 0.21.0 when the target mixes attention types."]),
     "dense draft model"),
    # a sentence of the report
    (_issue(61022, "[Bug]: wrong outputs at batch 64", "2026-05-21", [
        "On vLLM 0.20.1 we speculate with a standalone draft model (Qwen3-0.6B) for Qwen3-32B and",
        "outputs turn to garbage once the batch reaches 64."]),
     "standalone draft model"),
    # steps to reproduce, the words hyphenated
    (_issue(61023, "[Bug]: engine hangs after warmup", "2026-05-22", [
        "### Steps to reproduce", "",
        "1. Start vLLM 0.22.0 serving a 70B target with an independent draft-model (1B) at TP 4.",
        "2. Send 32 concurrent requests: the engine hangs after warmup."]),
     "independent draft-model"),
], ids=["title", "sentence", "steps"])  # fmt: skip
def test_a_draft_model_of_its_own_in_words_is_the_draft_model_method(
    tmp_path: Path, lines: list[str], said: str
) -> None:
    path = _crash_path(tmp_path, lines)
    assert_verdict(path, "other", "DraftModelProposer")
    assert any(said in e.text for e in path.evidence), path.evidence


def test_a_docs_page_on_standalone_draft_models_gets_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, [
        "# Speculative decoding with a standalone draft model", "",
        "This guide shows how to pick a standalone draft model for a large target and which",
        "settings to tune. Choose a draft that shares the target's tokenizer."])
