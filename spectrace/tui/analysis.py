"""Runs the core's analysis for the TUI in a process of its own, and turns any failure into a
one-line reason.

Why a process: in a thread of the app the scan shared one GIL with the line index and textual's
event loop, and on a 2-core box the three slowed one another down about threefold (512 MB: the
first crash 0.9 s after the first frame instead of 0.4 s, the whole analysis 2.6 s instead of
0.9 s). Started after the first frame, the child imports the core and scans on its own core; the
app keeps one thread that waits on the pipe (its GIL released) and posts what arrives.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spectrace.assemblers.crash import Crash
    from spectrace.pipeline import Analysis
    from spectrace.ruleset import RuleSet

Stacks = tuple[Sequence[Path], Sequence[Path]]
BATCH_S = 0.1  # crashes found after the first reach the app at most this often
ERRORS_TAIL = 4096  # bytes of a dead child's stderr read for its last line


def run(
    paths: Sequence[Path],
    expect: Sequence[str],
    on_crash: Callable[[Crash], None],
    stacks: Stacks,
    on_rules: Callable[[RuleSet], None],
    on_progress: Callable[[int, int], None] | None = None,
) -> Analysis | str:
    """The analysis (plus hang findings from ``stacks``: captures, flight dumps), or the reason
    it failed (shown in the app, never as a traceback). ``on_rules`` gets the built-in rules
    once loaded: their benign patterns dim noise in the log view."""
    from spectrace import pipeline
    from spectrace.assemblers.run_config import RunConfig
    from spectrace.errors import SpectraceError
    from spectrace.ruleset import RuleSet
    from spectrace.stacks.findings import stack_findings

    try:
        rules = RuleSet.load()
        on_rules(rules)
        analysis = (  # a capture or flight dumps alone: their hang findings, nothing to scan
            pipeline.analyse(
                [str(p) for p in paths],
                rules=rules,
                expect=list(expect),
                on_crash=on_crash,
                on_progress=on_progress,
            )  # fmt: skip
            if paths
            else pipeline.Analysis(files=[], incidents=[], findings=[], config=RunConfig())
        )
        captures, dumps = ([str(p) for p in group] for group in stacks)
        analysis.findings.extend(stack_findings(analysis, captures, dumps))
        return analysis
    except SpectraceError as exc:
        return str(exc)
    except Exception as exc:  # noqa: BLE001 - a core bug must not put a traceback on the screen
        return f"{type(exc).__name__}: {exc}"


class Apart:
    """One analysis in a child interpreter; ``wait`` relays its reports until the result comes.

    A fresh interpreter, not a fork: forked while another of the app's threads imports a module
    (the index imports numpy, a search hyperscan), the child would wait on that module's lock
    for ever. It costs ~30 ms more than a fork; the core's import (~0.2 s) is paid in both."""

    def __init__(self, paths: Sequence[Path], expect: Sequence[str], stacks: Stacks) -> None:
        import spectrace

        env = dict(os.environ)  # the child imports the same spectrace as the app, however found
        root = str(Path(spectrace.__file__).resolve().parents[1])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        self._errors = tempfile.TemporaryFile()  # its stderr: the app owns the terminal
        self._proc = subprocess.Popen(
            [sys.executable, "-m", __name__], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self._errors, env=env, start_new_session=True,  # no terminal signals
        )  # fmt: skip
        self._stopped = False
        assert self._proc.stdin is not None
        with self._proc.stdin as job:
            pickle.dump((list(paths), list(expect), stacks), job)

    def wait(
        self,
        on_crashes: Callable[[list[tuple[str, Crash]]], None],
        on_rules: Callable[[RuleSet], None],
    ) -> Analysis | str:
        """Relay crashes (in batches, each with its signature) and the loaded rules as they
        come; the analysis, or why there is none."""
        assert self._proc.stdout is not None
        try:
            with self._proc.stdout as reports:
                while True:
                    kind, value = pickle.load(reports)
                    if kind == "crashes":
                        on_crashes(value)
                    elif kind == "rules":
                        on_rules(value)
                    else:
                        return value  # type: ignore[no-any-return]
        except (EOFError, OSError, pickle.UnpicklingError):
            return "analysis stopped" if self._stopped else self._died()
        finally:
            self._errors.close()  # the child, done, exits by itself: stop() reaps it

    def _died(self) -> str:
        code = self._proc.wait()
        self._errors.seek(max(0, self._errors.seek(0, os.SEEK_END) - ERRORS_TAIL))
        said = [ln for ln in self._errors.read().decode("utf-8", "replace").splitlines() if ln]
        why = f": {said[-1]}" if said else ""
        return f"the analysis process ended without a result (exit code {code}){why}"

    def stop(self) -> None:
        """End the child now if it still runs (the app quits: ``wait`` returns), and reap it."""
        self._stopped = True
        if self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()


class _Batches:
    """Crashes on their way to the app: the first at once, then at most one batch each
    BATCH_S (a crash-dense log reports thousands; a message each would keep the app busy).
    The scan calls ``progress`` after every block, so a batch never waits for the next crash."""

    def __init__(self, post: Callable[[str, Any], None]) -> None:
        self.post = post
        self.held: list[tuple[str, Crash]] = []
        self.sent_at = float("-inf")  # the first crash goes at once

    def crash(self, crash: Crash) -> None:
        from spectrace.incidents import crash_signature  # loaded by the scan already

        self.held.append((crash_signature(crash), crash))
        self.progress(0, 0)

    def progress(self, _done: int, _total: int) -> None:
        if self.held and time.monotonic() - self.sent_at >= BATCH_S:
            self.flush()

    def flush(self) -> None:
        if self.held:
            self.post("crashes", self.held)
            self.held, self.sent_at = [], time.monotonic()


def main() -> None:
    """The child: read the job from stdin, write pickled reports to the stdout it was given
    (anything the core prints goes to stderr instead, so it cannot break the stream)."""
    reports = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)

    def post(kind: str, value: Any) -> None:
        pickle.dump((kind, value), reports)
        reports.flush()

    paths, expect, stacks = pickle.load(sys.stdin.buffer)
    batches = _Batches(post)
    try:
        result = run(paths, expect, batches.crash, stacks, lambda r: post("rules", r),
                     batches.progress)  # fmt: skip
        batches.flush()
        post("done", result)
    except OSError:  # the app is gone: nobody to tell
        pass


if __name__ == "__main__":
    main()
