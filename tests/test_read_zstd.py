"""zstd logs (rotated logs, CI artefacts) are read like .gz/.xz/.bz2: by their magic, frame
after frame, a cut frame up to the cut with a read issue, and a bomb stopped by the guard."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from test_hostile_inputs import assert_seed_crash, seed_core, write

from spectrace import guard, inputs
from spectrace.pipeline import analyse
from spectrace.read import Reader
from spectrace.unpack import _zstd

pytestmark = pytest.mark.skipif(_zstd is None, reason="needs backports.zstd (a dependency)")

FILLER = b"".join(
    b"[2026-02-27 20:%02d:%02d TP0] Decode batch. #running-req: %d, #token: %d\n"
    % (i // 60 % 60, i % 60, i % 97, i * 7)
    for i in range(20_000)
)  # about 1.4 MB: many zstd blocks, so a cut frame still has whole blocks before the cut


def text_of(path: str) -> tuple[bytes, list[str]]:
    reader = Reader(path)
    try:
        return b"".join(bytes(b.buf[b.start : b.end]) for b in reader.blocks()), reader.issues
    finally:
        reader.close()


@pytest.mark.parametrize("name", ["server.log.zst", "server.log", "job.stdout"])
def test_a_zstd_log_is_read_by_its_magic_whatever_its_name(tmp_path: Path, name: str) -> None:
    path = write(tmp_path, _zstd.compress(seed_core()), name)
    assert inputs.problem(path) is None
    assert text_of(path) == (seed_core(), [])
    assert_seed_crash(analyse([path]))


def test_frames_one_after_another_and_a_skippable_frame_are_read(tmp_path: Path) -> None:
    core = seed_core()
    half = core.index(b"\n", len(core) // 2) + 1
    skippable = b"\x50\x2a\x4d\x18" + (8).to_bytes(4, "little") + b"pzstd-ix"  # pzstd writes one
    data = skippable + _zstd.compress(core[:half]) + _zstd.compress(core[half:])
    path = write(tmp_path, data, "rotated.log.zst")
    assert text_of(path) == (core, [])
    assert_seed_crash(analyse([path]))


def test_a_cut_frame_keeps_the_crash_before_the_cut_and_says_so(tmp_path: Path) -> None:
    packed = _zstd.compress(seed_core() + FILLER)
    path = write(tmp_path, packed[: len(packed) - 300], "cut.log.zst")
    text, issues = text_of(path)
    assert text.startswith(seed_core()) and len(text) < len(seed_core() + FILLER)
    assert any("damaged or truncated zstd" in issue for issue in issues), issues
    assert_seed_crash(analyse([path]))


def test_triage_of_a_cut_zstd_fails_on_its_crash_and_warns(tmp_path: Path) -> None:
    packed = _zstd.compress(seed_core() + FILLER)
    path = write(tmp_path, packed[: len(packed) - 300], "cut.log.zst")
    proc = subprocess.run([sys.executable, "-m", "spectrace", "triage", path],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert proc.returncode == 1, proc.stderr
    assert "damaged or truncated zstd" in proc.stdout and "Traceback" not in proc.stderr


def test_a_zstd_with_no_whole_block_is_one_line(tmp_path: Path) -> None:
    path = write(tmp_path, b"\x28\xb5\x2f\xfd\x04\x00" + b"\x00" * 64, "server.log.zst")
    assert inputs.problem(path) == "truncated or damaged zstd with no readable data"


def test_a_zstd_bomb_stops_with_a_read_issue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(guard, "BOMB_FLOOR", 1024 * 1024)
    bomb = _zstd.compress(seed_core() + b"A\n" * (32 * 1024 * 1024))  # 64 MiB in a few KB
    text, issues = text_of(write(tmp_path, bomb, "bomb.log.zst"))
    assert b"The size of tensor a (160)" in text and len(text) < 64 * 1024 * 1024
    assert any("decompression bomb" in issue for issue in issues)
