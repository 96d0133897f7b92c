"""A traceback carried inside a JSON string of the crash line (a structured logger's "msg" or
"stack" field, an HTTP error body), its breaks and quotes escaped once or twice: its frames
decide the path, with or without the "Traceback" line above them.

Every line here is written by us in the real shapes; none is pasted."""

from __future__ import annotations

import json
from pathlib import Path

from real_logs_helpers import roots, run

SITE = "/usr/local/lib/python3.12/dist-packages/sglang/srt"
TRACEBACK = (
    "Scheduler hit an exception: Traceback (most recent call last):\n"
    f'  File "{SITE}/managers/scheduler.py", line 1010, in event_loop_overlap\n'
    "    batch_result = self.run_batch(batch)\n"
    f'  File "{SITE}/speculative/eagle_worker_v2.py", line 640, in forward_batch_generation\n'
    "    return self.verify(batch)\n"
    "RuntimeError: CUDA error: an illegal memory access was encountered\n"
)


def verdict(tmp_path: Path, line: str) -> tuple[str, str | None, list[str]]:
    (crash,) = roots(run(tmp_path, [line]))
    path = crash.worker_path
    assert path is not None
    return path.value, path.worker_class, [e.text for e in path.evidence if e.points_to]


def test_a_traceback_escaped_once_in_a_json_record_decides(tmp_path: Path) -> None:
    record = json.dumps({"level": "error", "msg": TRACEBACK, "ts": "2026-04-01T10:00:00Z"})
    value, worker, shown = verdict(tmp_path, record)
    assert (value, worker) == ("v2", "EAGLEWorkerV2")
    assert shown[0].endswith('eagle_worker_v2.py", line 640, in forward_batch_generation')


def test_a_traceback_escaped_twice_in_an_error_body_decides(tmp_path: Path) -> None:
    body = json.dumps(json.dumps({"detail": TRACEBACK}))  # a JSON body quoted inside a string
    value, worker, _ = verdict(tmp_path, f"request failed with status 500: {body}")
    assert (value, worker) == ("v2", "EAGLEWorkerV2")


def test_frames_of_a_stack_field_without_its_traceback_header_decide(tmp_path: Path) -> None:
    # a structured logger that keeps the message and the stack apart: no "Traceback" line to
    # split the record at, only escaped frames beside the message of the crash
    stack = TRACEBACK.split("\n", 1)[1]
    once = json.dumps({"level": "error", "msg": "scheduler died", "stack": stack})
    twice = "worker report: " + json.dumps(once)
    for line in (once, twice):
        value, worker, shown = verdict(tmp_path, line)
        assert (value, worker) == ("v2", "EAGLEWorkerV2"), line
        assert shown[0].endswith('eagle_worker_v2.py", line 640, in forward_batch_generation')
