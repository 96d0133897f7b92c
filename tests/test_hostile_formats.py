"""Inputs in another encoding or container (UTF-16, bzip2, xz, gzip in gzip, a rotation's NUL
hole, a pipe) are read as the log they hold; what cannot be read says so in one line."""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
import threading
import tracemalloc
from pathlib import Path

import pytest
from test_hostile_inputs import assert_seed_crash, seed_core, write

from spectrace import inputs
from spectrace.errors import InputError
from spectrace.parallel import plan_workers
from spectrace.pipeline import analyse
from spectrace.read import Reader


def text_of(path: str) -> bytes:
    reader = Reader(path)
    try:
        return b"".join(bytes(b.buf[b.start : b.end]) for b in reader.blocks())
    finally:
        reader.close()


@pytest.mark.parametrize(
    "encode",
    [
        lambda t: t.decode().encode("utf-16"),  # BOM + little-endian, as PowerShell writes
        lambda t: b"\xfe\xff" + t.decode().encode("utf-16-be"),
        lambda t: t.decode().encode("utf-16-le"),  # no BOM
        lambda t: t.decode().encode("utf-32"),
    ],
    ids=["utf16-bom-le", "utf16-bom-be", "utf16-le-no-bom", "utf32"],
)
def test_a_utf16_log_is_read_as_text(tmp_path: Path, encode: object) -> None:
    path = write(tmp_path, encode(seed_core()))  # type: ignore[operator]
    assert inputs.problem(path) is None
    assert text_of(path) == seed_core()
    assert_seed_crash(analyse([path]))


@pytest.mark.parametrize(
    "pack",
    [bz2.compress, lzma.compress, lambda t: gzip.compress(gzip.compress(t, mtime=0), mtime=0)],
    ids=["bzip2", "xz", "gzip-in-gzip"],
)
def test_bzip2_xz_and_gzip_in_gzip_are_unpacked(tmp_path: Path, pack: object) -> None:
    path = write(tmp_path, pack(seed_core()), "server.log.x")  # type: ignore[operator]
    assert inputs.problem(path) is None
    assert_seed_crash(analyse([path]))


