"""Damaged and hostile inputs: handled gracefully, and the crash after the damage is kept."""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from spectrace.errors import InputError, SpectraceError
from spectrace.pipeline import Analysis, analyse

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
SHAPE = "The size of tensor a (160) must match the size of tensor b (2)"


def seed_core() -> bytes:
    """The seed story's config lines, last decode lines, the TP7/TP3 tracebacks and SIGQUIT."""
    lines = (SAMPLES / "seed_story" / "server.log").read_bytes().split(b"\n")
    crash = next(i for i, line in enumerate(lines) if b"Scheduler hit an exception" in line)
    return b"\n".join(lines[:4] + lines[crash - 30 :])


def write(tmp_path: Path, data: bytes, name: str = "server.log") -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def assert_seed_crash(result: Analysis) -> None:
    """The seed crash is found whole: type, message, origin TP7 and both ranks, worker path v1."""
    roots = [i for i in result.incidents if i.root_cause]
    summary = [(i.exception_type, i.message[:60], i.origin_rank, i.ranks) for i in result.incidents]
    assert len(roots) == 1, summary
    inc = roots[0]
    assert (inc.exception_type, inc.origin_rank, inc.ranks) == (
        "RuntimeError",
        "TP7",
        ["TP7", "TP3"],
    ), summary
    assert SHAPE in inc.message
    assert inc.worker_path is not None and inc.worker_path.value == "v1"


def test_binary_junk_before_and_after_keeps_the_crash(tmp_path: Path) -> None:
    junk = bytes(range(256)) * 64 + b"\x89PNG\r\n\x1a\n" + bytes(reversed(range(256))) * 16
    assert_seed_crash(analyse([write(tmp_path, junk + b"\n" + seed_core() + junk)]))


def test_broken_utf8_inside_lines_keeps_the_crash(tmp_path: Path) -> None:
    data = (
        seed_core()
        .replace(b"cuda graph: True", b"cuda graph: True \xc3\x28 \xed\xa0\x80")
        .replace(b".copy_(forward_batch.input_ids)", b".copy_(forward_batch.input_ids)  # \xff\xfe")
    )
    result = analyse([write(tmp_path, b"\xc0\xaf\xe2\x82\n" + data)])
    assert_seed_crash(result)
    assert result.incidents[0].load is not None and result.incidents[0].load.running_req == 10


def test_latin1_bytes_in_a_frame_line_keep_the_crash(tmp_path: Path) -> None:
    data = seed_core().replace(
        b"/usr/local/lib/python3.12/dist-packages/torch",
        b"/home/j\xf6rg/venv/lib/python3.12/site-packages/torch",
    )
    assert_seed_crash(analyse([write(tmp_path, data)]))


def test_ansi_cursor_and_title_sequences_keep_the_crash(tmp_path: Path) -> None:
    lines = seed_core().split(b"\n")
    decorated = [
        b"\x1b]0;sglang-server\x07\x1b[2K\r\x1b[1;31m" + line + b"\x1b[0m" if i % 3 == 0 else line
        for i, line in enumerate(lines)
    ]
    assert_seed_crash(analyse([write(tmp_path, b"\n".join(decorated))]))


def test_nul_bytes_and_a_nul_block_keep_the_crash(tmp_path: Path) -> None:
    """A file preallocated and cut by a power loss holds runs of NUL bytes before new output."""
    data = seed_core()
    head, tail = (
        data[: data.index(b"[2026-02-27 21:00:16 TP0]")],
        data[data.index(b"[2026-02-27 21:00:16 TP0]") :],
    )
    damaged = head.replace(b"token usage", b"token\x00usage") + b"\x00" * 65536 + b"\n" + tail
    assert_seed_crash(analyse([write(tmp_path, damaged)]))


def test_empty_file_has_no_incidents(tmp_path: Path) -> None:
    result = analyse([write(tmp_path, b"")])
    assert result.incidents == []
    assert result.files[0].lines == 0


