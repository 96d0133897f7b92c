"""Runs shown by lines other than a launch command or a ServerArgs dump (session 27, SGLEV; the
shapes of R88 07, R88 01 and R86 09). Lines are our own, in the shapes such notes and logs take.

- sgl_kernel's speculative ops are resolved when called: a wheel built without one fails on
  the first request that reaches its caller. An op only one worker's file calls
  (``reconstruct_indices_from_tree_mask``: NGRAM's) names that worker; an op the families
  share names none; an import of the op fails on any run and names none.
- A file named by its bare name that only a platform plugin's table holds puts the run on the
  plugin only where the text does (its platform words); vLLM's tree may hold the same name.
- A launcher's key=value record of its job (``engine_method=X`` with ``num_speculative_tokens=N``)
  is vLLM's speculative config, like the flag; a method key alone, or a docs example, is not.
- SGLang's own decode record (whole, or cut by grep at its ``accept len``) in the run's file
  names SGLang as the run's framework; a sentence quoting its fields does not.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_no_path, assert_verdict, crash_path, probed_path, run

_MISSING_OP = "AttributeError: '_OpNamespace' 'sgl_kernel' object has no attribute '{op}'"


@pytest.mark.parametrize("lines", [
    # a lab note: its own NGRAM run died at the first request, the error on its own line
    ["# Draft-free n-gram speculation on our gfx1100 box",
     "",
     "We launched with NGRAM; the server loaded its weights and died as soon as the first prompt arrived:",
     "`" + _MISSING_OP.format(op="reconstruct_indices_from_tree_mask") + "`",
     "",
     "Our wheel of the kernel package was compiled before that op existed."],
    # a stamped log line of the dispatcher refusing the op on a backend without it
    ["[2026-07-03 09:14:55 TP0] Prefill batch, #new-seq: 1, #new-token: 211, #cached-token: 0",
     "[2026-07-03 09:14:56 TP0] RuntimeError: Could not run 'sgl_kernel::reconstruct_indices_from_tree_mask'"
     " with arguments from the 'CPU' backend."],
    # a traceback whose last frame is the kernel package's own wrapper
    ["Traceback (most recent call last):",
     '  File "/usr/lib/python3/site-packages/sgl_kernel/speculative.py", line 128, in reconstruct_indices_from_tree_mask',
     "    torch.ops.sgl_kernel.reconstruct_indices_from_tree_mask.default(",
     _MISSING_OP.format(op="reconstruct_indices_from_tree_mask")],
])  # fmt: skip
def test_an_op_only_ngram_calls_names_its_worker(tmp_path: Path, lines: list[str]) -> None:
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "NGRAMWorker")


def test_an_op_the_families_share_names_no_worker(tmp_path: Path) -> None:
    lines = ["# Speculation on the consumer card",
             "The server with speculation on fails at the first decode step:",
             "`" + _MISSING_OP.format(op="verify_tree_greedy") + "`"]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class != "NGRAMWorker" and "NGRAMWorker" not in (path.conditional or ""), path


def test_an_import_of_the_op_shows_no_call(tmp_path: Path) -> None:
    lines = ["We turned NGRAM on for the long-context box and the server did not come up:",
             "ImportError: cannot import name 'reconstruct_indices_from_tree_mask' from 'sgl_kernel.speculative'"]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert not any("at its call" in e.reason for e in path.evidence), path


@pytest.mark.parametrize("lines", [
    # a fix PR adding a fallback for the op: the error is what its code avoids, no run of its own
    ["sgl-project/sglang · pull request #99123 · open",
     "# [AMD] Use a torch port where the kernel package has no tree-mask op", "",
     "author · description · 2026-06-20", "### Motivation", "",
     "Wheels for gfx1201 ship without the n-gram tree-mask op, so the NGRAM path would raise",
     "`" + _MISSING_OP.format(op="reconstruct_indices_from_tree_mask") + "`",
     "the first time it calls it.", "", "### Modifications", "",
     "- Add a torch version of the op in `python/sglang/srt/speculative/ngram_utils.py`, used when it is absent.",
     "- A unit test comparing both on random trees."],
    # a review note telling what a wheel without the op would print: no run of its own
    ["## Review notes on the kernel packaging change",
     "If a wheel lacks the op you would see something like "
     "`" + _MISSING_OP.format(op="reconstruct_indices_from_tree_mask") + "` when it is first used."],
])  # fmt: skip
def test_an_error_told_as_what_would_happen_shows_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)



def _overlay_notes(name: str, method: str, extra: tuple[str, ...] = ()) -> list[str]:
    """Patch notes of a vLLM overlay naming a proposer file by its bare name."""
    return [f"# Batched drafting fixes for the vLLM {method} overlay", "",
            f"Two patches to our {method} overlay on vLLM so that more than one sequence is drafted per step.",
            *extra, "",
            "| file | change |", "|---|---|", f"| `vllm/v1/spec_decode/{name}` | slot map per request |", "",
            f"- `{name}`: keep one slot per request id and rebuild the context offsets per step.", "",
            f"Before the patch, serving with {method} and max_num_seqs 4 returned HTTP 500 on the second request:", "",
            f"ValueError: {method} drafting expects one flattened segment per request; got 3 segments for 2 requests"]  # fmt: skip


@pytest.mark.parametrize(("name", "method"), [("dspark_proposer.py", "DSpark"), ("mtp_proposer.py", "MTP")])
def test_a_bare_plugin_file_name_does_not_put_a_vllm_run_on_the_plugin(
    tmp_path: Path, name: str, method: str
) -> None:
    path = crash_path(run(tmp_path, _overlay_notes(name, method)))
    assert "Ascend" not in (path.worker_class or "") and "Ascend" not in (path.conditional or ""), path


def test_a_bare_plugin_file_name_on_the_plugins_platform_stays_the_plugins(tmp_path: Path) -> None:
    lines = _overlay_notes("dspark_proposer.py", "DSpark", ("We serve it on Ascend 910B NPUs through vllm-ascend.",))
    path = crash_path(run(tmp_path, lines))
    assert "AscendDSparkProposer" in f"{path.worker_class} {path.conditional}", path


def _job_record(method_line: str, size_line: str | None) -> list[str]:
    """A batch launcher's record of the job it submits, one key=value a line."""
    return ["stage=70b", "served_model=ourorg/target-70b-sweep-3", "target_tensor_parallel_size=4",
            method_line, *([size_line] if size_line else []), "max_model_len=16384",
            "gpu_memory_utilization=0.85", "Job submitted: 88123", "Logs: ~/.jobs/logs/88123"]  # fmt: skip


