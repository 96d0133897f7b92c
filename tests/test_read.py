"""Reader: whole-line blocks in bounded memory, gzip (multi-member, truncated), long lines, errors."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import pytest

from spectrace.errors import InputError
from spectrace.read import MAX_LINE_BYTES, GzipStream, Reader


def lines_of(path: Path, block_size: int = 1 << 17) -> tuple[list[bytes], list[int], Reader]:
    reader = Reader(str(path), block_size=block_size)
    lines: list[bytes] = []
    starts: list[int] = []
    for block in reader.blocks():
        chunk = bytes(block.buf[block.start : block.end])
        assert chunk.endswith(b"\n") or block.end == block.start + len(chunk)
        pos = block.offset
        for line in chunk.split(b"\n")[: -1 if chunk.endswith(b"\n") else None]:
            starts.append(pos)
            lines.append(line)
            pos += len(line) + 1
    reader.close()
    return lines, starts, reader


def sample(n: int) -> bytes:
    return b"".join(
        b"[2026-02-27 21:00:%02d TP%d] Decode batch, #running-req: %d\n" % (i % 60, i % 8, i)
        for i in range(n)
    )


def test_blocks_cut_at_line_ends_with_true_offsets(tmp_path: Path) -> None:
    data = sample(20000)
    (tmp_path / "a.log").write_bytes(data)
    lines, starts, _ = lines_of(tmp_path / "a.log")
    assert lines == data.split(b"\n")[:-1]
    assert all(data[s : s + 5] == b"[2026" for s in starts)


def test_gzip_multi_member_reads_like_plain(tmp_path: Path) -> None:
    data = sample(5000)
    (tmp_path / "a.log.gz").write_bytes(gzip.compress(data[:1000]) + gzip.compress(data[1000:]))
    lines, _, reader = lines_of(tmp_path / "a.log.gz")
    assert b"\n".join(lines) + b"\n" == data and reader.gzip and reader.issues == []


def test_truncated_gzip_keeps_what_came_before(tmp_path: Path) -> None:
    data = sample(20000)
    packed = gzip.compress(data)
    (tmp_path / "t.log.gz").write_bytes(packed[: len(packed) // 2])
    lines, _, reader = lines_of(tmp_path / "t.log.gz")
    assert 1000 < len(lines) < 20000
    assert data.startswith(b"\n".join(lines[:-1]))
    assert len(reader.issues) == 1 and "truncated gzip" in reader.issues[0]


def damaged_then_good(data: bytes, damage: slice) -> tuple[bytes, bytes]:
    """Two gzip members split at a line end; the first overwritten at ``damage``."""
    half = data.index(b"\n", len(data) // 2) + 1
    first = bytearray(gzip.compress(data[:half], mtime=0))
    first[damage] = b"\xff" * (damage.stop - damage.start)
    return bytes(first) + gzip.compress(data[half:], mtime=0), data[half:]


@pytest.mark.parametrize("where", ["data", "header"])
def test_damaged_gzip_member_is_skipped_and_the_next_one_read(tmp_path: Path, where: str) -> None:
    data = sample(20000)
    damage = slice(2, 3) if where == "header" else slice(5000, 5064)  # method byte / deflate data
    packed, good = damaged_then_good(data, damage)
    (tmp_path / "d.log.gz").write_bytes(packed)
    lines, _, reader = lines_of(tmp_path / "d.log.gz")
    tail = good.split(b"\n")[1:-1]  # the first may be joined to the damaged member's last bytes
    assert lines[-len(tail) :] == tail and good.split(b"\n")[0] in lines[-len(tail) - 1]
    assert len(reader.issues) == 1 and "skipped to the next member" in reader.issues[0]


def test_damaged_gzip_member_on_a_pipe_is_skipped_too() -> None:
    data = sample(20000)
    packed, good = damaged_then_good(data, slice(5000, 5064))
    issues: list[str] = []
    stream, out, buf = GzipStream(io.BytesIO(packed), issues.append), b"", bytearray(1 << 16)
    with memoryview(buf) as view:
        while n := stream.readinto(view):
            out += bytes(buf[:n])
    assert out.endswith(good) and len(issues) == 1


def test_damage_with_no_member_after_it_keeps_what_came_before(tmp_path: Path) -> None:
    data = sample(20000)
    packed = bytearray(gzip.compress(data, mtime=0))
    packed[len(packed) // 2 : len(packed) // 2 + 64] = b"\xff" * 64
    (tmp_path / "e.log.gz").write_bytes(bytes(packed))
    lines, _, reader = lines_of(tmp_path / "e.log.gz")
    assert lines and data.startswith(lines[0] + b"\n")
    assert len(reader.issues) == 1 and "no member after it" in reader.issues[0]


def test_over_long_line_keeps_its_start_and_the_lines_after(tmp_path: Path) -> None:
    big = b"[2026-02-27 21:00:00 TP0] " + b"x" * (3 * (1 << 17)) + b"\n"
    (tmp_path / "l.log").write_bytes(b"first\n" + big + b"Traceback (most recent call last):\n")
    lines, starts, reader = lines_of(tmp_path / "l.log")
    assert lines[0] == b"first" and len(lines[1]) == MAX_LINE_BYTES
    assert lines[2] == b"Traceback (most recent call last):" and starts[2] == 6 + len(big)
    assert "longer than" in reader.issues[0]


def test_last_line_without_newline_and_empty_file(tmp_path: Path) -> None:
    (tmp_path / "n.log").write_bytes(b"a\nb")
    assert lines_of(tmp_path / "n.log")[0] == [b"a", b"b"]
    (tmp_path / "e.log").write_bytes(b"")
    assert lines_of(tmp_path / "e.log")[0] == []


def test_missing_file_is_one_line_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"nope\.log: cannot read"):
        Reader(str(tmp_path / "nope.log"))


def test_over_long_redraw_line_keeps_its_last_redraw(tmp_path: Path) -> None:
    bar = (
        b"Loading safetensors checkpoint shards:  50% Completed | 2/4\r" * 8000
    )  # ~480 KB, no newline
    (tmp_path / "r.log").write_bytes(bar + b"Traceback (most recent call last):\r\nKilled\n")
    lines, _, _ = lines_of(tmp_path / "r.log")
    assert lines[0].startswith(b"Loading") and lines[0].endswith(
        b"\rTraceback (most recent call last):"
    )
    assert len(lines[0]) < 2 * MAX_LINE_BYTES and lines[1] == b"Killed"
