"""Round 2: inputs that never end or explode, Ctrl-C, and hostile terminals and locales."""

from __future__ import annotations

import bz2
import errno
import gzip
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from test_hostile_cli import spectrace
from test_hostile_inputs import seed_core, write

from spectrace import guard
from spectrace.cli import _interrupt_handler, _os_error
from spectrace.errors import Interrupted
from spectrace.guard import MAX_BINARY_RUN, MAX_NUL_RUN, ReadGuard
from spectrace.read import Reader

CHUNK = memoryview(bytes(4 * 1024 * 1024))


def assert_one_line(proc: subprocess.CompletedProcess[str], code: int, *words: str) -> None:
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    for word in words:
        assert word in proc.stderr


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_an_endless_device_is_refused_in_one_line(device: str) -> None:
    assert_one_line(spectrace("triage", device), 2, device, "character device")


def test_stdin_from_an_endless_device_is_refused_in_one_line() -> None:
    with open("/dev/zero", "rb") as zero:
        proc = spectrace("triage", "-", stdin=zero)
    assert_one_line(proc, 2, "<stdin>", "character device")


def test_dev_null_is_still_an_empty_input() -> None:
    proc = spectrace("triage", os.devnull)
    assert proc.returncode == 0 and "0 incident(s)" in proc.stdout


def test_a_stream_of_nuls_is_stopped_by_the_guard() -> None:
    check = ReadGuard(stream=True, disk_size=0)
    reads = MAX_NUL_RUN // len(CHUNK) + 1
    stops = [check.check(CHUNK, i * len(CHUNK)) for i in range(reads)]
    assert stops[:-1] == [None] * (reads - 1)
    assert stops[-1] is not None and "NUL bytes in a row" in stops[-1]


