"""CI policy on an analysis: baselines (known signatures), --fail-on, findings, exit codes."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from pathlib import Path

from spectrace import pipeline
from spectrace.errors import InputError, UsageError
from spectrace.incidents import SIGNATURE_VERSION, Incident, mask_message
from spectrace.inputs import Skipped, expand, skip_findings, usable
from spectrace.pipeline import Analysis, Finding
from spectrace.redact import redact_text
from spectrace.ruleset import RuleSet
from spectrace.textsafe import inert

BASELINE_FORMAT = 1
_SIGNATURE = re.compile(r"^[0-9a-f]{16}$")


class ExitCode(IntEnum):
    OK = 0  # nothing new that the policy counts
    FAILED = 1  # at least one new root-cause incident (or what --fail-on names)
    # 2 (bad usage, unreadable input) is the CLI's, for any SpectraceError: cli.EXIT_USAGE


class FailOn(StrEnum):
    ROOT_CAUSE = "root-cause"
    ANY = "any"
    SEVERITY_ERROR = "severity:error"
    SEVERITY_FATAL = "severity:fatal"
    MISSING_MARKER = "missing-marker"


DEFAULT_FAIL_ON = frozenset({FailOn.ROOT_CAUSE, FailOn.MISSING_MARKER})
FAILING_FINDINGS = {
    FailOn.MISSING_MARKER: {"missing_marker"},
    FailOn.ANY: {"missing_marker", "hang"},
}


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the run fails on, and why, in words a CI log reader understands."""

    exit_code: ExitCode
    fail_on: tuple[FailOn, ...]
    failing_incidents: tuple[str, ...]  # incident ids
    failing_findings: tuple[int, ...]  # indexes into Analysis.findings
    reasons: tuple[str, ...]


def parse_fail_on(values: Sequence[str]) -> frozenset[FailOn]:
    """``--fail-on`` values (repeatable, comma-separated allowed); none given = the default."""
    chosen: set[FailOn] = set()
    for value in (v.strip() for raw in values for v in raw.split(",")):
        try:
            chosen.add(FailOn(value.lower()))
        except ValueError:
            allowed = ", ".join(f.value for f in FailOn)
            raise UsageError(
                f"--fail-on: unknown value {value!r} (choose from {allowed})"
            ) from None
    return frozenset(chosen) or DEFAULT_FAIL_ON


def _incident_fails(incident: Incident, fail_on: frozenset[FailOn]) -> bool:
    if incident.known:
        return False
    checks = {
        FailOn.ROOT_CAUSE: incident.root_cause,
        FailOn.ANY: True,
        FailOn.SEVERITY_ERROR: incident.severity in ("error", "fatal"),
        FailOn.SEVERITY_FATAL: incident.severity == "fatal",
    }
    return any(checks.get(rule, False) for rule in fail_on)


ALWAYS_FAILING = {"unread_input"}  # a log that was not read may hold the crash: never OK


def _finding_fails(finding: Finding, fail_on: frozenset[FailOn]) -> bool:
    return finding.kind in ALWAYS_FAILING or any(finding.kind in FAILING_FINDINGS.get(rule, ()) for rule in fail_on)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def judge(analysis: Analysis, fail_on: frozenset[FailOn] = DEFAULT_FAIL_ON) -> Verdict:
    """Decide the exit code: incidents already marked known never fail the run."""
    incidents = tuple(i.id for i in analysis.incidents if _incident_fails(i, fail_on))
    findings = tuple(n for n, f in enumerate(analysis.findings) if _finding_fails(f, fail_on))
    reasons = []
    if incidents:
        failing = set(incidents)  # a set: 20,000 incidents took seconds as a tuple scan
        roots = sum(1 for i in analysis.incidents if i.id in failing and i.root_cause)
        reasons.append(
            f"{_plural(len(incidents), 'new incident')} ({roots} root cause)"
            if len(incidents) != roots
            else _plural(roots, "new root-cause incident")
        )
    kinds = Counter(analysis.findings[n].kind for n in findings)
    for kind in sorted(kinds):
        reasons.append(_plural(kinds[kind], kind.replace("_", " ")))
    code = ExitCode.FAILED if incidents or findings else ExitCode.OK
    order = tuple(f for f in FailOn if f in fail_on)
    return Verdict(code, order, incidents, findings, tuple(reasons))


