"""Shapes seen in a fifth round of public issue threads (docs/real-logs.md, round 5).

Every line here is written by us in the engines' real formats; none is pasted from a thread.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import roots, run

SITE = "/usr/local/lib/python3.10/dist-packages"


def test_a_frame_with_its_code_glued_on_keeps_the_function_name(tmp_path: Path) -> None:
    """A copy that turned each line break under a frame into blanks: the code rides behind."""
    lines = [
        "Traceback (most recent call last):",
        f'  File "{SITE}/vllm/engine/async_llm_engine.py", line 611, in engine_step'
        "                     request_outputs = await self.engine.step_async()",
        f'  File "{SITE}/vllm/spec_decode/spec_decode_worker.py", line 402, in execute_model',
        "    return self._run_speculative_decoding_step(execute_model_req)",
        "ValueError: could not broadcast input array from shape (130,) into shape (128,)",
    ]
    (inc,) = roots(run(tmp_path, lines))
    assert [f.function for f in inc.frames] == ["engine_step", "execute_model"]
    assert inc.frames[0].code == "request_outputs = await self.engine.step_async()"


def test_a_frame_whose_wrap_lost_the_blank_before_in_is_still_a_frame(tmp_path: Path) -> None:
    tag = "(Worker_TP1 pid=4711) ERROR 03-02 11:04:09 [multiproc_executor.py:901] "
    lines = [
        tag + "WorkerProc hit an exception.",
        tag + "Traceback (most recent call last):",
        tag + f'  File "{SITE}/vllm/v1/worker/gpu_model_runner.py", line 3120,in sample_tokens',
        tag + "    draft = self.propose_draft_token_ids(sampled)",
        tag + "RuntimeError: draft step failed",
    ]
    (inc,) = roots(run(tmp_path, lines))
    assert [f.function for f in inc.frames] == ["sample_tokens"]
    assert inc.origin_rank == "Worker_TP1"


def test_an_error_stated_above_its_cut_traceback_takes_its_writer_and_worker_path(
    tmp_path: Path,
) -> None:
    """The reader pasted the exception first, then the traceback cut before its end: the
    root cause is the stated error, on the traceback's rank, on the path its frames show."""
    sgl = "/sgl-workspace/sglang/python/sglang/srt"
    lines = [
        "RuntimeError: The size of tensor a (4096) must match the size of tensor b (4100) "
        "at non-singleton dimension 1",
        "",
        "[2026-03-04 05:06:07 TP3] Scheduler hit an exception: Traceback (most recent call last):",
        f'  File "{sgl}/managers/scheduler.py", line 2974, in run_scheduler_process',
        "    scheduler.event_loop_overlap()",
        f'  File "{sgl}/speculative/eagle_worker_v2.py", line 680, in forward_batch_generation',
        "    batch_output = self.verify(model_worker_batch)",
        f'  File "{sgl}/speculative/eagle_worker_v2.py", line 713, in verify',
        "    verify_input.prepare_for_v2_verify(",
    ]
    (root,) = roots(run(tmp_path, lines))
    assert root.exception_type == "RuntimeError"
    assert root.origin_rank == "TP3"
    assert root.first_seen.ts_text == "~2026-03-04 05:06:07"
    assert [f.function for f in root.frames][-1] == "verify"
    assert root.worker_path is not None and root.worker_path.value == "v2"


def test_flight_recorder_analysis_names_the_culprit_rank(tmp_path: Path) -> None:
    sizes = "Expected input sizes: '[[512]]' does not match found input sizes: '[[4096]]'"
    lines = [
        "Collective sequence number: 17 has errors",
        "internal record id: 16",
        "group info: 0:default_pg",
        "collective: nccl:all_gather",
        "world size: 8",
        "expected ranks: {0, 1, 2, 3, 4, 5, 6, 7}",
        "collective state: scheduled",
        f"error msg: Culprit rank 5; Error type: SIZE_OR_SYNTAX_MISMATCH, {sizes}, "
        f"Culprit rank 6; Error type: SIZE_OR_SYNTAX_MISMATCH, {sizes}",
    ]
    (root,) = roots(run(tmp_path, lines, "fr_trace.txt"))
    assert (root.exception_type, root.origin_rank) == ("CollectiveMismatch", "rank5")
    assert root.message == f"SIZE_OR_SYNTAX_MISMATCH, {sizes}"
    assert root.crash_class == "hang_desync"