def test_a_stream_of_binary_is_stopped_and_text_resets_the_count() -> None:
    junk = memoryview(bytes(range(256)) * (1024 * 1024 // 256))
    text = memoryview(b"[2026-02-27 21:00:18 TP0] Decode batch. #running-req: 10\n" * 20000)
    check = ReadGuard(stream=True, disk_size=0)
    for _ in range(MAX_BINARY_RUN // len(junk)):
        assert check.check(junk, 0) is None
    assert check.check(text, 0) is None  # a text read in between: the run starts again
    for _ in range(MAX_BINARY_RUN // len(junk)):
        assert check.check(junk, 0) is None
    why = check.check(junk, 0)
    assert why is not None and "binary data in a row" in why


def test_a_regular_file_is_never_judged_as_a_stream() -> None:
    check = ReadGuard(stream=False, disk_size=0)
    assert all(check.check(CHUNK, i) is None for i in range(MAX_NUL_RUN // len(CHUNK) + 2))


def test_binary_junk_and_a_nul_hole_in_a_pipe_keep_the_crash_after_them() -> None:
    hole = b"\x00" * (MAX_BINARY_RUN + 8 * 1024 * 1024)  # longer than a binary run may be
    junk = bytes(range(256)) * 4096
    proc = subprocess.run(
        [sys.executable, "-m", "spectrace", "triage", "-", "-f", "json"],
        input=junk + b"\n" + hole + seed_core(), capture_output=True, timeout=300, check=False,
    )  # fmt: skip
    assert proc.returncode == 1, proc.stderr
    messages = [i["message"] for i in json.loads(proc.stdout)["incidents"]]
    assert any("The size of tensor a (160)" in m for m in messages)


def test_a_decompression_bomb_stops_with_a_read_issue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(guard, "BOMB_FLOOR", 1024 * 1024)
    bomb = bz2.compress(seed_core() + b"A\n" * (32 * 1024 * 1024))  # 64 MiB in 4 KB
    reader = Reader(write(tmp_path, bomb, "bomb.log.bz2"))
    try:
        text = b"".join(bytes(b.buf[b.start : b.end]) for b in reader.blocks())
    finally:
        reader.close()
    assert b"The size of tensor a (160)" in text  # what came before the stop is kept
    assert len(text) < 64 * 1024 * 1024
    assert any("decompression bomb" in issue for issue in reader.issues)


def test_a_well_compressed_real_log_is_not_called_a_bomb(tmp_path: Path) -> None:
    reader = Reader(write(tmp_path, gzip.compress(seed_core() * 200, compresslevel=9), "s.gz"))
    try:
        size = sum(b.end - b.start for b in reader.blocks())
    finally:
        reader.close()
    assert size == len(seed_core()) * 200 and reader.issues == []


def test_ctrl_c_mid_scan_is_one_line_and_exit_130() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "spectrace", "triage", "-"], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    assert proc.stdin is not None
    # a write larger than the pipe's buffer returns only once the scan has read from it
    proc.stdin.write(seed_core() * 200)
    proc.stdin.flush()
    os.killpg(proc.pid, signal.SIGINT)  # as Ctrl-C does: the whole process group
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert err.decode().strip() == "spectrace: interrupted"


def test_a_forked_scan_worker_leaves_quietly_on_ctrl_c() -> None:
    handler = _interrupt_handler(os.getpid())
    child = os.fork()
    if child == 0:  # the worker: never raises, never prints
        handler(signal.SIGINT, None)
        os._exit(1)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 130
    with pytest.raises(Interrupted):
        handler(signal.SIGINT, None)


def test_an_ascii_stdout_gets_escapes_and_valid_json(tmp_path: Path) -> None:
    log = write(tmp_path, seed_core().replace(b"(160)", "(160) café 😀".encode()))
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "PYTHONUTF8": "0", "LC_ALL": "POSIX"}
    text = spectrace("triage", log, env=env)
    assert text.returncode == 1 and "Traceback" not in text.stderr
    assert "caf\\u00e9 \\ud83d\\ude00" in text.stdout
    data = spectrace("triage", log, "-f", "json", env=env)
    messages = [i["message"] for i in json.loads(data.stdout)["incidents"]]
    assert any("(160) café 😀" in m for m in messages)


@pytest.mark.parametrize("columns", ["0", "1", "5"])
def test_a_tiny_columns_still_prints_the_report(tmp_path: Path, columns: str) -> None:
    log = write(tmp_path, seed_core())
    proc = spectrace("triage", log, env={**os.environ, "COLUMNS": columns})
    assert proc.returncode == 1, proc.stderr
    assert "RuntimeError" in proc.stdout and "spectrace: FAIL" in proc.stdout


def test_a_file_truncated_during_the_read_says_so(tmp_path: Path) -> None:
    data = seed_core() * 100
    path = write(tmp_path, data)
    reader = Reader(path, block_size=256 * 1024)
    try:
        blocks = reader.blocks()
        first = next(blocks)
        assert first.offset == 0
        os.truncate(path, 1000)  # as `> server.log` or a copytruncate rotation does
        rest = sum(b.end - b.start for b in blocks)
    finally:
        reader.close()
    assert rest < len(data)
    assert any("short of the" in i and "truncated during the read" in i for i in reader.issues)


def test_a_file_read_whole_has_no_truncation_issue(tmp_path: Path) -> None:
    reader = Reader(write(tmp_path, seed_core() * 100), block_size=256 * 1024)
    try:
        assert sum(b.end - b.start for b in reader.blocks()) == len(seed_core()) * 100
    finally:
        reader.close()
    assert reader.issues == []


def test_an_unnamed_os_error_is_not_called_a_write_error() -> None:
    assert _os_error(OSError(errno.ENOSPC, "No space left on device")) == (
        "cannot write the output: No space left on device"
    )
    assert _os_error(OSError(errno.EMFILE, "Too many open files")) == "Too many open files"
    assert _os_error(OSError(errno.EACCES, "Permission denied", "a\nb\x1b]2;x\x07")) == (
        "Permission denied (a\\x0ab\\x1b]2;x\\x07)"
    )
