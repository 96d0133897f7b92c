"""Runs the core's analysis for the TUI and turns any failure into a one-line reason."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from spectrace import pipeline
from spectrace.assemblers.config import RunConfig
from spectrace.assemblers.crash import Crash
from spectrace.errors import SpectraceError
from spectrace.pipeline import Analysis
from spectrace.ruleset import RuleSet
from spectrace.stacks.findings import stack_findings


def run(
    paths: Sequence[Path],
    expect: Sequence[str],
    on_crash: Callable[[Crash], None],
    stacks: tuple[Sequence[Path], Sequence[Path]] = ((), ()),
    rules: RuleSet | Callable[[RuleSet], None] = lambda _: None,
) -> Analysis | str:
    """The analysis (plus hang findings from ``stacks``: captures, flight dumps), or the reason
    it failed (shown in the app, never as a traceback). ``rules``: the rules to use, or a
    callback that receives the built-in rules once loaded here (off the app's start-up path)."""
    try:
        if not isinstance(rules, RuleSet):
            loaded = RuleSet.load()
            rules(loaded)
            rules = loaded
        analysis = (  # a capture or flight dumps alone: their hang findings, nothing to scan
            pipeline.analyse(
                [str(p) for p in paths], rules=rules, expect=list(expect), on_crash=on_crash
            )
            if paths
            else Analysis(files=[], incidents=[], findings=[], config=RunConfig())
        )
        captures, dumps = ([str(p) for p in group] for group in stacks)
        analysis.findings.extend(stack_findings(analysis, captures, dumps))
        return analysis
    except SpectraceError as exc:
        return str(exc)
    except Exception as exc:  # noqa: BLE001 - a core bug must not put a traceback on the screen
        return f"{type(exc).__name__}: {exc}"
