"""The capture format: what py-spy saw, per process and sample, as frozen records and JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spectrace.errors import InputError
from spectrace.stacks.sniff import is_capture_file as is_capture_file  # its old home

FORMAT = "spectrace-stacks"
SCHEMA_VERSION = 1


@dataclass(frozen=True, slots=True)
class StackFrame:
    """One frame, innermost first as py-spy lists them; ``native`` frames come from --native."""

    name: str
    filename: str
    line: int
    native: bool = False
    code: str | None = None  # the source line, read on the capturing host while it was live
    locals: tuple[tuple[str, str], ...] = ()  # (name, repr) with --locals


@dataclass(frozen=True, slots=True)
class ThreadStack:
    thread_id: int
    name: str | None
    active: bool  # py-spy's heuristic: on CPU (not parked in a syscall)
    owns_gil: bool
    frames: tuple[StackFrame, ...]
    os_thread_id: int | None = None  # equals the pid for a process's main thread


@dataclass(frozen=True, slots=True)
class Sample:
    at: float  # seconds since the capture started
    threads: tuple[ThreadStack, ...]


@dataclass(frozen=True, slots=True)
class ProcessCapture:
    """One process of the tree: who it is (rank) and what each sample showed."""

    pid: int
    ppid: int
    cmdline: str
    rank: str | None  # "TP3", "DP0 TP3", "Worker_TP1", "rank2" (the log's rank labels)
    rank_source: str | None  # "title", "cmdline", "env RANK", ...
    samples: tuple[Sample, ...] = ()
    error: str | None = None  # why this process has no samples (not Python, exited, ...)
    role: str | None = None  # a coordinator ("EngineCore_DP0"): not a rank, not in the verdict


@dataclass(frozen=True, slots=True)
class Capture:
    root_pid: int
    started: str  # ISO-8601 UTC
    interval: float
    native: bool
    locals: bool
    pyspy_version: str
    processes: tuple[ProcessCapture, ...]
    host: str = ""


def to_json(capture: Capture) -> dict[str, Any]:
    """Plain-JSON form with the format tag first, so a sniffer finds it in the first bytes."""
    return {
        "format": FORMAT,
        "schema_version": SCHEMA_VERSION,
        "root_pid": capture.root_pid,
        "started": capture.started,
        "host": capture.host,
        "interval": capture.interval,
        "native": capture.native,
        "locals": capture.locals,
        "pyspy_version": capture.pyspy_version,
        "processes": [_process_json(p) for p in capture.processes],
    }


def _process_json(proc: ProcessCapture) -> dict[str, Any]:
    return {
        "pid": proc.pid,
        "ppid": proc.ppid,
        "cmdline": proc.cmdline,
        "rank": proc.rank,
        "rank_source": proc.rank_source,
        "role": proc.role,
        "error": proc.error,
        "samples": [
            {"at": s.at, "threads": [_thread_json(t) for t in s.threads]} for s in proc.samples
        ],
    }


def _thread_json(thread: ThreadStack) -> dict[str, Any]:
    return {
        "thread_id": thread.thread_id,
        "name": thread.name,
        "active": thread.active,
        "owns_gil": thread.owns_gil,
        "os_thread_id": thread.os_thread_id,
        "frames": [
            {
                "name": f.name,
                "filename": f.filename,
                "line": f.line,
                "native": f.native,
                "code": f.code,
                "locals": [list(pair) for pair in f.locals],
            }
            for f in thread.frames
        ],
    }


def from_json(data: Any, origin: str = "<capture>") -> Capture:
    """Rebuild a Capture; anything malformed is one InputError naming the origin."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError(f"{origin}: not a spectrace stacks capture (no format: {FORMAT!r})")
    version = data.get("schema_version")
    if version != SCHEMA_VERSION:
        raise InputError(
            f"{origin}: stacks capture schema_version {version!r} is not supported "
            f"(this spectrace reads {SCHEMA_VERSION})"
        )
    try:
        return Capture(
            root_pid=int(data["root_pid"]),
            started=str(data["started"]),
            host=str(data.get("host", "")),
            interval=float(data["interval"]),
            native=bool(data["native"]),
            locals=bool(data["locals"]),
            pyspy_version=str(data["pyspy_version"]),
            processes=tuple(_process_from(p) for p in data["processes"]),
        )
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as exc:
        raise InputError(
            f"{origin}: malformed stacks capture ({type(exc).__name__}: {exc})"
        ) from None


def _process_from(d: dict[str, Any]) -> ProcessCapture:
    return ProcessCapture(
        pid=int(d["pid"]),
        ppid=int(d["ppid"]),
        cmdline=str(d["cmdline"]),
        rank=_opt_str(d.get("rank")),
        rank_source=_opt_str(d.get("rank_source")),
        error=_opt_str(d.get("error")),
        role=_opt_str(d.get("role")),  # absent from captures saved before roles existed
        samples=tuple(
            Sample(at=float(s["at"]), threads=tuple(_thread_from(t) for t in s["threads"]))
            for s in d["samples"]
        ),
    )


def _thread_from(d: dict[str, Any]) -> ThreadStack:
    return ThreadStack(
        thread_id=int(d["thread_id"]),
        name=_opt_str(d.get("name")),
        active=bool(d["active"]),
        owns_gil=bool(d["owns_gil"]),
        os_thread_id=None if d.get("os_thread_id") is None else int(d["os_thread_id"]),
        frames=tuple(
            StackFrame(
                name=str(f["name"]),
                filename=str(f["filename"]),
                line=int(f["line"]),
                native=bool(f.get("native", False)),
                code=_opt_str(f.get("code")),
                locals=tuple((str(k), str(v)) for k, v in f.get("locals", ())),
            )
            for f in d["frames"]
        ),
    )


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


def save_capture(capture: Capture, path: str | Path) -> None:
    Path(path).write_text(json.dumps(to_json(capture), indent=1) + "\n", encoding="utf-8")


def load_capture(path: str | Path) -> Capture:
    """Read a file written by ``spectrace stacks --save``; errors are one-line InputErrors."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read stacks capture ({exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: stacks capture is not valid JSON ({exc})") from None
    except RecursionError:
        raise InputError(f"{path}: stacks capture is nested too deeply") from None
    return from_json(data, origin=str(path))
