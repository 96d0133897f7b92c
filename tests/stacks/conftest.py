"""Fixtures for the stacks tests: may we attach here, and one hung SGLang-titled tree per module."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest
from stacks_helpers import HungServer, attach_or_denied, start_hung, stop

from spectrace.stacks.capture import find_pyspy


@pytest.fixture(scope="session")
def live() -> None:
    """Live captures need ptrace. Where the kernel denies it (Yama ptrace_scope, no
    CAP_SYS_PTRACE) the user-facing error is checked for real, then live tests are skipped."""
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        probe = subprocess.run(
            [find_pyspy(), "dump", "--pid", str(sleeper.pid)], capture_output=True, timeout=30
        )
        if probe.returncode != 0 and not attach_or_denied(sleeper.pid):
            pytest.skip(
                "ptrace is not permitted here; the one-line ptrace error was verified instead"
            )
    finally:
        sleeper.kill()
        sleeper.wait()


@pytest.fixture(scope="module")
def hung_sglang(live: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[HungServer]:
    """4 ranks titled sglang::scheduler_TPn; TP2 spins in verify, the others wait in all_reduce."""
    server = start_hung(
        tmp_path_factory.mktemp("hung"), "--world", "4", "--stuck", "2", "--mode", "spin"
    )
    yield server
    stop(server.proc)