def test_flight_recorder_analysis_names_the_rank_that_never_joined(tmp_path: Path) -> None:
    lines = [
        "Not all ranks joining collective, sequence number: 941",
        "internal record id: 940",
        "group info: 0:default_pg",
        "collective: nccl:all_reduce",
        "missing ranks: {3, 7}",
        "input sizes: [[1024, 4096]]",
    ]
    (root,) = roots(run(tmp_path, lines, "fr_trace.txt"))
    assert (root.exception_type, root.origin_rank) == ("CollectiveMissingRanks", "rank3")
    assert root.message == "missing ranks: {3, 7}"


def test_a_log_viewer_table_copied_as_text_is_read(tmp_path: Path) -> None:
    """Grafana's log table pasted into GitHub: empty cells, a time column, the line, a border."""
    sgl = "/sgl-workspace/sglang/python/sglang/srt"
    rows = [
        "[2026-05-06 07:08:09 PP1 TP2] Scheduler hit an exception: Traceback (most recent call last):",
        f'File "{sgl}/managers/scheduler.py", line 4064, in run_scheduler_process',
        "scheduler.run_event_loop()",
        f'File "{sgl}/managers/scheduler.py", line 3925, in dispatch_event_loop',
        "scheduler.event_loop_pp()",
        "ValueError: pipeline stage got no microbatch",
    ]
    lines = ["2026-05-06 15:08:09.100 | first row of the panel |  ", "-- | -- | --"]
    lines += [f"  |   | 2026-05-06 15:08:09.{n:03d} | {row} |  " for n, row in enumerate(rows)]
    (root,) = roots(run(tmp_path, lines))
    assert (root.exception_type, root.message) == ("ValueError", "pipeline stage got no microbatch")
    assert root.origin_rank == "PP1 TP2"
    assert root.first_seen.ts_text == "2026-05-06 07:08:09"
    assert [f.function for f in root.frames] == ["run_scheduler_process", "dispatch_event_loop"]


def test_loguru_lines_are_not_taken_for_a_table_row(tmp_path: Path) -> None:
    lines = [
        "2024-06-15 10:58:41.193 | ERROR    | vllm.worker.worker_base:execute_method:148 - "
        "Error executing method start_worker_execution_loop. This might cause deadlock in "
        "distributed execution.",
        "Traceback (most recent call last):",
        f'  File "{SITE}/vllm/worker/worker_base.py", line 140, in execute_method',
        "    return executor(*args, **kwargs)",
        "RuntimeError: shape mismatch in the draft step",
    ]
    (root,) = roots(run(tmp_path, lines))
    assert root.first_seen.ts_text == "2024-06-15 10:58:41.193"
    assert root.message == "shape mismatch in the draft step"


def test_an_edited_worker_notice_and_its_traceback_are_one_root_cause(tmp_path: Path) -> None:
    """Stamps edited out, and the traceback's line lost its ``[file:N]``: the notice and the
    traceback below it no longer share a logger call, yet the traceback is the one cause."""
    tag = "(Worker_DP1_TP3_EP3 pid=52110) ERROR "
    lines = [
        tag + "[multiproc_executor.py:1095] WorkerProc hit an exception.",
        tag + "Traceback (most recent call last):",
        '  File ".../vllm/v1/executor/multiproc_executor.py", line 1090, in worker_busy_loop',
        "    output = func(*args, **kwargs)",
        '  File ".../vllm/v1/worker/block_table.py", line 445, in compute_slot_mapping',
        "    self.slot_mapping[:n].copy_(slots)",
        "RuntimeError: The size of tensor a (512) must match the size of tensor b (515) "
        "at non-singleton dimension 0",
    ]
    analysis = run(tmp_path, lines)
    (root,) = roots(analysis)
    assert root.exception_type == "RuntimeError"
    assert root.origin_rank == "Worker_DP1_TP3_EP3"
    notice = next(i for i in analysis.incidents if i.crash_class == "worker_proc_failed")
    assert notice.caused_by == root.id


def test_the_tail_of_a_dump_cut_at_its_head_is_not_a_second_cause(tmp_path: Path) -> None:
    """Ranks of one job dump together: the paste begins with the end of one dump (no header)
    right above the next full dump, which is the one to read."""
    site = "/opt/conda/lib/python3.11"
    lines = [
        f'  File "{site}/multiprocessing/spawn.py", line 120 in spawn_main',
        '  File "<string>", line 1 in <module>',
        "Fatal Python error: Segmentation fault",
        "",
        "Current thread 0x00007f11aa22b740 (most recent call first):",
        f'  File "{site}/site-packages/sglang/srt/distributed/pynccl.py", line 108 in __init__',
        f'  File "{site}/site-packages/sglang/srt/model_executor/model_runner.py", line 253 in '
        "init_torch_distributed",
    ]
    analysis = run(tmp_path, lines)
    (root,) = roots(analysis)
    assert (root.exception_type, root.frames[-1].function) == ("SIGSEGV", "__init__")
    assert len(analysis.incidents) == 2


