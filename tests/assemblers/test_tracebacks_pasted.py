"""Tracebacks as GitHub threads carry them: indented as a whole, cut at either end, or a
faulthandler dump whose header and colour codes a copy-paste lost (lines written by us)."""

from __future__ import annotations

from asm_helpers import assemble

from spectrace.assemblers.crash import CrashKind
from spectrace.assemblers.fatal import FatalMatcher
from spectrace.assemblers.tracebacks import parse_exception
from spectrace.ruleset import RuleSet

RUNNER = '  File "/usr/local/lib/python3.10/dist-packages/vllm/worker/model_runner.py", line 717, in execute_model'
SPEC = '  File "/usr/local/lib/python3.10/dist-packages/vllm/spec_decode/spec_decode_worker.py", line 388, in _run_speculative_decoding_step'
VW = "(Worker_TP2 pid=253) ERROR 05-13 10:46:43 [multiproc_executor.py:962] "


def test_a_paste_indented_as_a_whole_keeps_its_exception() -> None:
    crashes = assemble([
        "    Traceback (most recent call last):",
        "    " + SPEC,
        "        proposal_scores = self.scorer.score_proposals(",
        "    " + RUNNER,
        "        model_executable = self.graph_runners[graph_batch_size]",
        "    KeyError: 8",
        "",
        "next paragraph of the issue",
    ])  # fmt: skip
    assert len(crashes) == 1
    c = crashes[0]
    assert (c.exception_type, c.message, c.end_lineno) == ("KeyError", "8", 6)
    assert [f.function for f in c.frames] == ["_run_speculative_decoding_step", "execute_model"]
    assert c.frames[1].code == "model_executable = self.graph_runners[graph_batch_size]"


def test_a_paste_that_starts_and_ends_mid_chain_names_the_known_cause() -> None:
    crashes = assemble([
        SPEC,
        "    proposal_scores = self.scorer.score_proposals(",
        RUNNER,
        "    model_executable = self.graph_runners[graph_batch_size]",
        "KeyError: 8",
        "",
        "The above exception was the direct cause of the following exception:",
        "",
        "Traceback (most recent call last):",
        '  File "/usr/local/lib/python3.10/dist-p',
    ])  # fmt: skip
    assert len(crashes) == 1
    c = crashes[0]
    assert (c.exception_type, c.message) == ("KeyError", "8")
    assert [f.function for f in c.frames][-1] == "execute_model"
    assert len(c.chain) == 2 and c.chain[0].relation == "cause"


def test_a_cut_chain_marker_is_not_the_next_tracebacks_header() -> None:
    crashes = assemble([
        VW + "For debugging consider passing CUDA_LAUNCH_BLOCKING=1",
        VW,
        VW + "During handling of the above exception, another exception occurred:",
        VW,
        VW + "Traceback (most recent call last):",
        VW + '  File "/usr/local/lib/python3.12/site-packages/vllm/v1/executor/multiproc_executor.py", line 957, in worker_busy_loop',
        VW + "    output = func(*args, **kwargs)",
        VW + "torch.AcceleratorError: CUDA error: an illegal memory access was encountered",
    ])  # fmt: skip
    assert len(crashes) == 1
    c = crashes[0]
    assert c.header is None and c.lineno == 5 and c.rank == "Worker_TP2"
    assert c.exception_type == "torch.AcceleratorError"


def test_ray_faulthandler_dump_without_escape_bytes_or_header() -> None:
    tag = "[36m(RayWorkerWrapper pid=812)[0m "
    crashes = assemble([
        tag + '  File "/usr/local/lib/python3.12/dist-packages/torch/_ops.py", line 1116 in __call__',
        tag + '  File "/usr/local/lib/python3.12/dist-packages/vllm/distributed/parallel_state.py", line 307 in all_reduce',
        tag + '  File "/usr/local/lib/python3.12/dist-packages/vllm/model_executor/layers/linear.py", line 1153 in forward',
        "INFO 02-12 18:39:01 [engine.py:1] next",
    ])  # fmt: skip
    assert len(crashes) == 1
    c = crashes[0]
    assert (c.kind, c.rank, c.lineno) == (CrashKind.FAULTHANDLER, "RayWorkerWrapper", 1)
    # faulthandler prints the most recent call first; frames are kept outermost first
    assert [f.function for f in c.frames] == ["forward", "all_reduce", "__call__"]


def test_multiprocessing_names_the_child_before_its_traceback() -> None:
    ec = "(EngineCore_DP0 pid=43418) "
    crashes = assemble([
        ec + "Process EngineCore_DP0:",
        ec + "Traceback (most recent call last):",
        ec + '  File "/x/vllm/v1/engine/core.py", line 712, in run_engine_core',
        ec + "    raise e",
        ec + "RuntimeError: Engine core initialization failed.",
    ])  # fmt: skip
    assert [(c.header, c.lineno, c.rank) for c in crashes] == [
        ("Process EngineCore_DP0:", 1, "EngineCore_DP0")
    ]
    prose = assemble(["Process the batch:", "Traceback (most recent call last):"])
    assert prose[0].header is None


def test_a_cut_traceback_is_classed_by_its_header() -> None:
    err = "(EngineCore_DP0 pid=286) ERROR 03-05 05:40:33 [core.py:1102] "
    (crash,) = assemble([
        err + "EngineCore encountered a fatal error.",
        err + "Traceback (most recent call last):",
        err + '  File "/x/vllm/v1/engine/core.py", line 1093, in run_engine_core',
        err + "    engine_core.run_busy_loop()",
    ])  # fmt: skip
    classed = FatalMatcher(RuleSet.load()).classify(crash)
    assert (classed.exception_type, classed.crash_class) == ("Traceback", "engine_core_fatal")


def test_an_ignored_exception_at_shutdown_is_a_warning() -> None:
    (crash,) = assemble([
        "Exception ignored in: <function Wrapper.__del__ at 0x7f0000000000>",
        "Traceback (most recent call last):",
        '  File "/x/vllm/profiler/wrapper.py", line 40, in __del__',
        "ImportError: sys.meta_path is None, Python is likely shutting down",
    ])  # fmt: skip
    classed = FatalMatcher(RuleSet.load()).classify(crash)
    assert classed.header is not None and classed.header.startswith("Exception ignored in:")
    assert (classed.crash_class, classed.severity, classed.collateral) == (
        "ignored_exception",
        "warning",
        True,
    )


def test_the_exception_classes_before_the_header_does() -> None:
    err = "(EngineCore_DP0 pid=286) ERROR 03-05 05:40:33 [core.py:1102] "
    (crash,) = assemble([
        err + "EngineCore encountered a fatal error.",
        err + "Traceback (most recent call last):",
        err + '  File "/x/vllm/v1/spec_decode/eagle.py", line 240, in propose',
        err + "ValueError: too many values to unpack (expected 2)",
    ])  # fmt: skip
    assert FatalMatcher(RuleSet.load()).classify(crash).crash_class == "unpack_mismatch"


def test_code_that_lost_its_indent_is_not_an_exception_line() -> None:
    assert parse_exception("self.comm: ncclComm_t = self.nccl.ncclCommInitRank(") is None
    assert parse_exception("socket.timeout: timed out") == ("socket.timeout", "timed out")
    assert parse_exception("torch.AcceleratorError: CUDA error") == (
        "torch.AcceleratorError",
        "CUDA error",
    )
