"""A run that stopped before its engine built any worker says so, and only that (session 31, lead).

Nothing a user could paste from such a text (the release, the server's arguments, a worker's
frame) would name a worker, because none ran: the explanation is one line saying no worker ran,
the method the launch asked for and the line it stopped at, not the usual list of lines that
would settle an unknown path. A text set apart for other reasons (a page telling the reader
what to run) still lists what would show a run.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from real_logs_helpers import crash_path, launcher_stop, run

import spectrace
from spectrace.assemblers.run_shown import NO_RUN_MISSING, NO_WORKER_RAN

_SGL = "/srv/env/lib/python3.12/site-packages/sglang"


def _stopped(option_line: str, func: str, message: str) -> list[str]:
    return launcher_stop(option_line, func, message, root=_SGL)


def test_a_refused_speculative_config_says_no_worker_ran(tmp_path: Path) -> None:
    lines = _stopped("sglang serve --model-path /ckpt/base-14b --speculative-algorithm EAGLE3 --tp 2",
                     "_handle_speculative_decoding", "the draft head given does not match this target's layout")
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class is None and not path.conditional, path
    assert len(path.missing) == 1 and path.missing[0].startswith(NO_WORKER_RAN), path.missing
    assert "configured EAGLE3" in path.missing[0] and "line 7" in path.missing[0], path.missing


def test_a_launcher_failing_on_its_ports_says_no_worker_ran(tmp_path: Path) -> None:
    lines = _stopped("python -m sglang.launch_server --model-path /ckpt/base-14b --speculative-algorithm NGRAM",
                     "init_new", "no free port could be found for the detokenizer")
    path = crash_path(run(tmp_path, lines))
    assert path.missing and path.missing[0].startswith(NO_WORKER_RAN), path.missing
    assert NO_RUN_MISSING not in path.missing, path.missing


def test_the_trace_text_names_the_stop(tmp_path: Path) -> None:
    """What the user reads under the crash in the text report."""
    log = tmp_path / "server.log"
    log.write_text("\n".join(_stopped("sglang serve --model-path /ckpt/base-14b --speculative-algorithm EAGLE3",
                                      "_handle_spec_checks", "speculative decoding needs page size one here")) + "\n")
    done = subprocess.run([sys.executable, "-m", "spectrace", "triage", str(log)], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(Path(spectrace.__file__).parent.parent)})  # fmt: skip
    out = done.stdout
    assert done.returncode == 1, done.stderr
    assert "no worker ran: a launch whose records end at a failure in the launcher" in out, out
    assert "would settle it" not in out and "the run's own lines" not in out, out


def _triage(log: Path, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "spectrace", "triage", str(log), *args], capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(Path(spectrace.__file__).parent.parent)})
    assert done.returncode == 1, done.stderr
    return done.stdout


def test_junit_and_sarif_label_the_stop_as_no_worker_ran(tmp_path: Path) -> None:
    """A CI page reading the JUnit or SARIF report sees the same label as the terminal."""
    log = tmp_path / "server.log"
    log.write_text("\n".join(_stopped("sglang serve --model-path /ckpt/base-14b --speculative-algorithm NGRAM",
                                      "_handle_spec_checks", "ngram drafting is not offered on this device")) + "\n")
    junit = _triage(log, "--format", "junit")
    sarif = _triage(log, "--format", "sarif")
    assert "no worker ran: a launch whose records end" in junit and "would settle it" not in junit, junit
    assert "No worker ran: a launch whose records end" in sarif and "Would settle it" not in sarif, sarif
    assert "configured NGRAM" in junit and "configured NGRAM" in sarif


def test_the_tui_readout_labels_the_stop_as_no_worker_ran(tmp_path: Path) -> None:
    from spectrace.tui.readout import path_lines

    lines = _stopped("sglang serve --model-path /ckpt/base-14b --speculative-algorithm EAGLE3",
                     "_handle_spec_checks", "the draft checkpoint has no lm_head for this target")
    text = path_lines(crash_path(run(tmp_path, lines))).plain
    assert "  no worker ran: a launch whose records end" in text and "would settle it" not in text, text


def test_an_unsettled_path_still_says_what_would_settle_it(tmp_path: Path) -> None:
    """Only a stop before the engine changes its label: an unknown path keeps its hint."""
    log = tmp_path / "server.log"
    log.write_text("speculative decoding with EAGLE3 was slow for us today\n"
                   "Traceback (most recent call last):\n"
                   f'  File "{_SGL}/srt/managers/scheduler.py", line 2301, in event_loop_overlap\n'
                   "    batch = self.get_next_batch_to_run()\n"
                   "RuntimeError: CUDA error: an illegal memory access was encountered\n")
    out = _triage(log)
    assert "would settle it:" in out and "no worker ran" not in out, out
