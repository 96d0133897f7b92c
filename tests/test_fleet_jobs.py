"""``triage --jobs N``: the per-file scan in N processes gives the report one process gives."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from fleet_logs import make_fleet, spectrace_exe

from spectrace import parallel, pipeline
from spectrace.fleet import tasks
from spectrace.fleet.local import ProcessMapper
from spectrace.ruleset import RuleSet


def triage(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([spectrace_exe(), "triage", *args], capture_output=True, text=True,
                          input=stdin, timeout=300)  # fmt: skip


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Twelve node directories of ~100 KB each: 3 origin crashes, collateral on the others."""
    return make_fleet(tmp_path_factory.mktemp("fleet"), nodes=12, size_mb=0.1)


def test_jobs_gives_the_same_json_byte_for_byte(fleet: Path) -> None:
    one = triage(str(fleet), "--format", "json")
    two = triage(str(fleet), "--format", "json", "--jobs", "2")
    three = triage(str(fleet), "--format", "json", "-j", "3")
    assert one.returncode == two.returncode == three.returncode == 1  # new root causes
    assert '"exception_type": "RuntimeError"' in one.stdout
    assert one.stdout == two.stdout == three.stdout


def test_stdin_beside_files_is_read_by_the_driver(fleet: Path) -> None:
    log = (fleet / "node00/server.log").read_text()
    one = triage("-", str(fleet / "node05"), "--format", "json", stdin=log)
    two = triage("-", str(fleet / "node05"), "--format", "json", "--jobs", "2", stdin=log)
    assert one.returncode == two.returncode == 1
    assert one.stdout == two.stdout
    assert '"file": "-"' in two.stdout or '"file": "<stdin>"' in two.stdout


def test_bad_jobs_is_one_line_and_exit_2(fleet: Path) -> None:
    done = triage(str(fleet), "--jobs", "0")
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "--jobs" in done.stderr


def test_big_files_split_into_ranges_merge_as_one_scan(
    fleet: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file over the split size becomes several range tasks; merged, it reads as one scan."""
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 16 * 1024)
    monkeypatch.setattr(tasks, "PARALLEL_MIN_BYTES", 16 * 1024)
    paths = [str(p) for p in sorted(fleet.rglob("server.log"))[:4]]
    planned = tasks.plan_tasks(paths, 3)
    assert [len(t) for t in planned] == [3, 3, 3, 3]  # ~100 KB each: 16 KB ranges allowed
    rules = RuleSet.load()
    whole = pipeline.analyse(paths, rules=rules)
    mapped = pipeline.analyse(paths, rules=rules, mapper=ProcessMapper(3))

    def seen(a: pipeline.Analysis) -> list[tuple[object, ...]]:
        return [(i.signature, i.first_seen.source, i.first_seen.lineno, len(i.occurrences))
                for i in a.incidents]  # fmt: skip

    assert seen(mapped) == seen(whole) and len(seen(whole)) == 2
    assert [(f.path, f.lines, f.bytes) for f in mapped.files] == [
        (f.path, f.lines, f.bytes) for f in whole.files
    ]
