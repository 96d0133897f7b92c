"""Hangs the log tells in words -> "hang" Findings naming the ranks and the frame they wait in.

Three notices say a server stopped making progress without any stack being captured:
SGLang's watchdog (``Scheduler watchdog timeout (self.watchdog_timeout=300, ...)``, from
``utils/watchdog.py``), vLLM's ring buffer (``No available shared memory broadcast block
found in 60 seconds``, from ``shm_broadcast.py``: the writer waits in ``acquire_write`` for
its readers, a reader in ``acquire_read`` for its writer) and vLLM's executor giving up on
its workers (``RPC call to execute_model timed out.``, ``collective_rpc``). A ``py-spy dump``
of the same ranks pasted in the log, when there is one, names the frame they really wait in.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from spectrace.assemblers.run_config import Evidence
from spectrace.pipeline import Analysis, Finding

if TYPE_CHECKING:
    from spectrace.incident_model import Incident
    from spectrace.stacks.pasted import PastedDump

_TIMEOUT = re.compile(r"watchdog_timeout=(\d+(?:\.\d+)?)")
_WHO = re.compile(r"^(\w+) watchdog timeout|^Watchdog timeout")
_RPC = re.compile(r"RPC call to (\w+) timed out")
_INTERVAL = re.compile(r"found in (\d+) seconds?")
MIN_REPEATS = 2  # one broadcast wait at start-up is a long compilation; repeated, a hang


def wait_findings(analysis: Analysis) -> list[Finding]:
    """A hang finding per watchdog timeout, repeated broadcast wait and RPC timeout."""
    out: list[Finding] = []
    for incident in analysis.incidents:
        if incident.rule_id == "sglang_watchdog_timeout":
            out.append(_watchdog(incident, analysis.pasted))
        elif incident.rule_id == "vllm_shm_broadcast_wait" and _repeats(incident) >= MIN_REPEATS:
            out.append(_broadcast(incident))
        elif (m := _RPC.search(incident.message)) is not None:
            out.append(_rpc(incident, m.group(1)))
    return out


def _repeats(incident: Incident) -> int:
    return len(incident.occurrences)


def _ranks(incident: Incident) -> str:
    return ", ".join(incident.ranks) if incident.ranks else "a process with no rank prefix"


def _evidence(incident: Incident, reason: str) -> tuple[Evidence, ...]:
    first = incident.first_seen
    text = incident.lines[0] if incident.lines else incident.message
    return (Evidence(first.source, first.lineno, text[:300], reason),)


def _watchdog(incident: Incident, pasted: Sequence[PastedDump]) -> Finding:
    timeout = _TIMEOUT.search(incident.message)
    who = _WHO.search(incident.message)
    name = who.group(1) if who is not None and who.group(1) else "Scheduler"
    seconds = f"{timeout.group(1)} s" if timeout else "watchdog_timeout seconds"
    frames = _dumped_frames(incident, pasted)
    detail = [f"{rank}: waits in {frame}" for rank, frame in frames.items()]
    detail += _debug_info(incident)
    if incident.load is not None and incident.load.running_req is not None:
        detail.append(f"last logged batch before it: {incident.load.running_req} running requests")
    where = f"; {_same_frame(frames)}" if frames else "; no py-spy dump of these ranks in the log"
    return Finding(
        kind="hang",
        message=f"{name} watchdog: {_ranks(incident)} made no forward step for {seconds}{where}",
        detail="\n".join(detail) or None,
        evidence=_evidence(incident, f"SGLang's {name} watchdog fired (utils/watchdog.py)"),
    )


def _debug_info(incident: Incident) -> list[str]:
    """What the ``Scheduler debug info:`` lines above the timeout say: the batch the scheduler
    was stuck on (``cur_batch.batch_size()=12``, ``cur_batch.reqs=[Req(rid=..), ...]``). Read
    back from the plain file, in the window before the timeout line (a compressed or piped
    input is not read twice)."""
    first = incident.first_seen
    end = max(o.offset for o in incident.occurrences if o.source == first.source)
    if not os.path.isfile(first.source):
        return []
    with open(first.source, "rb") as f:
        if f.read(6).startswith(_COMPRESSED):
            return []
        start = max(0, end - DEBUG_WINDOW)
        f.seek(start)
        text = f.read(end - start).decode("utf-8", "replace")
    out = []
    for m in _DEBUG.finditer(text):
        reqs = text[m.end() : text.find("\n", m.end())].count("Req(") if m["reqs"] else None
        what = f"batch size {m['bs']}" if m["bs"] else f"{reqs} requests in cur_batch.reqs"
        rank = _RANK.search(m["who"])
        name = m["who"].rsplit(" ", 1)[-1].lstrip("]")
        out.append(f"{rank.group(1) + ': ' if rank else ''}{name} debug info: {what}")
    return list(dict.fromkeys(out))


_DEBUG = re.compile(
    r"(?P<who>\[[^\]\n]{0,60}\] \w+|\w+) debug info:\s*\n(?:[^\n]*\n){0,3}?"
    r"[^\n]*?(?:cur_batch(?:_for_debug)?\.batch_size\(\)=(?P<bs>\d+)|(?P<reqs>cur_batch\.reqs=))"
)
_COMPRESSED = (b"\x1f\x8b", b"BZh", b"\xfd7zXZ", b"\x28\xb5\x2f\xfd")
_RANK = re.compile(r"\b((?:DP\d+ )?(?:PP\d+ )?TP\d+)\]")
DEBUG_WINDOW = 256 * 1024  # bytes read back before the timeout line


def _dumped_frames(incident: Incident, pasted: Sequence[PastedDump]) -> dict[str, str]:
    """Each of the incident's ranks -> the innermost Python frame a pasted dump shows it in."""
    out: dict[str, str] = {}
    for dump in pasted:
        for process in dump.capture.processes:
            if process.rank not in incident.ranks or not process.samples:
                continue
            threads = process.samples[-1].threads
            main = next((t for t in threads if t.name == "MainThread"), threads[0] if threads else None)
            frame = next((f for f in main.frames if not f.native), None) if main else None
            if frame is not None:
                out[process.rank] = f"{frame.name} ({frame.filename.rsplit('/', 1)[-1]}:{frame.line})"
    return out