def apply_baseline(incidents: Iterable[Incident], signatures: frozenset[str]) -> int:
    """Mark incidents whose signature was accepted before; returns how many."""
    count = 0
    for incident in incidents:
        incident.known = incident.signature in signatures
        count += incident.known
    return count


def _check_versions(data: dict[str, object], path: Path) -> None:
    """A baseline from a newer spectrace, or signatures of another version, would match nothing."""
    fmt, version = data.get("spectrace_baseline"), data.get("signature_version")
    if isinstance(fmt, int) and fmt > BASELINE_FORMAT:
        raise InputError(f"{path}: baseline format {fmt} is newer than this spectrace reads "
                         f"({BASELINE_FORMAT}); upgrade spectrace")  # fmt: skip
    if version is not None and str(version) != SIGNATURE_VERSION:
        raise InputError(
            f"{path}: signatures of version {inert(str(version))[:20]} cannot match this "
            f"spectrace's (version {SIGNATURE_VERSION}); write the baseline again (--write-baseline)"
        )


def _signatures_from_json(data: object, path: Path) -> frozenset[str]:
    """A baseline file (``signatures``) or a previous JSON report (``incidents``)."""
    if isinstance(data, dict):
        _check_versions(data, path)
    if isinstance(data, dict) and isinstance(data.get("signatures"), list):
        items = data["signatures"]
    elif isinstance(data, dict) and isinstance(data.get("incidents"), list):
        items = data["incidents"]
    else:
        raise InputError(f"{path}: not a spectrace baseline or JSON report")
    found = [i.get("signature") if isinstance(i, dict) else i for i in items]
    bad = [s for s in found if not isinstance(s, str) or not _SIGNATURE.match(s)]
    if bad:
        raise InputError(f"{path}: malformed signature {inert(repr(bad[0]))[:60]} in baseline")
    return frozenset(s for s in found if isinstance(s, str))


def read_baseline(path: Path) -> frozenset[str]:
    """Accepted signatures from JSON (baseline or report) or a text file, one per line."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(
            f"cannot read baseline {path}: {getattr(exc, 'strerror', None) or exc}"
        ) from None
    if text.lstrip().startswith(("{", "[")):
        try:
            return _signatures_from_json(json.loads(text), path)
        except json.JSONDecodeError as exc:
            raise InputError(
                f"{path}: malformed baseline JSON (line {exc.lineno}: {exc.msg})"
            ) from None
        except RecursionError:
            raise InputError(f"{path}: baseline JSON nested too deeply") from None
    lines = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    bad = [line for line in lines if line and not _SIGNATURE.match(line)]
    if bad:
        raise InputError(f"{path}: malformed baseline line {bad[0][:40]!r}")
    return frozenset(line for line in lines if line)


def baseline_document(incidents: Sequence[Incident]) -> dict[str, object]:
    """The ``--write-baseline`` file: each accepted signature with what it stands for."""
    entries = {
        i.signature: {
            "signature": i.signature,
            "exception_type": i.exception_type,
            "message": redact_text(mask_message(i.message)),
            "first_seen": f"{i.first_seen.source}:{i.first_seen.lineno}",
        }
        for i in incidents
    }
    return {
        "spectrace_baseline": BASELINE_FORMAT,
        "signature_version": SIGNATURE_VERSION,
        "signatures": sorted(entries.values(), key=lambda e: e["signature"]),
    }


def write_baseline(path: Path, incidents: Sequence[Incident]) -> None:
    try:
        path.write_text(json.dumps(baseline_document(incidents), indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot write baseline {path}: {exc.strerror or exc}") from None


def analyse_paths(
    paths: Sequence[str],
    rule_dirs: Sequence[Path] = (),
    expect: Sequence[str] = (),
    on_progress: Callable[[int, int], None] | None = None,
    warn: Callable[[str], None] = lambda _: None,
    mapper: pipeline.Mapper | None = None,
    explain: bool = False,
) -> Analysis:
    """Inputs expanded and checked, built-in rules layered with ``--rules`` dirs, the pipeline
    run: what triage and diff share. ``mapper`` scans in other processes (--jobs, --ray);
    ``explain``: each worker path carries its readers' findings (``--explain-path``)."""
    skipped: list[Skipped] = []
    inputs = usable(expand(paths), warn, skipped)
    rules = RuleSet.load(list(rule_dirs))
    analysis = pipeline.analyse(
        inputs, rules=rules, expect=list(expect), on_progress=on_progress, mapper=mapper,
        explain=explain,
    )
    analysis.findings.extend(skip_findings(skipped))
    return analysis
