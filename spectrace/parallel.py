"""Big plain files: scan line-aligned byte ranges in forked workers and merge as if scanned once."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, BinaryIO

from spectrace.assemblers.crash import Crash
from spectrace.errors import InputError
from spectrace.linecount import NUMPY_INPUT_MIN, LineCounter
from spectrace.read import STDIN
from spectrace.scan import ScanResult, ScanSpec, scan_range
from spectrace.stacks.pasted import shifted
from spectrace.unpack import SNIFF_BYTES, Codec, sniff

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

# multiprocessing is imported only for a file big enough to split: it costs ~8 ms of start-up

PARALLEL_MIN_BYTES = 96 * 1024 * 1024  # below this a worker's start-up is not paid back


def plan_workers(path: str, requested: int | None) -> int:
    """How many processes to use: 1 for stdin, gzip, small files, one core or no fork."""
    if requested is not None and requested <= 1 or path == STDIN:
        return 1
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a pipe's bytes can be read only once
            return 1
        with open(path, "rb") as f:
            if sniff(f.read(SNIFF_BYTES)) is not Codec.PLAIN:  # encoded: no byte ranges
                return 1
        size = os.path.getsize(path)
    except (OSError, InputError):
        return 1
    workers = (
        (min(os.cpu_count() or 1, 2) if size >= PARALLEL_MIN_BYTES else 1)
        if requested is None
        else max(1, min(requested, size // (1024 * 1024) + 1))
    )
    return workers if workers == 1 or _can_fork() else 1


def _can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def split_points(path: str, parts: int) -> list[int]:
    """Byte offsets that start a line, cutting the file into ``parts`` near-equal ranges."""
    size = os.path.getsize(path)
    points = [0]
    with open(path, "rb") as f:
        for i in range(1, parts):
            points.append(_next_line(f, max(points[-1], size * i // parts), size))
    points.append(size)
    return points


def _next_line(f: BinaryIO, pos: int, size: int) -> int:
    """The start of the first line at or after ``pos`` (never reads a whole long line)."""
    if pos == 0:
        return 0
    f.seek(pos - 1)
    while chunk := f.read(1 << 20):
        nl = chunk.find(b"\n")
        if nl >= 0:
            return pos - 1 + nl + 1
        pos += len(chunk)
    return size


def scan_parallel(path: str, spec: ScanSpec, workers: int, *,
                  on_crash: Callable[[Crash], None] | None = None,
                  on_block: Callable[[int], None] | None = None) -> ScanResult:  # fmt: skip
    """The first range runs here (live callbacks), the others in forked children."""
    import multiprocessing

    points = split_points(path, workers)
    if points[-1] >= NUMPY_INPUT_MIN:
        LineCounter(use_numpy=True)(bytearray(1 << 20), 0, 1 << 20)  # import once, before forking
    ctx = multiprocessing.get_context("fork")
    children = []
    for lo, hi in zip(points[1:-1], points[2:], strict=True):
        recv, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_child, args=(send, path, spec, lo, hi), daemon=True)
        proc.start()
        send.close()
        children.append((recv, proc))
    size, head = points[-1], max(points[1], 1)

    def progress(pos: int) -> None:  # the other ranges advance at about the same rate
        if on_block is not None:
            on_block(min(pos, head) * size // head)

    first = scan_range(path, spec, start=0, stop=points[1], on_crash=on_crash, on_block=progress)
    parts = [first]
    for recv, proc in children:
        parts.append(recv.recv())
        proc.join()
    if on_block is not None:
        on_block(size)
    return merge_ranges(parts, on_crash)


def _child(send: Connection, path: str, spec: ScanSpec, start: int, stop: int) -> None:
    send.send(scan_range(path, spec, start=start, stop=stop))
    send.close()


def merge_ranges(parts: list[ScanResult], on_crash: Callable[[Crash], None] | None) -> ScanResult:
    """Shift line numbers; drop what a range parsed that the range before already finished."""
    out = parts[0]
    for part in parts[1:]:
        shift, covered = out.lines, out.parsed_to
        for crash, samples in zip(part.crashes, part.load, strict=True):
            if crash.offset < covered:
                continue  # the previous range extended past its end to finish this record
            crash = replace(crash, lineno=crash.lineno + shift, end_lineno=crash.end_lineno + shift)
            out.crashes.append(crash)
            out.load.append([replace(s, lineno=s.lineno + shift) for s in samples])
            if on_crash is not None:
                on_crash(crash)
        out.config_lines += [replace(x, lineno=x.lineno + shift) for x in part.config_lines]
        out.carried |= {(source, n + shift) for source, n in part.carried}
        out.pasted += [shifted(d, shift) for d in part.pasted if d.offset >= covered]
        out.lines += part.lines
        out.bytes += part.bytes
        out.dialects.update(part.dialects)
        out.issues += [i for i in part.issues if i not in out.issues]
        out.markers |= part.markers
        out.parsed_to = max(out.parsed_to, part.parsed_to)
    return out
