"""LineIndex: the lines a user scrolls to are the file's lines, for plain, gzip and growing files."""

from __future__ import annotations

import gzip
import os
import sys
from pathlib import Path

import pytest

from spectrace.errors import InputError
from spectrace.line_index import MAX_LINE_BYTES, Change, LineIndex, check_readable

LINES = [
    f"[2026-02-27 20:49:{n % 60:02d} TP{n % 8}] Decode batch, #running-req: {n}"
    for n in range(1000)
]


def built(path: Path, chunk: int = 4096) -> LineIndex:
    index = LineIndex(path, chunk=chunk)
    index.build()
    return index


def test_every_line_is_found_across_chunk_boundaries(tmp_path: Path) -> None:
    path = tmp_path / "a.log"
    path.write_text("\n".join(LINES) + "\n")
    index = built(path, chunk=777)
    assert index.done and index.line_count == len(LINES)
    assert [index.line(i)[0] for i in (0, 1, 499, 999)] == [
        LINES[0],
        LINES[1],
        LINES[499],
        LINES[999],
    ]


def test_last_line_without_newline_is_shown(tmp_path: Path) -> None:
    path = tmp_path / "a.log"
    path.write_bytes(b"first\nsecond")
    index = built(path)
    assert index.line_count == 2 and index.line(1) == ("second", 0)


def test_crlf_and_tqdm_redraws_show_the_final_text(tmp_path: Path) -> None:
    path = tmp_path / "a.log"
    path.write_bytes(b"windows line\r\nLoading 10%\rLoading 50%\rLoading 100%\n")
    index = built(path)
    assert index.line(0)[0] == "windows line"
    assert index.line(1)[0] == "Loading 100%"


def test_a_huge_line_is_cut_and_says_how_much(tmp_path: Path) -> None:
    path = tmp_path / "a.log"
    path.write_bytes(b"short\n" + b"x" * (MAX_LINE_BYTES * 3) + b"\nafter\n")
    index = built(path)
    text, cut = index.line(1)
    assert len(text) == MAX_LINE_BYTES and cut == MAX_LINE_BYTES * 2 + 1
    assert index.line(2) == ("after", 0)


def test_gzip_shows_the_same_lines_as_plain(tmp_path: Path) -> None:
    path = tmp_path / "a.log.gz"
    with gzip.open(path, "wt") as fh:
        fh.write("\n".join(LINES) + "\n")
    index = built(path)
    assert index.encoded and index.line_count == len(LINES)
    assert index.line(777)[0] == LINES[777]
    index.close()


def test_index_costs_about_eight_bytes_a_line(tmp_path: Path) -> None:
    path = tmp_path / "a.log"
    path.write_bytes(b"x\n" * 200_000)
    index = built(path, chunk=1 << 20)
    per_line = sys.getsizeof(index._ends) / index.line_count
    assert per_line < 10


def test_appended_lines_and_a_completed_partial_line_appear(tmp_path: Path) -> None:
    path = tmp_path / "a.log"
    path.write_bytes(b"one\ntw")
    index = built(path)
    assert index.line(1)[0] == "tw"
    with path.open("ab") as fh:
        fh.write(b"o\nthree\n")
    assert index.refresh() is Change.GROWN
    assert [index.line(i)[0] for i in range(index.line_count)] == ["one", "two", "three"]
    assert index.refresh() is Change.SAME


def test_truncation_resets_without_stale_lines(tmp_path: Path) -> None:
    path = tmp_path / "a.log"
    path.write_text("\n".join(LINES) + "\n")
    index = built(path)
    index.line(900)
    path.write_text("fresh start\n")
    assert index.refresh() is Change.RESET
    assert index.line_count == 1 and index.line(0)[0] == "fresh start"


def test_rotation_to_a_new_file_resets(tmp_path: Path) -> None:
    path = tmp_path / "a.log"
    path.write_text("old one\nold two\n")
    index = built(path)
    os.rename(path, tmp_path / "a.log.1")
    path.write_text("new one\nnew two\nnew three\n")
    assert index.refresh() is Change.RESET
    assert index.line(0)[0] == "new one" and index.line_count == 3


