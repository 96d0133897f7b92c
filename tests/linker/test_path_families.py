"""The verdict names the framework and the speculative family, not only v1/v2; an unknown
says which line would settle it, and nothing when the server says it does not speculate."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import run

from spectrace.path_missing import LAUNCH, SGLANG_DUMP, VERSION_LINE, WORKER_FRAME

VLLM_CRASH = [
    "(EngineCore_DP0 pid=1234) ERROR 03-01 10:00:00 [core.py:710] EngineCore encountered a "
    "fatal error.",
    "(EngineCore_DP0 pid=1234) ERROR 03-01 10:00:00 [core.py:710] RuntimeError: CUDA error: an "
    "illegal memory access was encountered",
]


def paths(tmp_path: Path, lines: list[str]):  # noqa: ANN201 - the root causes' WorkerPaths
    return [i.worker_path for i in run(tmp_path, lines).incidents if i.root_cause]


def test_vllm_speculative_config_json_names_framework_family_and_proposer(tmp_path: Path) -> None:
    serve = (
        'vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config \'{"method": '
        '"eagle3", "model": "org/EAGLE3-8B", "num_speculative_tokens": 3}\''
    )
    path = paths(tmp_path, [serve, *VLLM_CRASH])[-1]
    assert (path.value, path.worker_class) == ("other", "EagleProposer")
    assert (path.framework, path.family) == ("vllm", "EAGLE3")


def test_trtllm_yaml_decoding_type_names_the_mtp_worker(tmp_path: Path) -> None:
    lines = [
        "speculative_config:",
        '  decoding_type: "MTP"',
        "  num_nextn_predict_layers: 1",
        "[05/27/2025-10:00:00] [TRT-LLM] [E] Error in thread proxy_dispatch_result_thread: CUDA "
        "error: an illegal memory access was encountered",
    ]
    (path,) = paths(tmp_path, lines)
    # MTP Eagle (one MTP module, the DeepSeek-V3/R1 checkpoints) or vanilla: a condition
    assert (path.value, path.worker_class, path.framework, path.family) == (
        "unknown", None, "trtllm", "MTP"
    )  # fmt: skip
    assert path.conditional is not None and path.conditional.startswith("MTPEagleWorker if")
    assert "else MTPWorker (MTP vanilla)" in path.conditional
    assert "use_mtp_vanilla" in path.missing[0]
    assert path.evidence[0].text == "decoding_type: mtp"  # as the config reader keeps it
    (vanilla,) = paths(tmp_path, [*lines[:3], "  use_mtp_vanilla: true", lines[3]])
    assert (vanilla.value, vanilla.worker_class, vanilla.family) == ("other", "MTPWorker", "MTP")


def test_sglang_ngram_and_multi_layer_families(tmp_path: Path) -> None:
    dump = (
        "[2026-03-01 09:59:00] server_args=ServerArgs(model_path='/m', tp_size=2, "
        "speculative_algorithm='{algo}', speculative_eagle_topk=1, "
        "enable_multi_layer_eagle={ml}, disable_overlap_schedule=False)"
    )
    crash = [
        "[2026-03-01 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):",
        '  File "/opt/sglang/srt/managers/scheduler.py", line 2900, in run_scheduler_process',
        "RuntimeError: boom",
    ]
    (ngram,) = paths(tmp_path, [dump.format(algo="NGRAM", ml=False), *crash])
    assert (ngram.value, ngram.worker_class, ngram.family) == ("other", "NGRAMWorker", "NGRAM")
    (multi,) = paths(tmp_path, [dump.format(algo="EAGLE", ml=True), *crash])
    assert (multi.value, multi.worker_class) == ("v2", "MultiLayerEagleWorkerV2")
    assert multi.family == "MULTI_LAYER_EAGLE"


def test_an_unknown_with_nothing_to_go_by_asks_for_the_launch_command(tmp_path: Path) -> None:
    """SGLang's own header shows whose launch to ask for; an unheaded line asks for any."""
    (path,) = paths(tmp_path, ["[2026-03-01 10:00:00 TP0] RuntimeError: CUDA error: boom"])
    assert (path.value, path.conditional, len(path.missing)) == ("unknown", None, 1)
    assert "sglang.launch_server" in path.missing[0] and "vllm serve" not in path.missing[0]
    (path,) = paths(tmp_path, ["RuntimeError: CUDA error: boom"])
    assert (path.value, path.conditional, path.missing) == ("unknown", None, (LAUNCH,))


def test_an_unknown_sglang_run_asks_for_the_dump_and_a_worker_frame(tmp_path: Path) -> None:
    env = "SGLANG_ENABLE_SPEC_V2=1 (exported before the launch)"
    (path,) = paths(tmp_path, [env, "[2026-03-01 10:00:00 TP0] RuntimeError: CUDA error: boom"])
    assert path.value == "unknown"
    assert path.missing == (SGLANG_DUMP, WORKER_FRAME)


def test_a_conditional_verdict_asks_for_the_version_first(tmp_path: Path) -> None:
    launch = "python -m sglang.launch_server --model-path /m --speculative-algorithm EAGLE3"
    (path,) = paths(tmp_path, [launch, "[2026-03-01 10:00:00 TP0] RuntimeError: boom"])
    assert path.conditional is not None and path.missing == (VERSION_LINE, WORKER_FRAME)


def test_speculation_off_in_the_dump_needs_nothing_more(tmp_path: Path) -> None:
    dump = (
        "[2026-03-01 09:59:00] server_args=ServerArgs(model_path='/m', tp_size=2, "
        "speculative_algorithm=None, disable_overlap_schedule=False)"
    )
    (path,) = paths(tmp_path, [dump, "[2026-03-01 10:00:00 TP0] RuntimeError: CUDA error: boom"])
    assert (path.value, path.worker_class, path.missing) == ("none", "TpModelWorker", ())


def test_a_dflash_dump_leaves_the_worker_to_its_frames(tmp_path: Path) -> None:
    """DFLASH has a v1 and a V2 worker the era table does not cover: the dump only informs,
    the frame decides, and nothing conflicts."""
    dump = (
        "[2026-03-01 09:59:00] server_args=ServerArgs(model_path='/m', tp_size=2, "
        "speculative_algorithm='DFLASH', disable_overlap_schedule=False)"
    )
    crash = [
        "[2026-03-01 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):",
        '  File "/opt/sglang/srt/speculative/dflash_worker_v2.py", line 300, in verify',
        "RuntimeError: boom",
    ]
    (path,) = paths(tmp_path, [dump, *crash])
    assert (path.value, path.worker_class, path.conflict) == ("v2", "DFlashWorkerV2", None)
    assert path.family == "DFLASH"
    (alone,) = paths(tmp_path, [dump, crash[0], "RuntimeError: boom"])
    assert (alone.value, alone.worker_class, alone.family) == ("unknown", None, "DFLASH")
