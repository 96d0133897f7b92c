"""Session 37 (FIXW): three shapes that gave a wrong or a trap's path at FINAL.

1. A report on one engine comparing against another engine named by its bare name ("llama.cpp
   with its DFlash2 path reaches ...", "Ollama's draft model does ..."): the family that clause
   names is that engine's, not the run's.
2. A job's status line saying it did not run ("blocked before dispatch · no run", "Status: not
   dispatched"): its post's image, options and classes are what it would have run.
3. A check whose tests all ended SKIPPED / XFAIL / deselected: pytest started no engine, and a
   test's name (an EAGLE3 test's node id) is no run.
Each test writes its own lines in the shape of the text class and asserts what a user sees."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, probed_path, store_thread
from spectrace.assemblers.other_engines import engine_named
from spectrace.path_run import names_other_framework

# --- 1. another engine named by its bare name in a comparison ---

_SGL_MTP = store_thread("sgl-project/sglang", "issue", 40101,
                        "[Bug] Orbit-32B-MTP: native MTP stalls after the first request on one L40S", "2026-09-02", [
    "# Describe the bug", "",
    "- [x] The bug persists in SGLang v0.5.18.", "",
    "Serving `acme/Orbit-32B-MTP` with native MTP on a single L40S: the first request finishes, the "
    "second never gets a slot and the server stops answering.",
    "{other}", ""])  # fmt: skip

_COMPARISONS = [
    "Decode was 7 tok/s before the stall. On the same card, llama.cpp with its DFlash2 GGUF drafter "
    "reaches about 60 tok/s.",
    "For reference, Ollama with a draft model gets 35 tok/s on this GPU; LMDeploy with EAGLE3 gets 41 tok/s.",
    "I know the engines differ, but MLX-LM with dflash on a laptop is faster than this.",
]


@pytest.mark.parametrize("other", _COMPARISONS, ids=["llama.cpp", "ollama-lmdeploy", "mlx"])
def test_another_engines_method_in_a_comparison_is_not_the_runs_family(tmp_path: Path, other: str) -> None:
    lines = [ln.format(other=other) for ln in _SGL_MTP]
    path = probed_path(tmp_path, lines)
    said = path.worker_class or path.conditional or ""
    assert "DFlash" not in said and "Standalone" not in said and "EAGLE3" not in (path.family or ""), path
    assert path.worker_class == "EAGLEWorkerV2", path  # native MTP on 0.5.18: the v2 EAGLE worker


def test_a_clause_naming_the_runs_engine_beside_another_keeps_its_family() -> None:
    # "SGLang with EAGLE3 is slower than llama.cpp": the run's engine is named, the family is its own
    assert not names_other_framework("SGLang with EAGLE3 is slower than llama.cpp on this card", "sglang")
    assert names_other_framework("On this card llama.cpp with EAGLE3 reaches 60 tok/s", "sglang")
    assert names_other_framework("Ollama's draft model path does 35 tok/s", "vllm")


@pytest.mark.parametrize("text", ["llama.cpp", "ran it on Ollama", "LMDeploy 0.9", "TGI's server", "MLX-LM"])
def test_an_engine_named_bare_is_seen(text: str) -> None:
    assert engine_named(text)


@pytest.mark.parametrize("text", ["llama_model_loader", "TGIF", "meta-llama/Llama-3.1-8B", "llama.cpp.patch"])
def test_a_word_that_only_holds_the_name_is_no_engine(text: str) -> None:
    assert not engine_named(text)


def test_a_comparison_thread_with_no_run_of_its_own_gets_no_path(tmp_path: Path) -> None:
    lines = store_thread("sgl-project/sglang", "issue", 40102, "[Feature] DFlash2 drafts like llama.cpp?",
                         "2026-09-03", [
        "llama.cpp with its DFlash2 GGUF drafter reaches 60 tok/s on one L40S.",
        "Would a DFlash2 path be possible in SGLang as well?"])  # fmt: skip
    assert_no_path(tmp_path, lines)


# --- 2. a job's status line saying it did not run ---

_BUMP = "Replace the floating image with the digest-pinned `vllm/vllm-openai:v0.29.0` release."
_SOURCE = ("At that tag the recipe's path exists in source: `dspark` with `draft_sample_method` "
           "([speculative.py](https://github.com/vllm-project/vllm/blob/v0.29.0/vllm/config/speculative.py)).")


@pytest.mark.parametrize("status", [
    "**Image bump 0/4** · blocked before dispatch · no run (2026-10-01)",
    "Status: not dispatched (quota) — nothing was benchmarked",
    "**Sweep 2/6** · skipped before launch · no run",
])  # fmt: skip
def test_a_bot_comment_saying_its_job_did_not_run_gets_no_path(tmp_path: Path, status: str) -> None:
    lines = store_thread("acme/bench-recipes", "pull request", 812,
                         "Update orbit-fp4-h200-vllm image to v0.29.0", "2026-10-01",
                         [status, _BUMP, _SOURCE,
                          "Recipe flags: `--speculative-config '{\"method\": \"dspark\", \"num_speculative_tokens\": 4}'`"],
                         author="bench-bot", post="comment")  # fmt: skip
    assert_no_path(tmp_path, lines)


def test_a_later_post_with_its_own_run_still_shows_it(tmp_path: Path) -> None:
    blocked = store_thread("acme/bench-recipes", "pull request", 813, "Update orbit vllm image", "2026-10-01",
                           ["**Update 0/2 · blocked before dispatch** · no run", _BUMP],
                           author="bench-bot", post="comment")  # fmt: skip
    ran = ["", "bench-bot · comment · 2026-10-02", "**Update 2/2 · done**",
           "vllm serve acme/Orbit-70B --tensor-parallel-size 8 --speculative-config "
           "'{\"method\": \"eagle3\", \"model\": \"acme/Orbit-70B-eagle3\", \"num_speculative_tokens\": 3}'",
           "Output token throughput (tok/s): 2310.4", "Mean acceptance length: 2.71"]  # fmt: skip
    path = probed_path(tmp_path, [*blocked, *ran])
    said = path.worker_class or path.conditional or ""
    assert "EagleProposer" in said or "EagleSpeculator" in said, path


def test_no_run_in_a_sentence_is_no_status(tmp_path: Path) -> None:
    lines = store_thread("vllm-project/vllm", "issue", 60001, "[Bug] EAGLE3 crashes at warmup", "2026-10-03", [
        "I ran `vllm serve acme/Orbit-8B --speculative-config '{\"method\": \"eagle3\", "
        "\"model\": \"acme/Orbit-8B-eagle3\", \"num_speculative_tokens\": 3}'` on vLLM 0.29.0 and no run "
        "of mine gets past warmup."])  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert "Eagle" in (path.worker_class or path.conditional or ""), path


def test_requests_never_dispatched_in_a_report_is_no_status(tmp_path: Path) -> None:
    lines = store_thread("sgl-project/sglang", "issue", 40210, "[Bug] EAGLE server hangs after warmup", "2026-09-04", [
        "- [x] The bug persists in SGLang v0.5.18.", "",
        "The server starts and warmup completes, but new requests are received by the API layer and "
        "never dispatched by the scheduler; requests are blocked before dispatch for minutes.",
        "Launched with `--speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1 "
        "--speculative-num-draft-tokens 4`."])  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert "EAGLEWorker" in (path.worker_class or path.conditional or ""), path


# --- 3. a check whose tests were all skipped ---

_NODE = "tests/integration/defs/accuracy/test_llm_api_pytorch.py::TestOrbit8B::test_eagle3_one_model"


@pytest.mark.parametrize("outcome", [
    [f"{_NODE} SKIPPED (needs SM90 or newer)"],
    [f"SKIPPED [1] {_NODE.split('::')[0]}:212: needs SM90 or newer", "1 skipped in 3.10s"],
    [f"{_NODE} XFAIL (known acceptance drop on Ada)"],
])  # fmt: skip
def test_a_pr_whose_eagle3_test_was_skipped_gets_no_path(tmp_path: Path, outcome: list[str]) -> None:
    lines = store_thread("NVIDIA/TensorRT-LLM", "pull request", 15001,
                         "[None][fix] Gate the Eagle3 one-model accuracy test by SM", "2026-05-02", [
        "The Eagle3 one-model test's acceptance threshold assumes Hopper.", "",
        "Checked on an A10:", "", "```", f"pytest {_NODE}", *outcome, "```"])  # fmt: skip
    assert_no_path(tmp_path, lines)


def test_a_vllm_e2e_test_deselected_gets_no_path(tmp_path: Path) -> None:
    lines = store_thread("vllm-project/vllm", "pull request", 61002, "[CI] Mark the MTP e2e test as multi-GPU",
                         "2026-06-11", [
        "Verified locally:", "```",
        "pytest tests/v1/e2e/test_spec_decode.py -k mtp_correctness -m 'not multi_gpu'",
        "4 deselected in 1.02s", "```"])  # fmt: skip
    assert_no_path(tmp_path, lines)


def test_the_same_check_with_a_passed_test_keeps_its_path(tmp_path: Path) -> None:
    lines = store_thread("NVIDIA/TensorRT-LLM", "pull request", 15002,
                         "[None][fix] Eagle3 one-model acceptance on Hopper", "2026-05-02", [
        "The Eagle3 one-model test's acceptance threshold assumes Hopper.", "",
        "Tested on an H100:", "", "```", f"{_NODE} PASSED", "```"])  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert path.worker_class == "Eagle3OneModelWorker" or "Eagle3OneModelWorker" in (path.conditional or ""), path
