"""Evidence the linker still missed (session 31, MISSES31).

- A record that a model runner v2 speculator module wrote (``[speculator.py:N]`` behind vLLM's
  prefix, or cut to its tag at the line's start) shows a speculative run on that runner, method
  named or not: MRV2 builds a speculator only for a speculative config. The class its capture
  record names, else the draft variant the text names (DFlash2), else every MRV2 speculator of
  the release as the condition; never a V1 proposer. A method named in words is read on MRV2.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_no_path, assert_verdict, probed_path

from spectrace.assemblers.vllm_runner import module_runner

# --- a record of an MRV2 speculator module, no method named ------------------------------

_W = "(Worker_TP0 pid=311) INFO 02-17 11:20:"


def test_a_bare_speculator_tag_is_the_model_runner_v2s() -> None:
    assert module_runner("[speculator.py:64] draft steps rebuild their metadata") == "v2"
    assert module_runner("`[speculator.py:64] draft steps rebuild their metadata") == "v2"
    assert module_runner("see speculator.py:64 for the gate") is None  # a sentence, no record


def test_a_variant_named_by_the_speculator_record_decides_it(tmp_path: Path) -> None:
    lines = [f"{_W}01 [speculator.py:212] DFlash2-only graphs on for batches [1, 2, 4] (target unchanged)",
             f"{_W}09 [model_runner.py:990] Graph capturing finished in 5 secs, took 0.21 GiB"]
    assert_verdict(probed_path(tmp_path, lines), "other", "DFlash2Speculator")


def test_a_capture_record_names_the_class_inside_a_harness_tail(tmp_path: Path) -> None:
    lines = ["== step 3: serve, status=ok ==", "  --- tail of node-2/worker.log ---",
             f"  {_W}30 [gpu_worker.py:410] Available KV cache memory: 12.5 GiB",
             f"  {_W}33 [speculator.py:140] Capturing model for Eagle speculator...",
             f"  {_W}40 [model_runner.py:990] Graph capturing finished in 7 secs, took 0.30 GiB"]
    assert_verdict(probed_path(tmp_path, lines), "other", "EagleSpeculator")


def test_a_record_alone_gives_the_speculators_never_a_v1_proposer(tmp_path: Path) -> None:
    lines = [f"{_W}12 [speculator.py:98] Draft metadata is rebuilt between steps for backend FOO_ATTN"]
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "unknown", "EagleSpeculator|MTPSpeculator|DSparkSpeculator")
    assert "Proposer" not in (path.conditional or ""), path.conditional


def test_a_method_in_words_beside_a_bare_record_is_read_on_the_v2_runner(tmp_path: Path) -> None:
    lines = ["# Notes: MTP with two draft tokens on our box", "",
             "We serve with MTP k=2; throughput rose by a third at one user.", "",
             "```", "[speculator.py:117] Fused draft decode unsupported by backend BAR_ATTN; rebuilding",
             "```"]
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "unknown", "EagleSpeculator|MTPSpeculator")
    assert "Proposer" not in (path.conditional or "") and "Worker" not in (path.conditional or ""), path


def test_records_a_page_tells_the_reader_to_expect_show_no_run(tmp_path: Path) -> None:
    lines = ["## Checking the draft path", "",
             "After start-up you should see a line like:", "",
             f"{_W}33 [speculator.py:140] Capturing model for Eagle speculator...", "",
             "If it is missing, speculation is off."]
    assert_no_path(tmp_path, lines, name="README.md")
