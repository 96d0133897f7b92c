"""Round 2 against diff and stacks: names people can read, devices where files are meant."""

from __future__ import annotations

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
