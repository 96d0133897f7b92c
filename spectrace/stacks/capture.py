"""Live capture: py-spy dumps of a process and all its descendants, several samples apart."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from pathlib import Path
from typing import Any

from spectrace.errors import SpectraceError
from spectrace.stacks import procfs
from spectrace.stacks.classify import detect_rank, rank_from_locals
from spectrace.stacks.model import Capture, ProcessCapture, Sample, StackFrame, ThreadStack
from spectrace.stacks.roles import detect_role, roles_of


class StacksError(SpectraceError):
    """A live capture cannot be taken (the message says why and what to do)."""


class NoSuchProcessError(StacksError):
    pass


class PtraceDeniedError(StacksError):
    pass


class PySpyError(StacksError):
    """py-spy is missing, or cannot read this Python."""


class FailureKind(Enum):
    PERMISSION = "permission"
    GONE = "gone"
    NOT_PYTHON = "not_python"
    UNSUPPORTED = "unsupported"
    TIMEOUT = "timeout"
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class DumpFailure:
    kind: FailureKind
    message: str


@dataclass(frozen=True, slots=True)
class CaptureOptions:
    samples: int = 3
    interval: float = 0.5
    native: bool = False
    locals: bool = False
    timeout: float = 10.0  # per py-spy call; --native on a big CUDA process can take seconds


def find_pyspy() -> str:
    """The py-spy installed with spectrace (PyPI wheel scripts dir), else one on PATH."""
    candidates = [
        Path(sysconfig.get_path("scripts")) / "py-spy",
        Path(sys.executable).parent / "py-spy",
    ]
    for path in candidates:
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
    found = shutil.which("py-spy")
    if found is None:
        raise PySpyError(
            "py-spy not found: install it with `pip install py-spy` (spectrace needs >= 0.3.14)"
        )
    return found


def pyspy_version(binary: str) -> str:
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise PySpyError(f"py-spy at {binary} does not run: {exc}") from None
    return out.stdout.strip().removeprefix("py-spy ").strip() or "unknown"


def capture(pid: int, options: CaptureOptions) -> Capture:
    """Sample the tree under ``pid``; raise a one-line StacksError when nothing can be read."""
    binary = find_pyspy()
    version = pyspy_version(binary)
    if not procfs.exists(pid):
        raise NoSuchProcessError(f"no process with PID {pid}")
    me = os.getpid()  # never sample ourselves (a capture of our own shell's tree)
    infos = [i for p in procfs.descendants(pid) if p != me and (i := procfs.info(p))]
    started = datetime.now(UTC).isoformat(timespec="seconds")
    samples, failures = _sample_rounds(binary, [i.pid for i in infos], options)
    if not any(samples.values()):
        raise _fatal(pid, failures.get(pid) or next(iter(failures.values()), None), version)
    ranks = _ranks(binary, infos, samples, options)
    roles = roles_of(infos, ranks)
    processes = tuple(
        ProcessCapture(
            pid=i.pid,
            ppid=i.ppid,
            cmdline=i.cmdline,
            rank=ranks[i.pid][0],
            rank_source=ranks[i.pid][1],
            samples=tuple(samples.get(i.pid, ())),
            error=failures[i.pid].message if i.pid in failures else None,
            role=roles[i.pid],
        )
        for i in infos
    )
    return Capture(
        root_pid=pid,
        started=started,
        interval=options.interval,
        native=options.native,
        locals=options.locals,
        pyspy_version=version,
        processes=processes,
        host=socket.gethostname(),
    )


def _ranks(
    binary: str,
    infos: list[procfs.ProcInfo],
    samples: dict[int, list[Sample]],
    options: CaptureOptions,
) -> dict[int, tuple[str | None, str | None]]:
    """Title, flags, env; failing those, a ``tp_rank``/``rank`` argument of the entry function
    (SGLang's run_scheduler_process, mp-spawned workers), read with one extra --locals dump."""
    ranks = {i.pid: detect_rank(i.cmdline, i.env) for i in infos}
    titled = {i.pid for i in infos if detect_role(i.cmdline, entry_point=False)}
    unranked = [p for p, r in ranks.items() if r[0] is None and samples.get(p) and p not in titled]
    if not unranked:
        return ranks
    if options.locals:
        stacks = [samples[p][-1].threads for p in unranked]
    else:
        extra = CaptureOptions(samples=1, locals=True, timeout=options.timeout)
        with ThreadPoolExecutor(max_workers=min(8, len(unranked))) as pool:
            found = list(pool.map(lambda p: _dump(binary, p, extra, {}), unranked))
        stacks = [() if isinstance(f, DumpFailure) else f for f in found]
    for pid, threads in zip(unranked, stacks, strict=True):
        label = rank_from_locals(threads)
        if label[0] is not None:
            ranks[pid] = label
    return ranks


def _sample_rounds(
    binary: str, pids: list[int], options: CaptureOptions
) -> tuple[dict[int, list[Sample]], dict[int, DumpFailure]]:
    """Dump every live process per round, in parallel; a process that fails once is dropped."""
    samples: dict[int, list[Sample]] = {p: [] for p in pids}
    failures: dict[int, DumpFailure] = {}
    sources: dict[str, list[str]] = {}
    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=max(1, min(8, len(pids)))) as pool:
        for round_no in range(options.samples):
            if round_no:
                time.sleep(options.interval)
            live = [p for p in pids if p not in failures]
            if not live:
                break
            at = round(time.monotonic() - start, 3)
            results = pool.map(lambda p: _dump(binary, p, options, sources), live)
            for pid, result in zip(live, results, strict=True):
                if isinstance(result, DumpFailure):
                    failures[pid] = result
                else:
                    samples[pid].append(Sample(at=at, threads=result))
            if not any(samples.values()) and any(
                f.kind is FailureKind.PERMISSION for f in failures.values()
            ):
                break  # denied everywhere: the same denial would repeat for every round
    return samples, failures


