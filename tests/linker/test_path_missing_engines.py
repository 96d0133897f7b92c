"""An unknown verdict asks for the lines of the framework the crash came from: a TensorRT-LLM
error asks for trtllm-serve and its YAML, a vLLM-only log for `vllm serve`, never for SGLang's
launch or version line (issue 11 item 5, issue 12 item 7). Lines written by us."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import run

from spectrace.path_missing import ASCEND_VERSION, LAUNCH


def _root(tmp_path: Path, lines: list[str]):  # noqa: ANN202 - the root cause's WorkerPath
    return next(i.worker_path for i in run(tmp_path, lines).incidents if i.root_cause)


TRT_ERROR = [
    "[12/03/2026-10:00:00] [TRT-LLM] [E] Encountered an error in forwardAsync function",
    "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: xqa kernel (our own text)",
    "tensorrt_llm.bindings.executor.TRTLLMError: [TensorRT-LLM][ERROR] Assertion failed: "
    "draft tokens exceed the window",
]


def test_a_tensorrt_llm_error_asks_for_trtllm_serve_and_its_yaml(tmp_path: Path) -> None:
    path = _root(tmp_path, TRT_ERROR)
    assert path.value == "unknown" and path.framework == "trtllm"
    assert path.missing and "trtllm-serve" in path.missing[0]
    assert all("sglang" not in m for m in path.missing)


def test_a_vllm_only_log_asks_for_vllm_serve(tmp_path: Path) -> None:
    pre = "(RayWorkerWrapper pid=77, ip=10.0.0.3) ERROR 12-03 10:00:00 [worker_base.py:620] "
    path = _root(tmp_path, [
        pre + "Error executing method 'execute_model'. This might cause deadlock.",
        pre + "Traceback (most recent call last):",
        pre + '  File "/usr/lib/python3/site-packages/vllm/worker/worker_base.py", line 612, in '
        "execute_method",
        pre + "    return run_method(self, method, args, kwargs)",
        pre + "RuntimeError: our own failure",
    ])  # fmt: skip
    assert path.value == "unknown" and path.missing != (LAUNCH,)
    assert "vllm serve" in " ".join(path.missing) and "sglang" not in " ".join(path.missing)


def test_a_vllm_ascend_conditional_asks_for_the_plugins_version() -> None:
    from spectrace.assemblers.run_config import Evidence, RunConfig
    from spectrace.linker import decide

    cond = Evidence("r.log", 3, "frame", "reason", None, None, "A if vllm-ascend >= 0.12, else B")
    path = decide([cond], RunConfig(engine="vllm_ascend"))
    assert path.missing[0] == ASCEND_VERSION


def test_a_conditional_on_a_setting_is_not_worded_as_one_on_the_release() -> None:
    from spectrace.reports.words import conditional_head

    assert conditional_head("v2 (EAGLEWorkerV2) if sglang >= 0.5.13, else v1") == (
        "depends on the release"
    )
    assert conditional_head("NgramProposer if vLLM runs its V1 engine, else NGramWorker (V0)") == (
        "depends on the release"
    )
    head = conditional_head("Eagle3OneModelWorker if eagle3_one_model keeps its default (True)")
    assert head == "depends on a setting the log does not show"


def test_a_vllm_runner_conditional_asks_for_vllms_version_and_runner_not_sglangs() -> None:
    """A conditional naming only vLLM classes is vLLM's even with no vLLM line read: the
    user is asked for vLLM's version and the V2-runner switch, never `sglang.check_env`."""
    from spectrace.assemblers.run_config import Evidence, RunConfig
    from spectrace.linker import decide
    from spectrace.path_missing import VLLM_RUNNER

    cond = "EagleProposer on the V1 model runner, EagleSpeculator on the V2 model runner"
    path = decide([Evidence("r.log", 3, "eagle3", "words", None, None, cond)], RunConfig())
    assert (path.value, path.framework, path.missing[0]) == ("unknown", "vllm", VLLM_RUNNER)
    assert all("sglang" not in m for m in path.missing)


def test_a_trtllm_mtp_conditional_asks_for_the_yaml_not_sglangs_version() -> None:
    from spectrace.assemblers.run_config import Evidence, RunConfig
    from spectrace.linker import decide
    from spectrace.path_missing import TRTLLM_MTP

    cond = "MTPEagleWorker if the checkpoint has one MTP module, else MTPWorker (MTP vanilla)"
    path = decide([Evidence("r.log", 3, "mtp", "words", None, None, cond)], RunConfig())
    assert (path.framework, path.missing[0]) == ("trtllm", TRTLLM_MTP)


def test_an_sglang_launch_without_its_algorithm_asks_for_the_server_args_line(
    tmp_path: Path,
) -> None:
    """Lines were read (draft steps, topk) but none names the algorithm: the unknown says
    which start-up line settles it instead of saying nothing."""
    from spectrace.path_missing import SGLANG_DUMP

    path = _root(tmp_path, [
        "python3 -m sglang.launch_server --model-path /models/m --speculative-num-steps 3 "
        "--speculative-eagle-topk 1 --tp 2",
        "[2026-03-01 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):",
        '  File "/opt/sglang/srt/managers/scheduler.py", line 2900, in run_scheduler_process',
        "RuntimeError: our own failure",
    ])  # fmt: skip
    assert path.value == "unknown" and path.framework == "sglang"
    assert path.missing and path.missing[0] == SGLANG_DUMP


def test_a_trtllm_yaml_without_its_decoding_type_asks_for_it(tmp_path: Path) -> None:
    from spectrace.path_missing import TRTLLM_CONFIG

    launch = "trtllm-serve /models/m --backend pytorch --tp_size 2 --extra_llm_api_options x.yaml"
    path = _root(tmp_path, [launch, *TRT_ERROR])
    assert path.value == "unknown" and path.framework == "trtllm"
    assert path.missing == (TRTLLM_CONFIG,)