def test_pytest_failure_report_names_the_raised_exception(tmp_path: Path) -> None:
    """A CI log of a failing test: pytest marks the raised exception with ``E`` and blanks."""
    lines = [
        "    def test_prepare_inputs(self):",
        "        counts = torch.tensor([2, 2, 3])",
        ">       rejected = drafted + 1 - counts",
        "E       RuntimeError: The size of tensor a (4) must match the size of tensor b (3) "
        "at non-singleton dimension 0",
        "E       assert rejected is not None",
        "",
        "tests/spec_decode/test_proposer.py:88: RuntimeError",
    ]
    (root,) = roots(run(tmp_path, lines, "ci.log"))
    assert root.exception_type == "RuntimeError"
    assert root.shape_mismatch is not None
    assert root.shape_mismatch.numbers == {"a": 4, "b": 3, "dim": 0}


def test_tensorrt_llm_invalid_shape_check_is_a_shape_mismatch_said_unexplained(
    tmp_path: Path,
) -> None:
    """TensorRT-LLM's own shape check: the numbers are read; with no run facts in the log,
    spectrace says it cannot decode them rather than guessing a draft or batch count."""
    lines = [
        "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: Tensor 'draft_tokens' has invalid "
        "shape (6, 3), expected (-1, 5) (/src/tensorrt_llm/runtime/tllmRuntime.cpp:310)",
    ]
    (root,) = roots(run(tmp_path, lines))
    sm = root.shape_mismatch
    assert sm is not None and sm.pattern == "trt_invalid_shape"
    assert sm.numbers == {"shape0": 6, "shape1": 3, "target0": -1, "target1": 5}
    assert root.explanation is not None and not root.explanation.explained
    assert "(6, 3) where (-1, 5) was expected" in root.explanation.summary


def test_a_wrapped_frame_line_in_an_indented_paste_is_joined(tmp_path: Path) -> None:
    """A terminal copy wrapped a frame line onto a line of its own, and the reader indented
    the whole paste: the wrapped rest carries the indent and still completes its frame."""
    tag = "    (Worker_TP3 pid=7001) ERROR 05-06 07:08:09 [multiproc_executor.py:968] "
    lines = [
        tag + "Traceback (most recent call last):",
        tag + f'  File "{SITE}/vllm/v1/worker/gpu_model_runner.py", line 5120, in sample_tokens',
        tag + "    probs = self._draft_probs(meta)",
        tag + f'  File "{SITE}/vllm/v1/spec_decode/draft_probs.py", li',
        "    ne 88, in align_draft_probs",
        tag + "    raise RuntimeError(",
        tag + "RuntimeError: draft probabilities missing",
    ]
    (root,) = roots(run(tmp_path, lines))
    assert [f.function for f in root.frames] == ["sample_tokens", "align_draft_probs"]
    assert root.frames[-1].line == 88


def test_a_5xx_reply_is_collateral_of_the_engine_error_near_it(tmp_path: Path) -> None:
    """A serving wrapper's traceback ends in its 500 reply; the engine's own error, printed
    after it, is the cause."""
    lines = [
        "Traceback (most recent call last):",
        '  File "/srv/app/handlers.py", line 41, in chat',
        "    raise HTTPException(status_code=500, detail='engine error during inference')",
        "fastapi.exceptions.HTTPException: 500: engine error during inference",
        "",
        "E0405 10:11:12.123456789     77 server.cpp:190] request 9 failed: Encountered an error "
        "in forwardAsync function: [TensorRT-LLM][ERROR] Assertion failed: draft length must "
        "not exceed maxDraftLen (/src/cpp/tensorrt_llm/batch_manager/decoder.cpp:88)",
    ]
    analysis = run(tmp_path, lines)
    (root,) = roots(analysis)
    assert root.crash_class == "trtllm_assertion"
    reply = next(i for i in analysis.incidents if i.crash_class == "request_failed")
    assert reply.caused_by == root.id


def test_a_5xx_reply_alone_still_fails_the_run(tmp_path: Path) -> None:
    lines = ["starlette.exceptions.HTTPException: 503: model is not ready"]
    (root,) = roots(run(tmp_path, lines))
    assert root.crash_class == "request_failed"