def _same_frame(frames: dict[str, str]) -> str:
    places = {f.split(" (", 1)[0] for f in frames.values()}
    if len(places) == 1:
        return f"all {len(frames)} dumped wait in {places.pop()}"
    return "they wait in different frames: " + "; ".join(f"{r} in {f}" for r, f in frames.items())


def _broadcast(incident: Incident) -> Finding:
    interval = _INTERVAL.search(incident.message)
    each = f"{interval.group(1)} s" if interval else "a minute"
    n = _repeats(incident)
    readers = [r for r in incident.ranks if "Worker" in r]
    if readers and len(readers) == len(incident.ranks):
        frame = "MessageQueue.acquire_read (shm_broadcast.py)"
        side = "the workers wait for the engine core's next step: the engine core is stuck or idle"
    else:
        frame = "MessageQueue.acquire_write (shm_broadcast.py)"
        side = "the writer waits for its workers to read the last step: a worker is stuck"
    first, last = incident.occurrences[0], incident.occurrences[-1]
    span = f" from {first.ts_text} to {last.ts_text}" if first.ts_text and last.ts_text else ""
    return Finding(
        kind="hang",
        message=f"{_ranks(incident)} waited {n} times {each} in {frame}{span}: {side}",
        detail="; ".join(f"{o.source}:{o.lineno}" for o in incident.occurrences[:10]),
        evidence=_evidence(incident, f"vLLM's ring buffer wait, {n} times in a row"),
    )


def _rpc(incident: Incident, method: str) -> Finding:
    inner = incident.frames[-1] if incident.frames else None
    frame = f"{inner.function} ({inner.file.rsplit('/', 1)[-1]}:{inner.line})" if inner else (
        "collective_rpc (multiproc_executor.py)"
    )
    return Finding(
        kind="hang",
        message=f"{_ranks(incident)} gave up waiting for the workers' replies to {method} in "
        f"{frame}: a worker is stuck (a collective, a kernel, a deadlock) or dead",
        evidence=_evidence(incident, "vLLM's executor timed out on a call to its workers"),
    )