def _dump(
    binary: str, pid: int, options: CaptureOptions, sources: dict[str, list[str]]
) -> tuple[ThreadStack, ...] | DumpFailure:
    args = [binary, "dump", "--json", "--pid", str(pid)]
    args += ["--native"] * options.native + ["--locals"] * options.locals
    for extra in ([], ["--nonblocking"]):  # a process stuck in the kernel may not stop: retry
        try:
            out = subprocess.run(
                args + extra,
                capture_output=True,
                text=True,
                timeout=options.timeout,
                errors="replace",
            )
        except subprocess.TimeoutExpired:
            continue
        if out.returncode != 0:
            return _failure(pid, out.stderr)
        try:
            return tuple(_thread(pid, t, sources) for t in json.loads(out.stdout))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            return DumpFailure(FailureKind.OTHER, f"unreadable py-spy output for PID {pid}: {exc}")
    return DumpFailure(
        FailureKind.TIMEOUT,
        f"py-spy did not answer for PID {pid} within {options.timeout:g}s, even with --nonblocking",
    )


_ADDRESS = re.compile(r"0x[0-9a-fA-F]+$")


def is_native(raw: dict[str, Any]) -> bool:
    """A native frame names its library (``module``); an address py-spy could not symbolise
    comes as ``0x7f...`` in file ``?`` with no module, and is native too, never a function a
    verdict may name."""
    filename = str(raw.get("filename") or "")
    python_file = filename.endswith((".py", ".pyx", ".pyi")) or filename.startswith("<")
    return (
        raw.get("module") is not None or not python_file or bool(_ADDRESS.match(str(raw["name"])))
    )


def _thread(pid: int, raw: dict[str, Any], sources: dict[str, list[str]]) -> ThreadStack:
    frames = []
    for f in raw["frames"]:
        native = is_native(f)
        filename, line = str(f["filename"]), int(f.get("line") or 0)
        frames.append(
            StackFrame(
                name=str(f["name"]),
                filename=filename,
                line=line,
                native=native,
                code=None if native else procfs.source_line(pid, filename, line, sources),
                locals=tuple(
                    (str(v["name"]), str(v.get("repr") or "")) for v in f.get("locals") or ()
                ),
            )
        )
    return ThreadStack(
        thread_id=int(raw["thread_id"]),
        name=raw.get("thread_name"),
        active=bool(raw.get("active")),
        owns_gil=bool(raw.get("owns_gil")),
        frames=tuple(frames),
        os_thread_id=raw.get("os_thread_id"),
    )


def _failure(pid: int, stderr: str) -> DumpFailure:
    """Sort py-spy's error text into what we can explain."""
    text = stderr.split("\nStack backtrace:")[0].strip()
    first = " ".join(text.split("\nCaused by:")[0].split()).removeprefix("Error: ")[:300]
    if "os error 13" in text or "os error 1)" in text or "Permission denied" in text:
        return DumpFailure(FailureKind.PERMISSION, first)
    if not procfs.alive(pid) or "os error 3)" in text or "No such process" in text:
        return DumpFailure(FailureKind.GONE, f"PID {pid} exited during the capture")
    if "Failed to find python version" in text or "Unsupported version" in text:
        version = procfs.python_version_hint(pid)
        if version is None:
            return DumpFailure(FailureKind.NOT_PYTHON, f"PID {pid} is not a Python process")
        return DumpFailure(
            FailureKind.UNSUPPORTED, f"py-spy cannot read Python {version} (PID {pid})"
        )
    return DumpFailure(FailureKind.OTHER, first or f"py-spy failed on PID {pid}")


def _fatal(pid: int, failure: DumpFailure | None, version: str) -> StacksError:
    """The one-line error when no process of the tree could be read."""
    if failure is None:
        return NoSuchProcessError(f"PID {pid} exited before it could be sampled")
    if failure.kind is FailureKind.PERMISSION:
        return PtraceDeniedError(f"cannot attach to PID {pid}: {ptrace_advice(pid)}")
    if failure.kind is FailureKind.UNSUPPORTED:
        return PySpyError(
            f"{failure.message}: py-spy {version} does not support it; "
            "upgrade with `pip install -U py-spy`"
        )
    if failure.kind is FailureKind.GONE:
        return NoSuchProcessError(failure.message)
    return StacksError(f"cannot capture stacks of PID {pid}: {failure.message}")


def ptrace_advice(pid: int) -> str:
    """Which ptrace permission is missing here and how to get it, in one sentence."""
    reasons = []
    if not procfs.has_ptrace_cap():
        reasons.append("this process lacks CAP_SYS_PTRACE")
    scope = procfs.ptrace_scope()
    if scope:
        reasons.append(
            f"/proc/sys/kernel/yama/ptrace_scope is {scope}"
            + (" (attach disabled until reboot)" if scope >= 3 else "")
        )
    mine, theirs = procfs.uid("self"), procfs.uid(pid)
    if mine is not None and theirs is not None and mine != theirs:
        reasons.append(f"PID {pid} runs as uid {theirs}, spectrace as uid {mine}")
    fixes = (
        "run spectrace as root (sudo) with CAP_SYS_PTRACE (Docker: --cap-add SYS_PTRACE; "
        "Kubernetes: securityContext.capabilities.add [SYS_PTRACE])"
    )
    if scope == 1:
        fixes += ", or allow it with `sudo sysctl kernel.yama.ptrace_scope=0`"
    why = (
        "; ".join(reasons)
        or "the kernel refused ptrace (PID may be non-dumpable or in another user namespace)"
    )
    return f"ptrace permission denied ({why}); {fixes}"
