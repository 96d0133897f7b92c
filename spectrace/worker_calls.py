"""A traceback frame whose source line calls into a speculative worker -> a frame of the
worker's function it calls (``rules/paths/sglang_entry.toml`` ``[[worker_call]]``).

Why: pasted tracebacks are often cut right after the scheduler's frame (round 40 17: a PR
comment whose paste stops after ``) = self.draft_worker.forward_batch_speculative_generation(
batch)`` in ``Scheduler.run_batch``). The call names the function that ran next, and only one
worker file defines it, so the frame table reads that file's row as if the paste went on.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from spectrace.assemblers.crash import Frame
from spectrace.assemblers.release_dates import rules_table

TABLE = "paths/sglang_entry.toml"


@dataclass(frozen=True, slots=True)
class WorkerCall:
    """A call a frame's source line makes, and the file and function it runs."""

    call: str  # the text of the call on the line, up to its opening parenthesis
    file: str
    function: str


@cache
def worker_calls() -> tuple[WorkerCall, ...]:
    """The table's ``[[worker_call]]`` rows."""
    raw = rules_table(TABLE)
    return tuple(WorkerCall(str(r["call"]), str(r["file"]), str(r["function"]))
                 for r in raw.get("worker_call", []))  # fmt: skip


def called_frame(frame: Frame) -> Frame | None:
    """The frame of the worker function ``frame``'s source line calls, or None."""
    code = frame.code or ""
    return next((Frame(c.file, None, c.function) for c in worker_calls() if c.call in code), None)
