"""A question, an aside or a plan sets apart only the words of its own sentence (session 18, PROSE).

A report's line often holds the run's statement and a question beside it: "I serve X with EAGLE3
on vLLM 0.10.1 and the engine dies. Any idea what is wrong?". The family and release readers
judged the whole line, so the '?' (or "should", "maybe", "works fine") of the second sentence set
apart the method and the release the first one states (round 43 07: "the performance of eagle3
in vLLM 0.9.0 is worse compared to vLLM 0.9.2. Is the eagle3 architecture different ...?").
Read sentence by sentence (``assemblers/sentences``), the statement keeps its words; a comparison
whose other arm is another release of the engine ran the method on both arms. Every line is
ours: crash reports in several copy forms (index header, web page, mail subject, URL, bare)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_verdict, crash_path, run
from spectrace.assemblers.sentences import sentences
from spectrace.assemblers.sglang_version import other_release
from spectrace.assemblers.spec_prose import unplanned
from spectrace.path_base import family_words, line_guard

VLLM_TB = [
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 701, in run_engine_core',
    "    engine_core.run_busy_loop()",
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_model_runner.py", line 1650, in execute_model',
    "    hidden_states = self.model(",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]
SGL_TB = [
    "[2026-03-03 10:01:02 TP0] Scheduler hit an exception: Traceback (most recent call last):",
    '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2700, in run_scheduler_process',
    "    scheduler.event_loop_normal()",
    '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1000, in event_loop_normal',
    "    batch_result = self.run_batch(batch)",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]
TRT_TB = [
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/pyexecutor/py_executor.py", line 900, in _executor_loop',
    "    self._forward_step(batch)",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]


def _vllm_issue(number: int, title: str, said: str) -> list[str]:
    return [f"vllm-project/vllm · issue #{number} · open · Python", f"# {title}", "",
            "dev-a · description · 2025-09-02", said, "", *VLLM_TB]  # fmt: skip


def _path(tmp_path: Path, lines: list[str]):
    return crash_path(run(tmp_path, lines, name="report.md"))


@pytest.mark.parametrize("said", [
    "I serve Qwen3-8B with EAGLE3 on vLLM 0.10.1 and the engine dies at the first request. Any idea what is wrong?",
    "We run Llama-3.1-8B with an EAGLE3 draft on vLLM 0.10.1; the engine dies at the first request. Maybe related to #20000?",
    # the other arm of the comparison is another release: the method ran on both
    "The acceptance rate of EAGLE3 on vLLM 0.10.1 is lower than on vLLM 0.10.0. Did the drafter change?",
    "Hello, in my testing the performance of eagle3 in vLLM 0.10.0 is worse compared to vLLM 0.10.1. Is the architecture different?",
])  # fmt: skip
def test_a_question_beside_the_runs_statement_keeps_its_family(tmp_path: Path, said: str) -> None:
    lines = _vllm_issue(48001, "[Bug]: engine dies at the first request", said)
    assert_verdict(_path(tmp_path, lines), "other", "EagleProposer")


def test_a_comparison_of_releases_from_a_url_head(tmp_path: Path) -> None:
    lines = ["https://github.com/vllm-project/vllm/issues/48004", "",
             "MTP throughput in vLLM v0.11.1 is much worse compared to v0.11.0 on the same box.", "", *VLLM_TB]  # fmt: skip
    assert_verdict(_path(tmp_path, lines), "other", "EagleProposer")


def test_a_bare_tensorrt_llm_report_with_a_maybe_keeps_mtp(tmp_path: Path) -> None:
    lines = ["Running DeepSeek-R1 with MTP (3 layers) on TensorRT-LLM 1.1.0 crashes with the log below. "
             "Maybe related to the attention DP change?", "", *TRT_TB]  # fmt: skip
    assert_verdict(_path(tmp_path, lines), "unknown", "MTPWorker|MTPEagleWorker")


def test_a_web_copy_keeps_the_release_its_statement_names(tmp_path: Path) -> None:
    lines = ["Decode hangs after a few hundred requests · Issue #41001 · sgl-project/sglang", "",
             "dev-b opened on Mar 3, 2026", "",
             "We launch DeepSeek-V3 with NEXTN on sglang 0.5.9 and the scheduler dies after ~200 requests. "
             "Should we file this against the kernels instead?", "", *SGL_TB]  # fmt: skip
    assert_verdict(_path(tmp_path, lines), "v1", "EAGLEWorker")


@pytest.mark.parametrize("said", [
    "Does EAGLE3 work with Qwen3-8B? The engine dies at the first request on vLLM 0.10.1.",
    "EAGLE3 on vLLM 0.10.1 is slower than MTP. The engine dies at the first request.",
    "The plain server on vLLM 0.10.1 dies at the first request. Should I try EAGLE3 instead?",
    "The engine on vLLM 0.10.1 dies at the first request. With EAGLE3 it works fine.",
])  # fmt: skip
def test_a_family_named_only_in_the_question_or_aside_stays_apart(tmp_path: Path, said: str) -> None:
    path = _path(tmp_path, _vllm_issue(48005, "[Bug]: engine dies at the first request", said))
    assert path.worker_class is None and not path.conditional, path


def test_sentences_cut_at_ends_only() -> None:
    assert sentences("I use e.g. EAGLE3 vs. MTP on vllm 0.10.1. Any idea?") == [
        "I use e.g. EAGLE3 vs. MTP on vllm 0.10.1.", "Any idea?"]
    assert sentences("1. Launch the server with EAGLE3.") == ["1. Launch the server with EAGLE3."]
    assert sentences("see https://x.io/a?b=1 for EAGLE. It crashes.") == ["see https://x.io/a?b=1 for EAGLE.", "It crashes."]
    assert sentences("run `x. Y` now. Then EAGLE.") == ["run `x. Y` now.", "Then EAGLE."]
    assert sentences("我们使用EAGLE3。为什么会崩溃？") == ["我们使用EAGLE3。", "为什么会崩溃？"]


def test_family_words_by_sentence() -> None:
    assert family_words("We run MTP on 0.11.0 and it crashes. Any idea?") == {"MTP"}
    assert line_guard("We run MTP on 0.11.0 and it crashes. Any idea?") is None
    assert family_words("EAGLE3 on 0.10.1 is slower compared to the plain server.") == set()
    assert family_words("EAGLE3 is slower than 1.2 s a request.") == set()  # a number, no release
    assert family_words("EAGLE3 crashes. MTP works fine.") == {"EAGLE3"}
    # guards of the whole line hold for every sentence: code comments, labels
    assert family_words("#   default is ngram. EAGLE is opt-in") == set()
    assert family_words("labels: bug. MTP") == set()
    assert family_words(unplanned("MTP crashes on 0.11.0. We will enable EAGLE3 next week.")) == {"MTP"}
    # work still going on to support a method: not the run's ("make it work" was the line's guard)
    assert family_words(unplanned("I verified the single-instance setup only. Some changes are needed to "
                                  "make it work for PD. I am still debugging and tuning PP+DSpark compatibility.")) == set()
    # a question whether the method is behind the failure keeps it apart on the whole line
    assert family_words("Is it MTP related? In my MTP run the log says") == set()
    assert family_words("We run MTP on 0.11 and it crashes. Is this related to the new kernel?") == {"MTP"}


def test_a_release_set_apart_by_its_own_sentence_only() -> None:
    assert not other_release("We launch X on sglang 0.5.9 and it dies. Should we file this elsewhere?")
    assert not other_release("SGLang 0.5.14 works fine for 10 minutes. Then it crashes.")
    assert other_release("It crashes. Downgrading to sglang 0.5.3 avoids it.")
    assert other_release("Is this fixed in 0.5.10?")
    assert other_release("Works with sglang 0.5.3 but crashes on main")


# "Removing X avoids it": the method taken away makes the failure go away, so the failing run had it
def test_removing_the_method_avoids_it_names_the_failing_runs_method(tmp_path: Path) -> None:
    sgl = ["sgl-project/sglang · issue #7003 · open · Python", "# [Bug] illegal memory access under load", "",
           "dev-i · description · 2025-06-10",
           "The scheduler crashes under load on sglang 0.4.6. Without EAGLE it does not happen.", "",
           *[line.replace("2026-03-03", "2025-06-10") for line in SGL_TB]]  # fmt: skip
    assert_verdict(_path(tmp_path, sgl), "v1", "EAGLEWorker")
    vllm = _vllm_issue(20002, "[Bug]: illegal memory access under load",
                       "The engine crashes under load on vLLM 0.10.0. Removing the eagle3 speculative config avoids it.")
    assert_verdict(_path(tmp_path, vllm), "other", "EagleProposer")
    trt = ["DeepSeek-R1 on trtllm-serve 1.1.0 dies after about an hour of load. Disabling MTP in the extra "
           "options makes the crash go away.", "", *TRT_TB]  # fmt: skip
    assert_verdict(_path(tmp_path, trt), "unknown", "MTPWorker|MTPEagleWorker")


@pytest.mark.parametrize("said", [
    "Without MTP it still crashes.",
    "If you hit this, disabling MTP avoids it.",
    "Removing MTP does not fix it.",
    "Does removing MTP avoid it?",
])  # fmt: skip
def test_a_removal_that_keeps_the_failure_or_is_advice_names_nothing(tmp_path: Path, said: str) -> None:
    lines = [f"DeepSeek-R1 on trtllm-serve 1.1.0 dies after about an hour of load. {said}", "", *TRT_TB]
    path = _path(tmp_path, lines)
    assert path.worker_class is None and not path.conditional, path