@pytest.mark.parametrize("pack", [bz2.compress, lzma.compress], ids=["bzip2", "xz"])
def test_a_cut_bzip2_or_xz_keeps_the_crash_before_the_cut_and_says_so(
    tmp_path: Path, pack: object
) -> None:
    noise = b"".join(
        b'[2026-02-27 21:00:19] INFO:     127.0.0.1:%d - "GET /health HTTP/1.1" 200 OK\n' % i
        for i in range(40000)
    )
    packed = pack(seed_core() + b"\n" + noise)  # type: ignore[operator]
    result = analyse([write(tmp_path, packed[: len(packed) // 2], "server.log.x")])
    assert_seed_crash(result)
    issues = [issue for f in result.files for issue in f.issues]
    assert any("damaged or truncated" in issue for issue in issues), issues


@pytest.mark.parametrize(
    ("head", "what"),
    [(b"PK\x03\x04\x14\x00", "zip"), (b"7z\xbc\xaf\x27\x1c\x00", "7z"), (b"\x7fELF\x02", "ELF")],
)
def test_archives_and_binaries_are_refused_in_one_line_with_the_way_out(
    tmp_path: Path, head: bytes, what: str
) -> None:
    path = write(tmp_path, head + b"\x00" * 64, "server.log")
    assert what in (inputs.problem(path) or "")
    with pytest.raises(InputError, match=what) as err:
        analyse([path])
    assert "\n" not in str(err.value)


def test_a_log_after_a_copytruncate_hole_is_read(tmp_path: Path) -> None:
    """logrotate's copytruncate leaves the writer's offset: a sparse run of NULs, then the log
    glued to it without a newline. The run is longer than the read buffer."""
    path = tmp_path / "server.log"
    with path.open("wb") as fh:
        fh.seek(6 * 1024 * 1024)
        fh.write(seed_core())
    assert inputs.problem(str(path)) is None
    assert_seed_crash(analyse([str(path)]))


@pytest.mark.parametrize("hole", [100_000, 6 * 1024 * 1024])
def test_the_line_glued_to_a_hole_is_kept(tmp_path: Path, hole: int) -> None:
    """The overlap-scheduler warning (line 2, SGLANG_ENABLE_SPEC_V2) right after the hole."""
    first, rest = seed_core().split(b"\n", 1)
    result = analyse([write(tmp_path, first + b"\n" + b"\x00" * hole + rest)])
    assert_seed_crash(result)
    assert result.config.flags["SGLANG_ENABLE_SPEC_V2"].lineno == 2


def test_a_file_of_only_nuls_is_named_as_such(tmp_path: Path) -> None:
    assert inputs.problem(write(tmp_path, b"\x00" * 100_000)) == "only NUL bytes, no text"
    assert inputs.problem(write(tmp_path, b"", "empty.log")) == "empty file"


@pytest.mark.parametrize("packed", [False, True])
def test_a_pipe_is_read_once_and_whole(tmp_path: Path, packed: bool) -> None:
    """`spectrace triage <(zcat log.gz)`: nothing may read the pipe's head before the scan."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    data = gzip.compress(seed_core(), mtime=0) if packed else seed_core()

    def feed() -> None:
        with fifo.open("wb") as fh:
            fh.write(data)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    assert inputs.usable([str(fifo)], warn=pytest.fail) == [str(fifo)]
    assert plan_workers(str(fifo), None) == 1
    result = analyse([str(fifo)])
    writer.join(timeout=10)
    assert_seed_crash(result)
    assert result.files[0].lines == seed_core().count(b"\n")


def test_a_socket_is_skipped_with_its_reason(tmp_path: Path) -> None:
    import socket

    path = str(tmp_path / "s.log")
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(path)
        assert inputs.problem(path) == "a socket, not a log file"


def test_a_small_file_does_not_cost_big_read_buffers(tmp_path: Path) -> None:
    """10,000 small files in a directory: each must not allocate two 4 MiB buffers."""
    path = write(tmp_path, seed_core())
    tracemalloc.start()
    try:
        text_of(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1024 * 1024, f"{peak} bytes to read a {len(seed_core())}-byte file"


def test_a_file_growing_during_the_read_is_read_as_it_was_opened(tmp_path: Path) -> None:
    """A writer faster than the scan must not keep it going: what comes after the open is
    read only as far as a block already holds it (the scan stops at the next beyond block)."""
    path = Path(write(tmp_path, seed_core()))
    reader = Reader(str(path), block_size=128 * 1024)
    try:
        blocks = reader.blocks()
        first = next(blocks)
        assert not first.beyond
        with path.open("ab") as fh:
            fh.write(b"[2026-02-27 21:00:20 TP0] more\n" * 100_000)  # 3 MB after the open
        assert all(block.beyond for block in blocks)
    finally:
        reader.close()


def test_a_runaway_traceback_keeps_its_outer_and_inner_frames_only(tmp_path: Path) -> None:
    """Memory stays bounded (200,000 frames took 485 MB); the worker path (outer frames) and
    the crash site (inner frames) are what the report needs."""
    from spectrace.assemblers.tracebacks import MAX_FRAMES

    frame = '  File "/srv/app/recurse.py", line {n}, in recurse\n    return recurse(n - 1)\n'
    text = (
        "[2026-02-27 21:00:17 TP1] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "/srv/sglang/srt/managers/scheduler.py", line 2703, in run_scheduler_process\n'
        + "".join(frame.format(n=n) for n in range(1, 5001))
        + "RecursionError: maximum recursion depth exceeded\n"
    )
    incidents = analyse([write(tmp_path, text.encode())]).incidents
    assert [i.exception_type for i in incidents] == ["RecursionError"]
    frames = incidents[0].frames
    assert len(frames) == MAX_FRAMES
    assert frames[0].function == "run_scheduler_process" and frames[-1].line == 5000
