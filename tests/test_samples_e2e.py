"""Every sample_logs/<dir> through the whole pipeline, compared with its expected.json.

The schema of expected.json is described in sample_logs/README.md.
"""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from spectrace.incidents import Incident
from spectrace.pipeline import Analysis, analyse

SAMPLES_DIR = Path(__file__).resolve().parent.parent / "sample_logs"
SAMPLES = sorted(
    p.parent.name
    for p in SAMPLES_DIR.glob("*/expected.json")
    if {"inputs", "incidents"} <= json.loads(p.read_text()).keys()  # engine_* dirs may differ
)


@cache
def expected(name: str) -> dict:
    return json.loads((SAMPLES_DIR / name / "expected.json").read_text())


@cache
def analysis(name: str) -> Analysis:
    exp = expected(name)
    inputs = [str(SAMPLES_DIR / name / i) for i in exp["inputs"]]
    return analyse(inputs, expect=exp["expect"])


def identity_ok(entry: dict, inc: Incident) -> bool:
    """Whether an incident is the one an entry describes (type, message, root/collateral)."""
    if "exception_type" in entry and inc.exception_type != entry["exception_type"]:
        return False
    if entry["message_contains"] not in inc.message and not any(
        entry["message_contains"] in line for line in inc.lines
    ):
        return False
    return inc.root_cause == entry["root_cause"]


def detail_problems(entry: dict, inc: Incident) -> list[str]:
    """Field-by-field differences between an entry and its incident, as readable sentences."""
    got: dict[str, object] = {
        "origin_rank": inc.origin_rank,
        "ranks": inc.ranks,
        "first_line": inc.first_seen.lineno,
        "source": Path(inc.first_seen.source).name,
        "worker_path": inc.worker_path.value if inc.worker_path else None,
        "worker_class": inc.worker_path.worker_class if inc.worker_path else None,
        "shape": dict(inc.shape_mismatch.numbers) if inc.shape_mismatch else None,
        "load_running_req": inc.load.running_req if inc.load else None,
        "chain": [[link.exception_type, link.relation] for link in inc.chain] or None,
    }
    problems = [
        f"{key}: expected {entry[key]!r}, got {value!r}"
        for key, value in got.items()
        if key in entry and entry[key] != value
    ]
    if "first_line_any" in entry and got["first_line"] not in entry["first_line_any"]:
        problems.append(
            f"first_line: expected one of {entry['first_line_any']}, got {got['first_line']}"
        )
    problems += explanation_problems(entry.get("explanation"), inc)
    problems += evidence_problems(entry.get("evidence_lines"), inc)
    problems += flag_problems(entry.get("flags", {}), inc)
    return problems


def flag_problems(want: dict[str, object], inc: Incident) -> list[str]:
    """Each wanted flag is among the incident's decisive flags, with that value."""
    got = {name: flag.value for name, flag in inc.flags.items()}
    return [
        f"flags[{name!r}]: expected {value!r}, got {got.get(name, '<not shown>')!r}"
        for name, value in want.items()
        if name not in got or got[name] != value
    ]


def explanation_problems(want: dict | None, inc: Incident) -> list[str]:
    if want is None:
        return []
    exp = inc.explanation
    if exp is None:
        return [f"explanation: expected {want!r}, got None"]
    problems = []
    if exp.explained != want["explained"]:
        problems.append(
            f"explanation.explained: expected {want['explained']}, got {exp.explained} ({exp.summary!r})"
        )
    for key, value in want.get("facts", {}).items():
        if exp.facts.get(key) != value:
            problems.append(
                f"explanation.facts[{key!r}]: expected {value}, got {exp.facts.get(key)}"
            )
    missing = [t for t in want.get("terms", []) if t not in exp.terms]
    if missing:
        problems.append(f"explanation.terms: no term for {missing}, got {exp.terms!r}")
    return problems


def evidence_problems(lines: list[int | list[int]] | None, inc: Incident) -> list[str]:
    """Each wanted line (or one of a list of lines) must be among the worker-path evidence."""
    if not lines:
        return []
    have = {e.lineno for e in inc.worker_path.evidence} if inc.worker_path else set()
    missing = [n for n in lines if not (set(n) if isinstance(n, list) else {n}) & have]
    return [f"worker-path evidence lacks lines {missing} (has {sorted(have)})"] if missing else []