@pytest.mark.parametrize(
    ("content", "message"), [(None, "no such file"), (b"\x00\x01\x02ELF", "binary")]
)
def test_unusable_inputs_give_one_line_errors(
    tmp_path: Path, content: bytes | None, message: str
) -> None:
    path = tmp_path / "x.log"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(InputError, match=message):
        check_readable(path)


def test_a_directory_is_not_a_log(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="directory"):
        check_readable(tmp_path)


def test_numpy_and_pure_python_find_the_same_lines(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    path = tmp_path / "a.log"
    path.write_bytes(b"".join(f"{'x' * (n % 97)}\r\n".encode() for n in range(20_000)) + b"tail")
    plain, fast = (
        LineIndex(path, chunk=4099, use_numpy=False),
        LineIndex(path, chunk=4099, use_numpy=True),
    )
    plain.build()
    fast.build()
    assert fast.line_count == plain.line_count == 20_001
    assert [fast.line(i) for i in range(0, 20_001, 997)] == [
        plain.line(i) for i in range(0, 20_001, 997)
    ]
    assert fast._np is not None and plain._np is None


def test_bulk_reads_match_line_by_line_reads(tmp_path: Path) -> None:
    path = tmp_path / "a.log"
    path.write_bytes(b"one\r\n" + b"y" * (MAX_LINE_BYTES + 10) + b"\nredraw 1\rredraw 2\n\nlast")
    index = built(path)
    assert index.lines(0, 99) == [index.line(i)[0] for i in range(index.line_count)]
    assert index.lines(2, 4) == ["redraw 2", ""] and index.lines(5, 9) == []


def test_head_shows_a_first_screen_and_build_goes_on_from_it(tmp_path: Path) -> None:
    """The app indexes the head on its own thread so the first frame has text; the worker's
    pass must then neither lose nor repeat the line the head cut in two."""
    path = tmp_path / "a.log"
    path.write_text("\n".join(LINES) + "\n")
    index = LineIndex(path, chunk=4096)
    added = index.head(1000)  # ends inside a line
    assert 0 < added < index.line_count and not index.done
    assert index.line(0)[0] == LINES[0]
    index.build()
    assert index.line_count == len(LINES)
    assert [index.line(i)[0] for i in range(len(LINES))] == LINES
    assert index.head() == 0  # only ever the start of a fresh index


def test_head_leaves_a_gzip_log_to_the_background_pass(tmp_path: Path) -> None:
    path = tmp_path / "a.log.gz"
    path.write_bytes(gzip.compress(("\n".join(LINES) + "\n").encode()))
    index = LineIndex(path)
    assert index.head() == 0 and index.line_count == 0
    index.build()
    assert index.line_count == len(LINES)


def test_a_block_read_while_lines_are_added_is_not_cached_stale(tmp_path: Path) -> None:
    """The view reads a block while the worker completes its half-written last line: the next
    read must show the completed line, not the half the first read saw."""
    path = tmp_path / "a.log"
    path.write_text("one\ntw")
    index = LineIndex(path)
    index.head()
    with path.open("a") as fh:
        fh.write("o\nthree\n")
    reads = iter([True])
    real_pread = os.pread

    def pread_then_grow(fd: int, n: int, at: int) -> bytes:
        data = real_pread(fd, n, at)
        if next(reads, False):  # the worker's pass lands between the read and its caching
            index.build()
        return data

    index_module = sys.modules[LineIndex.__module__]
    saved = index_module.os.pread
    index_module.os.pread = pread_then_grow  # type: ignore[attr-defined]
    try:
        assert index.line(1)[0] == "tw"  # what the file held when this read began
    finally:
        index_module.os.pread = saved  # type: ignore[attr-defined]
    assert [index.line(i)[0] for i in range(3)] == ["one", "two", "three"]
