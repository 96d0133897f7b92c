"""Every file of a directory is read by content whatever its name (issue 18 item 7); a file
that is not read is named with why in every report format, and one that may hold a log we
could not read fails the run: a CI must not say OK over a log nobody read."""

from __future__ import annotations

import gzip
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from test_hostile_inputs import seed_core

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
FORMATS = ["text", "json", "junit", "sarif", "github", "markdown"]


def triage(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spectrace", "triage", *args],
                          capture_output=True, text=True, timeout=300)  # fmt: skip


@pytest.mark.parametrize("name", ["job.stdout", "job.stderr", "run.out", "notes.txt", "output"])
def test_a_crash_in_a_file_of_any_name_beside_a_healthy_log_fails(tmp_path: Path, name: str) -> None:
    (tmp_path / "healthy.log").write_bytes((SAMPLES / "benign_only" / "server.log").read_bytes())
    (tmp_path / name).write_bytes(seed_core())
    proc = triage(str(tmp_path), "--format", "json")
    assert proc.returncode == 1, proc.stderr
    assert "The size of tensor a (160)" in proc.stdout and name in proc.stdout


@pytest.fixture
def skipping_dir(tmp_path: Path) -> Path:
    (tmp_path / "server.log").write_bytes((SAMPLES / "benign_only" / "server.log").read_bytes())
    (tmp_path / "weights.bin").write_bytes(b"".join(struct.pack("<i", i * 7) for i in range(50_000)))
    return tmp_path


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_binary_file_is_named_with_why_in_every_format_and_passes(
    skipping_dir: Path, fmt: str
) -> None:
    proc = triage(str(skipping_dir), "--format", fmt)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "weights.bin: not read: binary file, not a text log" in proc.stdout


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_log_that_could_not_be_read_fails_the_run_in_every_format(
    skipping_dir: Path, fmt: str
) -> None:
    (skipping_dir / "rotated.log.gz").write_bytes(gzip.compress(seed_core())[:40])
    proc = triage(str(skipping_dir), "--format", fmt)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "rotated.log.gz: not read: truncated or damaged gzip" in proc.stdout
    assert "OK" not in proc.stderr.split("\n")[-1]


def test_data_and_source_beside_the_logs_are_not_read(tmp_path: Path) -> None:
    """expected.json, events.jsonl, README.md: a report or notes quoting a crash are no log."""
    (tmp_path / "server.log").write_bytes((SAMPLES / "benign_only" / "server.log").read_bytes())
    for name in ("expected.json", "events.jsonl", "README.md", "make.py"):
        (tmp_path / name).write_bytes(seed_core())
    proc = triage(str(tmp_path))
    assert proc.returncode == 0, proc.stdout