@pytest.mark.parametrize(("method_line", "size_line"), [
    ("engine_method=medusa", "num_speculative_tokens=4"),
    ("spec_method=medusa", "num_speculative_tokens=2"),
])  # fmt: skip
def test_a_launchers_key_value_record_is_the_runs_config(
    tmp_path: Path, method_line: str, size_line: str
) -> None:
    path = probed_path(tmp_path, _job_record(method_line, size_line))
    assert path.framework == "vllm" and path.worker_class == "MedusaProposer", path


@pytest.mark.parametrize("lines", [
    # a method key with no draft size in vLLM's spelling: any program's setting
    _job_record("engine_method=medusa", None),
    # the same record shown as an example to copy, not the job submitted
    ["The docs example of a job file for the launcher:", "```", "engine_method=medusa", "num_speculative_tokens=4",
     "max_model_len=16384", "```"],
])  # fmt: skip
def test_a_record_without_its_draft_size_or_as_an_example_is_no_config(
    tmp_path: Path, lines: list[str]
) -> None:
    path = probed_path(tmp_path, lines)
    assert path.worker_class != "MedusaProposer", path


# SGLang's decode record of a speculating run, cut by grep at its first speculative field
_CUT_RECORDS = [f"accept len: {a}, accept rate: {r}, cuda graph: True, gen throughput (token/s): {t}"
                for a, r, t in (("2.41", "0.35", "61.0"), ("2.05", "0.26", "58.3"), ("2.77", "0.44", "66.9"))]  # fmt: skip


@pytest.mark.parametrize("header", [
    "somelab/a770-serving · sweeps/2026-05/c2-ngram-coder/ngram.accept.log · commit 4d5e6f7",
    "rig-owner/dual-4090-bench · runs/ngram_k8/decode_tail.out (commit 77aa88bb, 2026-05-14)",
])  # fmt: skip
def test_cut_decode_records_under_a_saved_logs_path_name_sglang(tmp_path: Path, header: str) -> None:
    assert_verdict(probed_path(tmp_path, [header, "", *_CUT_RECORDS]), "other", "NGRAMWorker")


def test_whole_decode_records_name_sglang_too(tmp_path: Path) -> None:
    records = [f"[2026-05-14 08:0{n}:00] Decode batch, #running-req: 2, #token: 900, token usage: 0.02, " + r
               for n, r in enumerate(_CUT_RECORDS)]  # fmt: skip
    header = "rig-owner/dual-4090-bench · runs/ngram_k8/server.log (commit 77aa88bb, 2026-05-14)"
    assert_verdict(probed_path(tmp_path, [header, "", *records]), "other", "NGRAMWorker")


@pytest.mark.parametrize("lines", [
    # the control arm of the same sweep: its path sets the family apart
    ["somelab/a770-serving · sweeps/2026-05/c2-ngram-coder/ctl.accept.log · commit 4d5e6f7", "", *_CUT_RECORDS],
    # a sentence quoting the record's fields is no record: no framework from it
    ["# Comparing acceptance on the coder model",
     "The other server's log said accept len: 2.41, accept rate: 0.35 for the same prompts, which looks low."],
])  # fmt: skip
def test_no_record_or_an_arm_set_apart_gives_no_path(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)
