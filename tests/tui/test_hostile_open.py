"""The TUI opens what triage reads: bzip2, xz, nested gzip, UTF-16/32, a copytruncate hole;
and refuses what never ends, in one line."""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from tui_helpers import pilot, screen_lines, started

from spectrace.errors import InputError
from spectrace.line_index import MAX_LINE_BYTES, LineIndex, check_readable
from spectrace.tui.app import SpectraceApp

LINES = [
    "[2026-02-27 21:00:17 TP7] Decode batch. #running-req: 10, #token: 4096",
    "[2026-02-27 21:00:18 TP7] Scheduler hit an exception: Traceback (most recent call last):",
    '  File "/srv/sglang/srt/managers/scheduler.py", line 12, in run',
    "    do_it()",
    "RuntimeError: The size of tensor a (160) must match the size of tensor b (2) café",
]
TEXT = "\n".join(LINES) + "\n"
PACKERS: dict[str, Callable[[bytes], bytes]] = {
    "bzip2": bz2.compress,
    "xz": lzma.compress,
    "gzip-in-gzip": lambda b: gzip.compress(gzip.compress(b, mtime=0), mtime=0),
    "utf16": lambda b: b.decode().encode("utf-16"),
    "utf16-le-no-bom": lambda b: b.decode().encode("utf-16-le"),
    "utf32": lambda b: b.decode().encode("utf-32"),
}


def built(path: Path) -> LineIndex:
    index = LineIndex(path)
    index.head()
    index.build()
    return index


@pytest.mark.parametrize("pack", PACKERS.values(), ids=PACKERS.keys())
def test_an_encoded_log_is_decoded_into_lines(
    tmp_path: Path, pack: Callable[[bytes], bytes]
) -> None:
    path = tmp_path / "server.log.x"
    path.write_bytes(pack(TEXT.encode()))
    check_readable(path)
    index = built(path)
    try:
        assert index.encoded and [index.line(i)[0] for i in range(index.line_count)] == LINES
    finally:
        index.close()


def test_a_cut_xz_shows_what_decoded(tmp_path: Path) -> None:
    noise = "".join(f"[2026-02-27 21:00:19] INFO: GET /health {i} 200 OK\n" for i in range(40000))
    packed = lzma.compress((TEXT + noise).encode())
    path = tmp_path / "cut.log.xz"
    path.write_bytes(packed[: len(packed) // 2])
    check_readable(path)
    index = built(path)
    try:
        assert index.line_count > 0 and index.line(0)[0] == LINES[0]
    finally:
        index.close()


def test_a_copytruncate_hole_opens_and_the_first_line_shows_its_text(tmp_path: Path) -> None:
    path = tmp_path / "rotated.log"
    with path.open("wb") as f:
        f.truncate(8 * 1024 * 1024)  # a sparse hole, as the writer's old offset leaves it
        f.seek(0, os.SEEK_END)
        f.write(b"\x00" * 5000 + TEXT.encode())  # and some written zeros just before the text
    check_readable(path)
    index = built(path)
    try:
        assert [index.line(i)[0] for i in range(index.line_count)] == LINES
        assert index.line(0)[1] == 0  # nothing of the line's text was cut
    finally:
        index.close()


def test_a_short_hole_inside_a_block_is_dropped_too(tmp_path: Path) -> None:
    path = tmp_path / "rotated.log"
    path.write_bytes(b"\x00" * (MAX_LINE_BYTES + 10) + TEXT.encode())
    index = built(path)
    try:
        assert index.line(0) == (LINES[0], 0) and index.lines(0, 2) == LINES[:2]
    finally:
        index.close()


@pytest.mark.parametrize("data", [b"", b"\x00" * 4096], ids=["empty", "only-nuls"])
def test_an_empty_or_all_nul_file_opens_for_follow_mode(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "new.log"
    path.write_bytes(data)
    check_readable(path)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"\x28\xb5\x2f\xfd" + bytes(60), "truncated or damaged zstd"),  # read, like gzip
        (b"PK\x03\x04" + bytes(60), "zip archive"),
        (b"\x00\x01\x02ELF\x03\x04", "binary"),
        (gzip.compress(TEXT.encode())[:12], "truncated or damaged gzip"),
    ],
    ids=["zstd-header-only", "zip", "binary", "gzip-header-only"],
)
def test_what_the_tui_cannot_show_is_one_line(tmp_path: Path, data: bytes, words: str) -> None:
    path = tmp_path / "x.log"
    path.write_bytes(data)
    with pytest.raises(InputError, match=words):
        check_readable(path)


@pilot
async def test_the_app_shows_a_bzip2_log_and_its_crash(tmp_path: Path) -> None:
    path = tmp_path / "server.log.bz2"
    path.write_bytes(bz2.compress(TEXT.encode()))
    app = SpectraceApp([path])
    ready = lambda a: a.log_view.source.count == len(LINES) and a.analysis is not None  # noqa: E731
    async with started(app, ready):
        assert [i.exception_type for i in app.analysis.incidents] == ["RuntimeError"]
        shown = "\n".join(screen_lines(app))
        assert "Decode batch. #running-req: 10" in shown and "Scheduler hit an exception" in shown
