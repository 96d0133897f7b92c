"""Each way a live capture can fail gives one line on stderr and exit 2, tried on real processes."""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from stacks_helpers import spectrace

NON_DUMPABLE_SLEEPER = "import ctypes, time; ctypes.CDLL(None).prctl(4, 0, 0, 0, 0); time.sleep(60)"


@pytest.fixture
def sleeper(request: pytest.FixtureRequest) -> Iterator[subprocess.Popen[bytes]]:
    """A real process to aim at: argv from the test's parametrisation."""
    proc = subprocess.Popen(request.param)
    yield proc
    proc.kill()
    proc.wait()


def _one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("spectrace: error: "), result.stderr
    return lines[0]


def test_pid_that_does_not_exist() -> None:
    line = _one_error_line(spectrace("stacks", "4194303"))
    assert line == "spectrace: error: no process with PID 4194303"


@pytest.mark.parametrize("sleeper", [["sleep", "30"]], indirect=True)
def test_process_that_is_not_python(sleeper: subprocess.Popen[bytes]) -> None:
    line = _one_error_line(spectrace("stacks", str(sleeper.pid)))
    assert line.endswith(f"PID {sleeper.pid} is not a Python process")


@pytest.fixture
def fake_future_python(tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A binary named python3.99: what py-spy meets when CPython is newer than it knows."""
    binary = tmp_path / "python3.99"
    shutil.copy(shutil.which("sleep") or "/bin/sleep", binary)
    proc = subprocess.Popen([str(binary), "30"])
    yield proc
    proc.kill()
    proc.wait()


def test_python_version_py_spy_cannot_read(fake_future_python: subprocess.Popen[bytes]) -> None:
    line = _one_error_line(spectrace("stacks", str(fake_future_python.pid)))
    assert "py-spy cannot read Python 3.99" in line and "pip install -U py-spy" in line


@pytest.mark.parametrize("sleeper", [[sys.executable, "-c", NON_DUMPABLE_SLEEPER]], indirect=True)
def test_ptrace_denied_names_the_missing_capability(sleeper: subprocess.Popen[bytes]) -> None:
    """spectrace without CAP_SYS_PTRACE against a non-dumpable process: the kernel says no.
    As root the capability is dropped with util-linux setpriv; a normal user lacks it anyway."""
    drop = (
        ["setpriv", "--bounding-set=-sys_ptrace", "--inh-caps=-sys_ptrace"]
        if os.geteuid() == 0
        else []
    )
    result = subprocess.run(
        [*drop, sys.executable, "-m", "spectrace", "stacks", str(sleeper.pid)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    line = _one_error_line(result)
    assert f"cannot attach to PID {sleeper.pid}: ptrace permission denied" in line
    assert "this process lacks CAP_SYS_PTRACE" in line and "--cap-add SYS_PTRACE" in line


@pytest.mark.parametrize(
    "sleeper", [[sys.executable, "-c", "import time; time.sleep(30)"]], indirect=True
)
def test_py_spy_missing(sleeper: subprocess.Popen[bytes], tmp_path: Path) -> None:
    """The base interpreter (no py-spy in its scripts dir) with a PATH that has none either."""
    base = Path(sys.base_prefix) / "bin" / "python3"
    assert not (base.parent / "py-spy").exists()
    boot = (  # the venv's packages (and its .pth files: the editable install) without its bin/
        f"import site, sys, runpy; [site.addsitedir(d) for d in {site.getsitepackages()!r}]; "
        "sys.argv = ['spectrace', *sys.argv[1:]]; runpy.run_module('spectrace', run_name='__main__')"
    )
    result = subprocess.run(
        [str(base), "-c", boot, "stacks", str(sleeper.pid)],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin"},
        cwd=tmp_path,
    )
    line = _one_error_line(result)
    assert (
        line
        == "spectrace: error: py-spy not found: install it with `pip install py-spy` (spectrace needs >= 0.3.14)"
    )


def test_bad_options_and_unreadable_capture(tmp_path: Path) -> None:
    assert "--watch needs --pid PID and --stall SECONDS" in _one_error_line(
        spectrace("stacks", "--watch", str(tmp_path / "x.log"))
    )
    bad = tmp_path / "capture.json"
    bad.write_text('{"format": "spectrace-stacks", "schema_version": 99}')
    assert "schema_version 99 is not supported" in _one_error_line(
        spectrace("stacks", "--load", str(bad))
    )
