"""Hangs a log tells without a capture: SGLang's watchdog (and its py-spy dump), vLLM's
repeated broadcast wait and RPC timeout, py-spy stacks pasted without their header. Each is a
"hang" finding that names the ranks and the frame they wait in. Lines written by us in the
frameworks' formats (sglang utils/watchdog.py, vllm shm_broadcast.py / multiproc_executor.py)."""

from __future__ import annotations

from pathlib import Path

from spectrace.pipeline import Finding, analyse
from spectrace.stacks.findings import stack_findings

SGL = "sglang/srt"
STACK = [
    "    all_reduce (torch/distributed/distributed_c10d.py:2806)",
    f"    forward ({SGL}/layers/linear.py:1301)",
    f"    event_loop_normal ({SGL}/managers/scheduler.py:980)",
]


def hangs(tmp_path: Path, lines: list[str]) -> list[Finding]:
    log = tmp_path / "server.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    analysis = analyse([str(log)])
    return [f for f in stack_findings(analysis, [], []) if f.kind == "hang"]


def watchdog_log(dump: bool) -> list[str]:
    lines = [
        f"[2026-05-01 10:00:00 TP{tp}] Decode batch. #running-req: 12, #token: 900, token usage: "
        "0.02, gen throughput (token/s): 300.00, #queue-req: 0"
        for tp in (0, 1)
    ]
    for tp, pid in ((0, 5100), (1, 5101)):
        lines += [f"[2026-05-01 10:05:00 TP{tp}] Scheduler debug info:",
                  "scheduler.cur_batch.batch_size()=12"]  # fmt: skip
        if dump:
            lines += [f"[2026-05-01 10:05:00 TP{tp}] Pyspy dump for PID {pid} (py-spy dump --pid {pid}):",
                      f"Process {pid}: sglang::scheduler_TP{tp}", "", f'Thread {pid} (active): "MainThread"',
                      *STACK, ""]  # fmt: skip
        lines.append(
            f"[2026-05-01 10:05:01 TP{tp}] Scheduler watchdog timeout "
            "(self.watchdog_timeout=300, self.soft=False)"
        )
    return lines


def test_the_watchdog_names_its_ranks_and_the_frame_they_wait_in(tmp_path: Path) -> None:
    (finding,) = [f for f in hangs(tmp_path, watchdog_log(True)) if f.message.startswith("Scheduler")]
    assert finding.message == (
        "Scheduler watchdog: TP0, TP1 made no forward step for 300 s; "
        "all 2 dumped wait in all_reduce"
    )
    assert finding.detail is not None
    assert "TP1: waits in all_reduce (distributed_c10d.py:2806)" in finding.detail
    assert "last logged batch before it: 12 running requests" in finding.detail
    assert "TP1: Scheduler debug info: batch size 12" in finding.detail


def test_a_watchdog_without_a_dump_says_so(tmp_path: Path) -> None:
    (finding,) = hangs(tmp_path, watchdog_log(False))
    assert finding.message.endswith("no py-spy dump of these ranks in the log")


def test_stacks_pasted_without_their_header_are_a_hang(tmp_path: Path) -> None:
    lines = [f"[rank{r}]: {frame}" for r in range(4) for frame in STACK]
    (finding,) = hangs(tmp_path, ["INFO starting", *lines, "INFO after"])
    assert "rank0-3 wait in all_reduce" in finding.message
    assert finding.message.startswith("py-spy (no header) dump of 4 processes")


def test_one_rank_elsewhere_in_a_headerless_paste_is_named(tmp_path: Path) -> None:
    odd = ["    verify (sglang/srt/speculative/eagle_worker.py:655)", *STACK[1:]]
    lines = [f"[rank{r}]: {frame}" for r in range(3) for frame in STACK]
    lines += [f"[rank3]: {frame}" for frame in odd]  # no wait frame of its own: started by its peers?
    (finding,) = hangs(tmp_path, lines)
    assert "rank0-2 wait in all_reduce" in finding.message


def test_repeated_broadcast_waits_are_a_hang_of_the_engine_core(tmp_path: Path) -> None:
    tag = "(EngineCore_DP0 pid=700) INFO 05-01 10:0{}:00 [shm_broadcast.py:501] "
    text = ("No available shared memory broadcast block found in 60 seconds. This typically "
            "happens when some processes are hanging or doing some time-consuming work.")  # fmt: skip
    (finding,) = hangs(tmp_path, [tag.format(i) + text for i in range(4)])
    assert finding.message.startswith(
        "EngineCore_DP0 waited 4 times 60 s in MessageQueue.acquire_write (shm_broadcast.py) "
        "from 05-01 10:00:00 to 05-01 10:03:00"
    )


def test_one_broadcast_wait_at_start_up_is_no_hang(tmp_path: Path) -> None:
    line = ("(EngineCore_DP0 pid=700) INFO 05-01 10:00:00 [shm_broadcast.py:501] No available "
            "shared memory broadcast block found in 60 seconds.")  # fmt: skip
    assert hangs(tmp_path, [line, "(EngineCore_DP0 pid=700) INFO 05-01 10:00:30 [core.py:1] ready"]) == []


def test_an_rpc_timeout_is_a_hang_in_collective_rpc(tmp_path: Path) -> None:
    tag = "(EngineCore_DP0 pid=700) ERROR 05-01 10:06:00 [core.py:700] "
    lines = [tag + "EngineCore encountered a fatal error.", tag + "Traceback (most recent call last):",
             tag + '  File "/venv/vllm/v1/executor/multiproc_executor.py", line 250, in collective_rpc',
             tag + '    raise TimeoutError(f"RPC call to {method} timed out.")',
             tag + "TimeoutError: RPC call to sample_tokens timed out."]  # fmt: skip
    (finding,) = hangs(tmp_path, lines)
    assert finding.message == (
        "EngineCore_DP0 gave up waiting for the workers' replies to sample_tokens in "
        "collective_rpc (multiproc_executor.py:250): a worker is stuck (a collective, a kernel, "
        "a deadlock) or dead"
    )
