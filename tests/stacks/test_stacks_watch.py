"""`spectrace stacks --watch`: a log that stops growing while the server lives triggers a capture."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from stacks_helpers import spectrace

# Writes SGLang decode lines for `chatty` seconds, then does what `then` says.
SERVER = """
import sys, time
def verify():
    time.sleep(60)
log, chatty, then = sys.argv[1], float(sys.argv[2]), sys.argv[3]
end = time.monotonic() + chatty
while time.monotonic() < end or then == "write":
    with open(log, "a") as fh:
        fh.write(time.strftime("[%Y-%m-%d %H:%M:%S TP0] ") + "Decode batch, #running-req: 10, #token: 8421, "
                 "token usage: 0.04, cuda graph: True, gen throughput (token/s): 1543.21, #queue-req: 0\\n")
    time.sleep(0.1)
if then == "hang":
    verify()
"""


@pytest.fixture
def server(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[tuple[subprocess.Popen[bytes], Path]]:
    chatty, then = request.param
    log, script = tmp_path / "server.log", tmp_path / "server.py"
    script.write_text(SERVER)  # a file, so the capture can show the source line of each frame
    proc = subprocess.Popen([sys.executable, str(script), str(log), str(chatty), then])
    yield proc, log
    proc.kill()
    proc.wait()


@pytest.mark.parametrize("server", [(1.0, "hang")], indirect=True)
def test_stall_after_writing_captures_the_stuck_frame(
    live: None,
    server: tuple[subprocess.Popen[bytes], Path],
) -> None:
    proc, log = server
    started = time.monotonic()
    result = spectrace(
        "stacks",
        "--watch",
        str(log),
        "--pid",
        str(proc.pid),
        "--stall",
        "1",
        "--samples",
        "1",
        "--no-threads",
        "--max-time",
        "20",
    )
    elapsed = time.monotonic() - started
    assert result.returncode == 1, result.stderr
    assert f"silent for 1.0s while PID {proc.pid} runs: captured its stacks" in result.stderr
    assert f"Verdict: pid {proc.pid} sleeps in `verify`" in result.stdout
    assert 1.8 <= elapsed < 10  # not while the log was growing (1 s), and soon after it stopped


@pytest.mark.parametrize("server", [(0.5, "exit")], indirect=True)
def test_process_exit_ends_the_watch_without_capture(
    server: tuple[subprocess.Popen[bytes], Path],
) -> None:
    proc, log = server
    result = spectrace(
        "stacks", "--watch", str(log), "--pid", str(proc.pid), "--stall", "5", "--max-time", "20"
    )
    assert result.returncode == 0 and result.stdout == ""
    assert "process exited after" in result.stderr and f"no stall of 5s in {log}" in result.stderr


@pytest.mark.parametrize("server", [(0, "write")], indirect=True)
def test_max_time_bounds_a_healthy_server(server: tuple[subprocess.Popen[bytes], Path]) -> None:
    proc, log = server
    started = time.monotonic()
    result = spectrace(
        "stacks", "--watch", str(log), "--pid", str(proc.pid), "--stall", "2", "--max-time", "1"
    )
    assert result.returncode == 0 and "--max-time reached" in result.stderr
    assert time.monotonic() - started < 8