def test_file_of_only_newlines_and_crs_has_no_incidents(tmp_path: Path) -> None:
    assert analyse([write(tmp_path, b"\n\r\n\r\r" * 10000)]).incidents == []


def test_missing_file_is_one_named_input_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope.log"
    with pytest.raises(InputError) as err:
        analyse([str(missing)])
    assert "nope.log" in str(err.value) and "\n" not in str(err.value)


def test_missing_file_next_to_a_good_one_is_still_an_error(tmp_path: Path) -> None:
    good = write(tmp_path, seed_core())
    with pytest.raises(SpectraceError):
        analyse([good, str(tmp_path / "rank1.log")])


def test_missing_file_at_the_cli_prints_one_line_and_exits_2(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "spectrace", "triage", str(tmp_path / "nope.log")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "nope.log" in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


def test_truncated_gzip_keeps_the_crash_before_the_cut_and_says_so(tmp_path: Path) -> None:
    noise = b"\n".join(
        b'[2026-02-27 21:00:19] INFO:     127.0.0.1:%d - "GET /health HTTP/1.1" 200 OK' % i
        for i in range(20000)
    )
    packed = gzip.compress(seed_core() + b"\n" + noise + b"\n", mtime=0)
    result = analyse([write(tmp_path, packed[: len(packed) - len(packed) // 3], "server.log.gz")])
    assert_seed_crash(result)
    issues = [issue for f in result.files for issue in f.issues]
    assert any("gzip" in issue for issue in issues), issues


def test_a_crash_after_a_damaged_gzip_member_is_still_found(tmp_path: Path) -> None:
    noise = b"\n".join(
        b'[2026-02-27 20:59:%02d] INFO:     127.0.0.1:%d - "GET /health HTTP/1.1" 200 OK'
        % (i % 60, i)
        for i in range(20000)
    )
    damaged = bytearray(gzip.compress(noise + b"\n", mtime=0))
    damaged[len(damaged) // 2 : len(damaged) // 2 + 64] = b"\xff" * 64
    packed = bytes(damaged) + gzip.compress(seed_core() + b"\n", mtime=0)
    result = analyse([write(tmp_path, packed, "server.log.gz")])
    assert_seed_crash(result)
    issues = [issue for f in result.files for issue in f.issues]
    assert any("skipped to the next member" in issue for issue in issues), issues


def test_gzip_header_only_is_graceful(tmp_path: Path) -> None:
    result = analyse([write(tmp_path, gzip.compress(b"hello\n")[:12], "server.log.gz")])
    assert result.incidents == []


def test_directory_without_logs_is_an_input_error(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError):
        analyse([str(tmp_path / "empty")])


MEASURE = """
import json, resource, sys
from spectrace.pipeline import analyse
result = analyse([sys.argv[1]])
print(json.dumps({
    "rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    "incidents": [[i.exception_type, i.origin_rank, i.root_cause] for i in result.incidents],
    "issues": [issue for f in result.files for issue in f.issues],
}))
"""


def measure(path: Path) -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", MEASURE, str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return json.loads(proc.stdout)


def write_100_mb(path: Path, one_line: bool) -> None:
    """100 MiB before the seed crash: as one line, or as ordinary 64-byte lines (the baseline)."""
    piece = b"0123456789abcdef" * 4 if one_line else b"0123456789abcdef" * 3 + b"0123456789abcde\n"
    chunk = piece * 16384  # 1 MiB
    with path.open("wb") as fh:
        fh.write(b"[2026-02-27 20:59:59 TP0] Finish: obj=GenerateReqInput(text='")
        for _ in range(100):
            fh.write(chunk)
        fh.write(b"')\n" + seed_core())


def test_a_100_mb_line_before_the_crash_keeps_memory_flat_and_the_crash(tmp_path: Path) -> None:
    """Peak memory for one 100 MB line stays near that of the same bytes as short lines.

    Two 4 MiB read buffers and their helpers fit well under 32 MB; holding the line (or half
    of it, as a readline() at a split point would) does not.
    """
    lines, line = tmp_path / "lines.log", tmp_path / "line.log"
    write_100_mb(lines, one_line=False)
    write_100_mb(line, one_line=True)
    base, huge = measure(lines), measure(line)
    assert huge["incidents"] == base["incidents"]
    assert ["RuntimeError", "TP7", True] in huge["incidents"]
    grown_mb = (huge["rss_kb"] - base["rss_kb"]) / 1024
    assert grown_mb < 32, f"peak RSS grew by {grown_mb:.0f} MB for a 100 MB line"
    assert any("longer than" in issue for issue in huge["issues"]), huge["issues"]


DECODE = (
    b"[2026-02-27 20:59:40 TP0] Decode batch, #running-req: 10, #token: 24563, token usage: 0.01, "
    b"accept len: 2.65, accept rate: 0.17, cuda graph: True, gen throughput (token/s): 344.56, #queue-req: 0\n"
)


def padding(size: int) -> bytes:
    """About ``size`` bytes of whole decode lines, then filler up to exactly ``size``."""
    whole = DECODE * (size // len(DECODE))
    rest = size - len(whole)
    return whole + (b"#" * (rest - 1) + b"\n" if rest else b"")


@pytest.mark.parametrize("before", [0, 1, 40, 200, 2000])
def test_a_traceback_across_the_read_block_boundary_is_found_whole(
    tmp_path: Path, before: int
) -> None:
    """The crash starts ``before`` bytes ahead of the reader's 4 MiB block edge."""
    core = seed_core()
    crash = core.index(b"[2026-02-27 21:00:18 TP7]")
    head = padding(4 * 1024 * 1024 - before - crash)
    assert_seed_crash(analyse([write(tmp_path, head + core)]))


def test_a_traceback_across_the_parallel_split_point_is_found_once(tmp_path: Path) -> None:
    """A file big enough to be scanned by two workers, cut in the middle of the TP7 traceback."""
    core = seed_core()
    middle = core.index(b"  File", core.index(b"[2026-02-27 21:00:18 TP7]")) + 500
    half = 50 * 1024 * 1024
    path = tmp_path / "big.log"
    with path.open("wb") as fh:
        fh.write(padding(half - middle))
        fh.write(core)
        fh.write(padding(half - (len(core) - middle)))
    assert_seed_crash(analyse([str(path)]))


def test_a_gzip_traceback_across_the_block_boundary_is_found_whole(tmp_path: Path) -> None:
    core = seed_core()
    head = padding(4 * 1024 * 1024 - 40 - core.index(b"[2026-02-27 21:00:18 TP7]"))
    packed = gzip.compress(head + core, compresslevel=1, mtime=0)
    assert_seed_crash(analyse([write(tmp_path, packed, "server.log.gz")]))


@pytest.mark.parametrize("packed", [False, True])
def test_stdin_plain_or_gzip_with_junk_in_front_finds_the_crash(packed: bool) -> None:
    """`... | spectrace triage -`: junk then the log, plain or gzip-compressed, on stdin."""
    data = b"\x00\xff\xfe junk from a previous container\n" + seed_core()
    proc = subprocess.run(
        [sys.executable, "-m", "spectrace", "triage", "-"],
        input=gzip.compress(data, mtime=0) if packed else data,
        capture_output=True, timeout=120,
    )  # fmt: skip
    out = proc.stdout.decode()
    assert proc.returncode == 1, proc.stderr.decode()
    assert SHAPE in out and "origin TP7 (also TP3)" in out
    assert b"Traceback" not in proc.stderr


def test_year_less_vllm_stamps_across_new_year_keep_the_root_first(tmp_path: Path) -> None:
    """vLLM stamps have no year: workers fail at 12-31 23:59:59, the engine core at 01-01."""
    lines = (SAMPLES / "vllm_enginecore" / "vllm_serve.log").read_text().split("\n")
    crash = next(i for i, line in enumerate(lines) if "WorkerProc hit an exception" in line)
    moved = [
        line.replace("10-17 ", "12-31 " if i < crash or "(Worker_TP" in line else "01-01 ")
        for i, line in enumerate(lines)
    ]
    moved = [  # after the crash: workers at the last second of the year, the rest just after
        line if i < crash else re.sub(r"(12-31|01-01) \d\d:\d\d:\d\d", lambda m: m[1] + (" 23:59:59" if m[1] == "12-31" else " 00:00:01"), line)
        for i, line in enumerate(moved)
    ]  # fmt: skip
    result = analyse([write(tmp_path, "\n".join(moved).encode(), "vllm.log")])
    first = result.incidents[0]
    assert (
        first.root_cause and first.exception_type == "RuntimeError" and "shape" in first.message
    ), [(i.id, i.exception_type, i.first_seen.lineno) for i in result.incidents]


def test_a_traceback_quoted_inside_a_request_log_line_is_not_a_crash(tmp_path: Path) -> None:
    """--log-requests prints prompts on one line (repr); a user asking about a crash quotes one."""
    prompt = (
        "Why does this fail?\nTraceback (most recent call last):\n"
        '  File "serve.py", line 3, in <module>\n'
        "RuntimeError: The size of tensor a (7) must match the size of tensor b (3)"
    )
    line = (
        f"[2026-02-27 20:59:41] Receive: obj=GenerateReqInput(rid='9f1c2b7e', text={prompt!r}, "
        "sampling_params={'max_new_tokens': 256}, stream=False)"
    )
    core = seed_core()
    cut = core.index(b"[2026-02-27 21:00:16 TP0]")
    assert_seed_crash(analyse([write(tmp_path, core[:cut] + line.encode() + b"\n" + core[cut:])]))


def ctrl_c_shutdown() -> bytes:
    """A healthy run stopped with Ctrl-C: uvicorn shuts down, both schedulers print
    multiprocessing's 'Process SpawnProcess-N:' and a bare KeyboardInterrupt traceback."""
    lines = (SAMPLES / "benign_only" / "server.log").read_text().splitlines()[-50:]
    for text in (
        "Shutting down",
        "Waiting for application shutdown.",
        "Application shutdown complete.",
        "Finished server process [30170]",
    ):
        lines.append(f"[2026-03-05 16:30:00] INFO:     {text}")
    site = "/usr/local/lib/python3.12/dist-packages"
    for n in (2, 3):
        lines += [
            f"Process SpawnProcess-{n}:",
            "Traceback (most recent call last):",
            '  File "/usr/lib/python3.12/multiprocessing/process.py", line 314, in _bootstrap',
            "    self.run()",
            '  File "/usr/lib/python3.12/multiprocessing/process.py", line 108, in run',
            "    self._target(*self._args, **self._kwargs)",
            f'  File "{site}/sglang/srt/managers/scheduler.py", line 2703, in run_scheduler_process',
            "    scheduler.event_loop_normal()",
            f'  File "{site}/sglang/srt/managers/scheduler.py", line 998, in event_loop_normal',
            "    recv_reqs = self.recv_requests()",
            f'  File "{site}/zmq/sugar/socket.py", line 812, in recv_pyobj',
            "    msg = self.recv(flags)",
            "KeyboardInterrupt",
        ]
    return ("\n".join(lines) + "\n").encode()  # fmt: skip


def test_identical_bare_keyboardinterrupts_are_one_incident(tmp_path: Path) -> None:
    """'Process SpawnProcess-3:' after a bare exception line is the next record, not message."""
    result = analyse([write(tmp_path, ctrl_c_shutdown())])
    found = [(i.exception_type, i.message) for i in result.incidents]
    assert found == [("KeyboardInterrupt", "")], found


def test_a_ctrl_c_shutdown_is_not_a_root_cause_crash(tmp_path: Path) -> None:
    """Stopping a server by hand is not the crash a user is looking for."""
    result = analyse([write(tmp_path, ctrl_c_shutdown())])
    roots = [
        (i.exception_type, i.severity)
        for i in result.incidents
        if i.root_cause and i.severity != "warning"
    ]
    assert roots == [], roots
