"""Round 2 against diff and stacks: names people can read, devices where files are meant."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from test_hostile_cli import spectrace
from test_hostile_inputs import seed_core


def test_diff_names_log_files_within_their_run_not_by_full_path(tmp_path: Path) -> None:
    old, new = tmp_path / "nightly-0411" / "logs", tmp_path / "nightly-0412" / "logs"
    old.mkdir(parents=True)
    new.mkdir(parents=True)
    (old / "server.log").write_bytes(seed_core())
    (new / "server.log").write_bytes(b"[2026-02-27 21:00:17 TP0] Decode batch. #running-req: 1\n")
    (new / "rank3.log").write_bytes(seed_core().replace(b"(160)", b"(161) other"))
    proc = spectrace("diff", str(old), str(new))
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[:2] == [f"old: {old}", f"new: {new}"]  # each run as given, once
    body = "\n".join(lines[2:])
    assert str(tmp_path) not in body
    assert "at rank3.log:35" in body and "at server.log:35" in body  # new, then gone


@pytest.mark.parametrize(
    "args",
    [
        ["--load", "/dev/zero"],  # was read into memory until the kernel killed it
        ["--watch", "/dev/zero", "--pid", "1", "--stall", "1", "--max-time", "2"],
    ],
    ids=["load", "watch"],
)
def test_stacks_refuses_a_device_where_a_file_is_meant(args: list[str]) -> None:
    proc = spectrace("stacks", *args)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip() == f"spectrace: error: {args[0]} /dev/zero: not a regular file"


@pytest.mark.parametrize("option", ["--baseline", "--expect-file"])
def test_an_option_file_that_never_ends_is_one_line(tmp_path: Path, option: str) -> None:
    """/dev/zero as a baseline was read until MemoryError (a traceback) or the OOM killer."""
    log = tmp_path / "server.log"
    log.write_bytes(seed_core())
    proc = spectrace("triage", str(log), option, "/dev/zero")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip() == (
        f"spectrace: error: {option} /dev/zero: a character device (like /dev/zero), not a file"
    )


@pytest.mark.parametrize(("option", "size"), [("--baseline", 513), ("--expect-file", 17)])
def test_an_option_file_too_big_to_read_whole_is_one_line(
    tmp_path: Path, option: str, size: int
) -> None:
    log, big = tmp_path / "server.log", tmp_path / "big.txt"
    log.write_bytes(seed_core())
    with big.open("wb") as f:
        f.truncate(size * 1024 * 1024)  # sparse: costs no disk
    proc = spectrace("triage", str(log), option, str(big))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"{option} {big}: {size * 1024 * 1024} bytes; at most" in proc.stderr


def test_a_marker_file_from_a_pipe_is_read_up_to_the_limit(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    log.write_bytes(seed_core())
    proc = spectrace("triage", str(log), "--expect-file", "/dev/stdin", input="x" * (17 << 20))
    assert proc.returncode == 2 and "more than 16 MiB" in proc.stderr


@pytest.mark.parametrize(
    ("command", "code"),
    [(["diff", "{log}", "{log}"], 0), (["diff", "{empty}", "{log}"], 1), (["triage", "{log}"], 1)],
    ids=["diff-same", "diff-new", "triage"],
)
def test_a_reader_that_left_keeps_the_exit_code(
    tmp_path: Path, command: list[str], code: int
) -> None:
    """`| head -1`: diff's text output exited 1 (typer's own broken-pipe exit), not its verdict."""
    log, empty = tmp_path / "server.log", tmp_path / "quiet.log"
    log.write_bytes(seed_core() * 3)
    empty.write_bytes(b"[2026-02-27 21:00:17 TP0] Decode batch. #running-req: 1\n")
    args = [a.format(log=log, empty=empty) for a in command]
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first byte: every write is EPIPE
    with os.fdopen(write, "wb") as out:
        proc = subprocess.run(
            [sys.executable, "-m", "spectrace", *args], stdout=out, stderr=subprocess.PIPE,
            text=True, timeout=120, check=False,
        )  # fmt: skip
    assert proc.returncode == code, proc.stderr
    assert proc.stderr == ""


def _limited(soft: int, hard: int) -> Callable[[], None]:
    return lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_tui_on_more_logs_than_open_files_allowed_is_one_line(tmp_path: Path) -> None:
    """1,500 logs under `ulimit -n 1024` said 'cannot write the output: Too many open files'."""
    for n in range(100):
        (tmp_path / f"rank{n}.log").write_text(f"[2026-02-27 21:00:18 TP{n}] up\n")
    proc = spectrace("tui", str(tmp_path), preexec_fn=_limited(128, 128))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip() == (
        "spectrace: error: 100 log files need 264 open files; the limit is 128 (ulimit -n): "
        "open fewer files or a directory of fewer logs"
    )


def test_tui_raises_the_soft_open_file_limit_when_the_hard_one_allows() -> None:
    code = (
        "import resource; from spectrace.commands.tui import _enough_descriptors; "
        "_enough_descriptors(1000); print(resource.getrlimit(resource.RLIMIT_NOFILE)[0])"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60,
        preexec_fn=_limited(256, 4096),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "2064"


@pytest.mark.parametrize("command", ["triage", "tui", "diff"])
@pytest.mark.parametrize(
    ("arg", "words"),
    [
        ("", "an empty path was given (an unset variable?)"),  # once scanned the working dir
        ("a" * 100_000, "file name too long"),  # once a 100 KB error line
        ("**/" * 30 + "x.log", "more than 3 '**' in one glob"),  # once never ended
    ],
    ids=["empty", "too-long", "globstars"],
)
def test_a_path_nobody_meant_is_one_short_line(
    tmp_path: Path, command: str, arg: str, words: str
) -> None:
    args = [arg, str(tmp_path)] if command == "diff" else [arg]
    proc = spectrace(command, *args, cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert words in proc.stderr and len(proc.stderr) < 300


@pytest.mark.parametrize(
    "option", [["-o", "{log}"], ["--report", "json={log}"], ["--write-baseline", "{link}"]]
)
def test_a_report_over_an_input_log_is_refused(tmp_path: Path, option: list[str]) -> None:
    log, link = tmp_path / "server.log", tmp_path / "link.log"
    log.write_bytes(seed_core())
    link.symlink_to(log)
    args = [o.format(log=log, link=link) for o in option]
    proc = spectrace("triage", str(tmp_path), *args)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().endswith("is an input log; write the report to another file")
    assert log.read_bytes() == seed_core()  # the evidence is intact


@pytest.mark.parametrize("command", ["triage", "tui"])
@pytest.mark.parametrize(
    ("marker", "words"),
    [
        (b"spec \x9b2J off", "not valid UTF-8"),  # was a UnicodeEncodeError traceback
        (b"Dynamic speculation\ndisable enabled", "cannot hold a line break"),
    ],
    ids=["not-utf8", "newline"],
)
def test_an_expect_marker_no_log_line_can_hold_is_one_line(
    tmp_path: Path, command: str, marker: bytes, words: str
) -> None:
    log = tmp_path / "server.log"
    log.write_bytes(seed_core())
    argv = [sys.executable.encode(), b"-m", b"spectrace", command.encode(), bytes(log)]
    proc = subprocess.run(
        [*argv, b"--expect", marker], capture_output=True, timeout=120, check=False
    )
    err = proc.stderr.decode()
    assert proc.returncode == 2 and "Traceback" not in err and len(err.splitlines()) == 1
    assert err.startswith("spectrace: error: --expect '") and words in err
