"""Junk before the text and holes inside it (issue 12 item 4): the encoding is decided by the
content, not by two bytes; a run of NULs is a hole that is skipped and said, not "binary"; the
crash after the junk or the hole is found, and triage fails on it."""

from __future__ import annotations

import random
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from test_hostile_inputs import assert_seed_crash, seed_core, write

from spectrace import inputs
from spectrace.pipeline import analyse
from spectrace.unpack import Codec, sniff

JUNK = random.Random(7).randbytes(64 * 1024)  # a binary preamble: control bytes and NULs
TENSOR = b"".join(struct.pack("<i", i * 7) for i in range(200_000))  # a dump of small ints
CHINESE = "调度器在验证步骤中崩溃。张量的大小不匹配。\n" * 40


def issues(result: object) -> list[str]:
    return [issue for f in result.files for issue in f.issues]  # type: ignore[attr-defined]


@pytest.mark.parametrize("mark", [b"\xff\xfe", b"\xfe\xff", b"\xff\xfe\x00\x00"])
def test_a_stray_utf16_mark_before_utf8_text_reads_the_text_and_says_so(
    tmp_path: Path, mark: bytes
) -> None:
    result = analyse([write(tmp_path, mark + seed_core())])
    assert_seed_crash(result)
    assert any("UTF-16 byte-order mark" in i and "read as UTF-8" in i for i in issues(result))


def test_triage_exits_1_on_the_crash_after_a_stray_mark(tmp_path: Path) -> None:
    path = write(tmp_path, b"\xff\xfe" + seed_core())
    proc = subprocess.run([sys.executable, "-m", "spectrace", "triage", path],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("data", "codec"),
    [
        ("text\n" * 50, Codec.PLAIN),
        (b"\xff\xfe" + ("text\n" * 50).encode("utf-16-le"), Codec.UTF16),
        (("text\n" * 50).encode("utf-16-be"), Codec.UTF16),
        (CHINESE.encode("utf-16"), Codec.UTF16),  # a mark, then UTF-16 with no NUL lane
        (b"\xff\xfe" + CHINESE.encode(), Codec.PLAIN),  # a mark, then UTF-8
        (b"\x00" * 1000 + ("text\n" * 50).encode("utf-16-be"), Codec.UTF16),  # past a hole
        (("text\n" * 50).encode("utf-32"), Codec.UTF32),
    ],
    ids=["utf8", "utf16le", "utf16be-no-mark", "cjk-utf16", "cjk-utf8-stray", "hole-utf16", "utf32"],
)
def test_the_encoding_is_judged_by_the_content(data: str | bytes, codec: Codec) -> None:
    raw = data.encode() if isinstance(data, str) else data
    assert sniff(raw[:4096]) is codec


@pytest.mark.parametrize(
    "layout",
    ["lead", "inside", "mid-line", "tail"],
)
def test_a_nul_hole_is_skipped_with_a_read_issue_and_the_crash_found(
    tmp_path: Path, layout: str
) -> None:
    core, hole = seed_core(), b"\x00" * (3 << 20)  # over a 1 MiB... and a 4 MiB-block edge
    cut = core.index(b"\n", len(core) // 3) + 1
    data = {
        "lead": hole + core,
        "inside": core[:cut] + hole + core[cut:],
        "mid-line": core[: cut - 20] + hole + core[cut - 20 :],
        "tail": core + hole,  # a preallocated file
    }[layout]
    path = write(tmp_path, data)
    assert inputs.problem(path) is None
    result = analyse([path])
    assert_seed_crash(result) if layout != "mid-line" else None
    assert any(i.root_cause for i in result.incidents)
    hole_issues = [i for i in issues(result) if "NUL bytes" in i]
    assert hole_issues == [f"skipped {len(hole)} NUL bytes at byte {data.index(hole)} (a hole: "
                           "a copytruncate rotation or a preallocated file)"]  # fmt: skip
    assert not any("longer than" in i for i in issues(result))


def test_binary_junk_before_the_log_does_not_make_it_binary(tmp_path: Path) -> None:
    path = write(tmp_path, TENSOR + JUNK + b"\n" + seed_core())
    assert inputs.problem(path) is None
    assert_seed_crash(analyse([path]))


def test_a_short_crash_after_much_junk_is_found(tmp_path: Path) -> None:
    core = seed_core()
    tail = core[core.index(b"[2026-02-27 21:00:16 TP0]") :]  # the last few KB: the crash
    path = write(tmp_path, JUNK * 3 + b"\n" + tail)
    assert inputs.problem(path) is None
    assert any(i.root_cause for i in analyse([path]).incidents)


def test_a_file_with_no_text_anywhere_is_still_binary(tmp_path: Path) -> None:
    assert inputs.problem(write(tmp_path, TENSOR)) == "binary file, not a text log"


def test_an_elf_binary_or_core_dump_is_refused_by_its_magic(tmp_path: Path) -> None:
    path = write(tmp_path, b"\x7fELF\x02\x01\x01" + JUNK + b"CUDA error: out of memory\n" * 500)
    assert "ELF binary" in (inputs.problem(path) or "")