def describe(inc: Incident) -> str:
    role = "root" if inc.root_cause else f"collateral of {inc.caused_by}"
    return f"{inc.id} {inc.exception_type}: {inc.message[:80]!r} ({role}, line {inc.first_seen.lineno})"


@pytest.mark.parametrize("name", SAMPLES)
def test_incidents_match_expected(name: str) -> None:
    """Each expected incident is found with its details; nothing else is reported."""
    entries, incidents = expected(name)["incidents"], analysis(name).incidents
    matched: dict[int, list[Incident]] = {
        i: [inc for inc in incidents if identity_ok(e, inc)] for i, e in enumerate(entries)
    }
    problems = []
    for i, entry in enumerate(entries):
        found = matched[i]
        if not found:
            if not entry.get("optional"):
                problems.append(
                    f"entry {i} not found: {entry['message_contains']!r} (root_cause={entry['root_cause']})"
                )
            continue
        if "ranks_union" in entry:
            union = sorted({r for inc in found for r in inc.ranks})
            if union != sorted(entry["ranks_union"]):
                problems.append(
                    f"entry {i} ranks_union: expected {sorted(entry['ranks_union'])}, got {union}"
                )
        for inc in found:
            problems += [f"entry {i} ({describe(inc)}) {p}" for p in detail_problems(entry, inc)]
            cause = entry.get("caused_by")
            if cause is not None:
                want = {root.id for root in matched[cause]}
                if inc.caused_by not in want:
                    problems.append(
                        f"entry {i} ({describe(inc)}) caused_by: expected one of {sorted(want)}, got {inc.caused_by}"
                    )
    accounted = {id(inc) for found in matched.values() for inc in found}
    problems += [
        f"unexpected incident {describe(inc)}" for inc in incidents if id(inc) not in accounted
    ]
    assert not problems, f"{name}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("name", SAMPLES)
def test_root_cause_count(name: str) -> None:
    """The number of root-cause incidents is exactly what the story holds."""
    want = sum(1 for e in expected(name)["incidents"] if e["root_cause"] and not e.get("optional"))
    roots = [describe(i) for i in analysis(name).incidents if i.root_cause]
    assert len(roots) == want, f"{name}: expected {want} root incidents, got {roots}"


@pytest.mark.parametrize("name", SAMPLES)
def test_missing_markers(name: str) -> None:
    """An expected marker is reported missing exactly when the log never printed it."""
    exp = expected(name)
    findings = [f for f in analysis(name).findings if f.kind == "missing_marker"]
    reported = sorted(m for m in exp["expect"] if any(m in f.message for f in findings))
    assert reported == sorted(exp["missing_markers"]), f"{name}: {[f.message for f in findings]}"


@pytest.mark.parametrize("name", SAMPLES)
def test_config_flags(name: str) -> None:
    """The flags that decide the worker path are read with their final values."""
    want = expected(name).get("config", {})
    flags = analysis(name).config.flags
    got = {key: flags[key].value if key in flags else "<absent>" for key in want}
    assert got == want


def test_every_sample_dir_has_expected_json() -> None:
    """A sample without expectations would silently test nothing."""
    dirs = [
        p.name
        for p in SAMPLES_DIR.iterdir()
        if p.is_dir() and not p.name.startswith(("engine_", "__"))
    ]
    assert sorted(dirs) == [name for name in SAMPLES if not name.startswith("engine_")]


@pytest.mark.parametrize("name", SAMPLES)
def test_incident_ids_follow_first_occurrence(name: str) -> None:
    """Within one file, I1, I2, ... are numbered in the order the incidents first appear."""
    incidents = analysis(name).incidents
    for source in {inc.first_seen.source for inc in incidents}:
        same = [inc for inc in incidents if inc.first_seen.source == source]
        by_line = [inc.id for inc in sorted(same, key=lambda inc: inc.first_seen.lineno)]
        assert [inc.id for inc in same] == by_line, f"{name}: {[describe(i) for i in same]}"


def test_committed_samples_match_their_generator() -> None:
    """The logs are generated, never hand-edited: regenerating gives the same bytes."""
    proc = subprocess.run(
        [sys.executable, str(SAMPLES_DIR / "make_samples.py"), "--check"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
