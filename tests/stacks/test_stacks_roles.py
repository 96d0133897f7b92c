"""Coordinators (vLLM's EngineCore, SGLang's detokenizer...) are labelled by role and kept out
of the rank verdict, unless every rank is idle while one of them is stuck."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import pytest
from rich.console import Console
from stacks_helpers import stacks_json, start_hung, stop
from stacks_synth import ALL_REDUCE, IDLE, VERIFY, capture, py, still, thread

from spectrace.pipeline import analyse
from spectrace.stacks.findings import stack_findings
from spectrace.stacks.model import ProcessCapture, Sample, StackFrame, from_json, to_json
from spectrace.stacks.report import StacksReport
from spectrace.stacks.roles import detect_role
from spectrace.stacks.verdict import VerdictKind, analysis_json
from spectrace.stacks.verdict import analyse as judge

VLLM = "vllm"
SPAWNED = [
    "    run (multiprocessing/process.py:108)",
    "    _bootstrap (multiprocessing/process.py:314)",
    "    _main (multiprocessing/spawn.py:135)",
    "    spawn_main (multiprocessing/spawn.py:122)",
    "    <module> (<string>:1)",
]
WORKER = [
    f"    worker_busy_loop ({VLLM}/v1/executor/multiproc_executor.py:690)",
    f"    worker_main ({VLLM}/v1/executor/multiproc_executor.py:636)",
    *SPAWNED,
]
MQ_WAIT = [  # an idle vLLM worker polls its shared-memory ring buffer for the next step
    f"    acquire_read ({VLLM}/distributed/device_communicators/shm_broadcast.py:475)",
    "    __enter__ (contextlib.py:137)",
    f"    dequeue ({VLLM}/distributed/device_communicators/shm_broadcast.py:507)",
    *WORKER,
]
RUNNER = [
    f"    execute_model ({VLLM}/v1/worker/gpu_model_runner.py:1601)",
    f"    execute_model ({VLLM}/v1/worker/gpu_worker.py:352)",
    *WORKER,
]
W_ALL_REDUCE = [
    "    all_reduce (torch/distributed/distributed_c10d.py:2806)",
    f"    all_reduce ({VLLM}/distributed/parallel_state.py:420)",
    *RUNNER,
]
W_PROPOSE = [f"    propose ({VLLM}/v1/spec_decode/eagle.py:212)", *RUNNER]
CORE_LOOP = [
    f"    run_busy_loop ({VLLM}/v1/engine/core.py:701)",
    f"    run_engine_core ({VLLM}/v1/engine/core.py:668)",
    *SPAWNED,
]
CORE_QUEUE_GET = [  # waiting for the next request from the API server
    "    wait (threading.py:355)",
    "    get (queue.py:171)",
    f"    _process_input_queue ({VLLM}/v1/engine/core.py:725)",
    *CORE_LOOP,
]
CORE_RESULT = [  # waiting for a step's result that never comes
    "    wait (threading.py:355)",
    "    result (concurrent/futures/_base.py:451)",
    f"    step_with_batch_queue ({VLLM}/v1/engine/core.py:311)",
    f"    _process_engine_step ({VLLM}/v1/engine/core.py:744)",
    *CORE_LOOP,
]
SGL_IDLE = [
    "    recv_pyobj (zmq/sugar/socket.py:989)",
    "    recv_requests (sglang/srt/managers/scheduler.py:1120)",
    "    event_loop_normal (sglang/srt/managers/scheduler.py:980)",
    "    run_scheduler_process (sglang/srt/managers/scheduler.py:2890)",
    *SPAWNED,
]
DETOKENIZER_STUCK = [
    "    _decode (tokenizers/implementations/base_tokenizer.py:302)",
    "    batch_decode (sglang/srt/managers/detokenizer_manager.py:204)",
    "    event_loop (sglang/srt/managers/detokenizer_manager.py:121)",
    "    run_detokenizer_process (sglang/srt/managers/detokenizer_manager.py:300)",
    *SPAWNED,
]
TOKENIZER_IDLE = [
    "    select (selectors.py:468)",
    "    _run_once (asyncio/base_events.py:1898)",
    "    run_forever (asyncio/base_events.py:608)",
    "    run (uvicorn/server.py:65)",
    "    launch_server (sglang/srt/entrypoints/http_server.py:1120)",
    "    <module> (sglang/launch_server.py:14)",
]


def dump(pid: int, title: str, frames: list[str], state: str = "idle") -> list[str]:
    """One process as `py-spy dump --pid` prints it (py-spy 0.4: decimal native thread ids)."""
    return [
        f"Process {pid}: {title}",
        "Python v3.12.3 (/usr/bin/python3.12)",
        "",
        f'Thread {pid} ({state}): "MainThread"',
        *frames,
        "",
    ]


def write(tmp_path: Path, *procs: list[str]) -> Path:
    path = tmp_path / "server.log"
    lines = ["INFO 12-02 11:05:18 [loggers.py:123] Engine 000: Avg prompt throughput: 0.0 tokens/s"]
    path.write_text("\n".join(lines + [x for p in procs for x in p]) + "\n")
    return path


def coordinator(
    title: str, role: str, history: list[tuple[tuple[StackFrame, ...], bool]]
) -> ProcessCapture:
    """A synthetic coordinator process (pid 99) with one main thread per sample."""
    samples = tuple(Sample(0.5 * n, (thread(f, a, 99),)) for n, (f, a) in enumerate(history))
    return ProcessCapture(99, 1, title, None, None, samples, role=role)


def finding(path: Path):  # type: ignore[no-untyped-def]
    analysis = analyse([str(path)])
    assert analysis.incidents == []
    (hang,) = stack_findings(analysis, [], [])
    return analysis, hang


def test_the_engine_core_is_labelled_but_does_not_hide_the_straggler(tmp_path: Path) -> None:
    log = write(
        tmp_path,
        dump(5100, "VLLM::EngineCore_DP0", CORE_QUEUE_GET),
        dump(5101, "VLLM::Worker_TP0", W_ALL_REDUCE),
        dump(5102, "VLLM::Worker_TP1", W_PROPOSE, "active+gil"),
    )
    analysis, hang = finding(log)
    assert hang.message == (
        f"py-spy dump of 3 processes at {log}:2: Worker_TP1 is in `propose` while Worker_TP0 "
        "waits in all_reduce: the collective cannot finish until Worker_TP1 joins"
    )
    assert hang.detail is not None
    lines = hang.detail.splitlines()
    assert lines[0].startswith("Worker_TP1 (pid 5102): running Python code (propose)")
    assert lines[-1].startswith(
        "EngineCore_DP0 (pid 5100, coordinator): idle in the scheduler loop (_process_input_queue)"
    )
    procs = {p.pid: p for p in analysis.pasted[0].capture.processes}
    assert (procs[5100].role, procs[5100].rank) == ("EngineCore_DP0", None)
    assert (procs[5101].role, procs[5101].rank) == (None, "Worker_TP0")


def test_idle_workers_and_a_stuck_engine_core_is_a_hang_above_the_ranks(tmp_path: Path) -> None:
    log = write(
        tmp_path,
        dump(5100, "VLLM::EngineCore_DP0", CORE_RESULT),
        dump(5101, "VLLM::Worker_TP0", MQ_WAIT),
        dump(5102, "VLLM::Worker_TP1", MQ_WAIT, "active"),  # the ring buffer spins on CPU
        dump(5090, "VLLM::APIServer_0", TOKENIZER_IDLE[:3] + SPAWNED),
    )
    analysis, hang = finding(log)
    assert hang.message.endswith(
        ": every rank is idle (Worker_TP0-1) while EngineCore_DP0 is blocked in "
        "`step_with_batch_queue`: the hang is above the ranks"
    )
    stacks = judge(analysis.pasted[0].capture)
    assert (stacks.kind, stacks.odd) == (VerdictKind.ABOVE, ("EngineCore_DP0",))
    assert [c.label for c in stacks.coordinators] == ["APIServer_0", "EngineCore_DP0"]
    assert hang.detail is not None and hang.detail.startswith("EngineCore_DP0 (pid 5100, coord")


def test_sglang_detokenizer_stuck_while_schedulers_wait_for_requests(tmp_path: Path) -> None:
    log = write(
        tmp_path,
        dump(
            4099, "/usr/bin/python3 -m sglang.launch_server --model-path m --tp 2", TOKENIZER_IDLE
        ),
        dump(4100, "sglang::scheduler_TP0", SGL_IDLE),
        dump(4101, "sglang::scheduler_TP1", SGL_IDLE),
        dump(4102, "sglang::detokenizer", DETOKENIZER_STUCK, "active+gil"),
    )
    analysis, hang = finding(log)
    assert hang.message.endswith(
        ": every rank is idle (TP0-1) while detokenizer is in `batch_decode`: "
        "the hang is above the ranks"
    )
    roles = {p.pid: p.role for p in analysis.pasted[0].capture.processes}
    assert roles == {4099: "TokenizerManager", 4100: None, 4101: None, 4102: "detokenizer"}


def test_an_idle_server_is_idle_not_a_hang_above_the_ranks(tmp_path: Path) -> None:
    log = write(
        tmp_path,
        dump(5100, "VLLM::EngineCore_DP0", CORE_QUEUE_GET),
        dump(5101, "VLLM::Worker_TP0", MQ_WAIT),
        dump(5102, "VLLM::Worker_TP1", MQ_WAIT),
    )
    _, hang = finding(log)
    assert hang.message.endswith(
        ": Worker_TP0-1 are idle in the scheduler loop (worker_busy_loop): "
        "waiting for requests, not for each other"
    )


def test_without_ranks_the_coordinators_are_compared_as_before(tmp_path: Path) -> None:
    """vLLM with TP=1: the engine core runs the model itself; no process is a rank."""
    log = write(
        tmp_path,
        dump(5090, "VLLM::APIServer_0", TOKENIZER_IDLE[:3] + SPAWNED),
        dump(5100, "VLLM::EngineCore_DP0", W_ALL_REDUCE[:2] + CORE_LOOP),
    )
    _, hang = finding(log)
    assert "EngineCore_DP0 waits in all_reduce" in hang.message
    assert "APIServer_0" in hang.message


@pytest.mark.parametrize(
    ("cmdline", "entry_point", "role"),
    [
        ("VLLM::EngineCore", True, "EngineCore"),
        ("VLLM::EngineCore_DP3", False, "EngineCore_DP3"),
        ("VLLM::APIServer_1", False, "APIServer_1"),
        ("VLLM::DPCoordinator", False, "DPCoordinator"),
        ("sglang::data_parallel_controller", False, "data_parallel_controller"),
        ("/usr/local/bin/python3 /usr/local/bin/vllm serve Qwen/Qwen3-8B -tp 2", True, "APIServer"),
        ("python3 -m vllm.entrypoints.openai.api_server --model m", True, "APIServer"),
        ("python3 -m sglang.launch_server --model-path m", True, "TokenizerManager"),
        ("python3 -m sglang.launch_server --model-path m", False, None),  # a rank, or a fork
        ("/opt/ray/core/src/ray/raylet/raylet --raylet_socket_name=/tmp/s", True, "raylet"),
        ("/opt/ray/core/src/ray/gcs/gcs_server --gcs_server_port=6379", True, "gcs_server"),
        ("VLLM::Worker_TP1", True, None),
        ("python3 run.py --title VLLM::EngineCore_DP0", True, None),  # named, not its title
        ("sglang::scheduler_DP0_TP3", True, None),
    ],
)
def test_roles_from_titles_and_entry_points(
    cmdline: str, entry_point: bool, role: str | None
) -> None:
    assert detect_role(cmdline, entry_point) == role


def test_the_role_is_saved_and_old_captures_still_load() -> None:
    cap = capture(("TP0", still(IDLE)), ("TP1", still(IDLE)))
    core = coordinator("VLLM::EngineCore_DP0", "EngineCore_DP0", still(ALL_REDUCE[2:]))
    cap = replace(cap, processes=(*cap.processes, core))
    doc = to_json(cap)
    assert doc["processes"][-1]["role"] == "EngineCore_DP0"
    assert from_json(json.loads(json.dumps(doc))) == cap
    for proc in doc["processes"]:  # a capture saved before roles existed has no "role" key
        del proc["role"]
    old = from_json(doc)
    assert all(p.role is None for p in old.processes)
    machine = analysis_json(judge(cap))
    assert [c["label"] for c in machine["coordinators"]] == ["EngineCore_DP0"]
    assert machine["kind"] == "above_ranks"
    assert [r["label"] for r in machine["ranks"]] == ["TP0", "TP1"]


def test_a_coordinator_never_turns_a_straggler_verdict() -> None:
    cap = capture(("TP0", still(ALL_REDUCE)), ("TP1", still(VERIFY, active=True)))
    stuck = VERIFY[:1] + (py("event_loop", "/d.py"),)
    core = coordinator("sglang::detokenizer", "detokenizer", still(stuck, n=1))
    with_core = replace(cap, processes=(*cap.processes, core))
    assert judge(with_core).verdict == judge(cap).verdict
    assert judge(with_core).odd == ("TP1",)


def test_a_live_engine_core_is_captured_with_its_role_beside_the_ranks(
    live: None, tmp_path: Path
) -> None:
    server = start_hung(tmp_path, "--world", "2", "--stuck", "1", "--title", "vllm",
                        "--coordinator", "VLLM::EngineCore_DP0")  # fmt: skip
    try:
        doc = stacks_json(str(server.pid), "--samples", "2", "--interval", "0.1")
    finally:
        stop(server.proc)
    roles = {p["cmdline"].split()[0]: p["role"] for p in doc["processes"]}
    assert roles["VLLM::EngineCore_DP0"] == "EngineCore_DP0"
    assert roles["VLLM::Worker_TP0"] is None and roles["VLLM::Worker_TP1"] is None
    analysis = doc["analysis"]
    assert isinstance(analysis, dict)
    assert analysis["verdict"].startswith("Worker_TP1 is in `verify` while Worker_TP0 waits in")
    assert analysis["odd"] == ["Worker_TP1"]
    (core,) = analysis["coordinators"]
    assert (core["label"], core["role"], core["activity"], core["detail"]) == (
        "EngineCore_DP0", "EngineCore_DP0", "blocked", "wait_for_step_result")  # fmt: skip


def test_the_report_lists_the_coordinator_by_role_after_the_ranks() -> None:
    cap = capture(("TP0", still(ALL_REDUCE)), ("TP1", still(VERIFY, active=True)))
    waiting = (py("get_output", "/vllm/v1/engine/core.py", 5),)
    core = coordinator("VLLM::EngineCore_DP0", "EngineCore_DP0", still(waiting, n=1))
    out = io.StringIO()
    with_core = replace(cap, processes=(*cap.processes, core))
    Console(file=out, width=160, color_system=None).print(StacksReport(with_core, judge(with_core)))
    text = out.getvalue()
    rows = [line.split()[0] for line in text.splitlines() if line[:4] in ("TP0 ", "TP1 ", "Engi")]
    assert rows[:3] == ["TP0", "TP1", "EngineCore_DP0"]  # the table: ranks, then the coordinator
    assert "EngineCore_DP0 (pid 99, coordinator): VLLM::EngineCore_DP0" in text
    assert "Verdict: TP1 is in `verify` while TP0 waits in all_reduce" in text


def test_the_engine_cores_last_log_line_is_linked_by_its_pid(tmp_path: Path) -> None:
    log = write(
        tmp_path,
        dump(5100, "VLLM::EngineCore_DP0", CORE_RESULT),
        dump(5101, "VLLM::Worker_TP0", MQ_WAIT),
    )
    core_line = (
        "(EngineCore_DP0 pid=5100) INFO 12-02 11:05:17 [core.py:95] Initializing a V1 LLM "
        "engine (v0.11.0) with config: model='m'"
    )
    log.write_text(core_line + "\n" + log.read_text())
    _, hang = finding(log)
    assert hang.detail is not None
    assert hang.detail.splitlines()[0].endswith(f"last log line {log}:1")
    assert [(e.lineno, e.text) for e in hang.evidence[1:]] == [(1, core_line)]


def test_a_coordinator_at_work_or_ranks_asleep_are_no_hang_above_the_ranks() -> None:
    def core(history: list[tuple[tuple[StackFrame, ...], bool]]) -> ProcessCapture:
        return coordinator("sglang::detokenizer", "detokenizer", history)

    decode = (py("batch_decode", "/sgl/detokenizer_manager.py", 204),)
    moved = (py("batch_decode", "/sgl/detokenizer_manager.py", 210),)
    idle = capture(("TP0", still(IDLE)), ("TP1", still(IDLE)))
    stuck = judge(replace(idle, processes=(*idle.processes, core(still(decode, True)))))
    assert (stuck.kind, stuck.odd) == (VerdictKind.ABOVE, ("detokenizer",))
    busy = replace(idle, processes=(*idle.processes, core([(decode, True), (moved, True)])))
    assert judge(busy).kind is VerdictKind.IDLE  # decoding, not stuck
    sleepy = (py("_maybe_hang", "/srv/engine.py", 40, "time.sleep(1)"),)
    asleep = capture(("TP0", still(sleepy)), ("TP1", still(sleepy)))
    asleep = replace(asleep, processes=(*asleep.processes, core(still(decode, True))))
    assert judge(asleep).kind is not VerdictKind.ABOVE  # sleeping ranks are not waiting for work


def test_an_engine_core_reading_the_workers_ring_buffer_is_named_by_the_reader(
    tmp_path: Path,
) -> None:
    get_response = [
        MQ_WAIT[0],
        MQ_WAIT[1],
        MQ_WAIT[2],
        f"    get_response ({VLLM}/v1/executor/multiproc_executor.py:243)",
        f"    collective_rpc ({VLLM}/v1/executor/multiproc_executor.py:262)",
        f"    step ({VLLM}/v1/engine/core.py:284)",
        *CORE_LOOP,
    ]
    log = write(
        tmp_path,
        dump(5100, "VLLM::EngineCore_DP0", get_response, "active"),
        dump(5101, "VLLM::Worker_TP0", MQ_WAIT, "active"),
        dump(5102, "VLLM::Worker_TP1", MQ_WAIT),
    )
    _, hang = finding(log)
    assert hang.message.endswith(
        ": every rank is idle (Worker_TP0-1) while EngineCore_DP0 is in `get_response`: "
        "the hang is above the ranks"
    )
