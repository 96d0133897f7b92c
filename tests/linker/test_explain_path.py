"""``--explain-path``: an unknown says, in the reader's terms, what each path reader found, which
guard set each family word apart, and the one line that would settle it (issue 11 item 5).

Every text here is our own, in the shapes of public threads: a tracker header, a title, a post
line with its day, the writer's sentences, and a crash at the end."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from spectrace.commands import register_all
from spectrace.path_missing import LAUNCH, LAUNCH_OF
from spectrace.pipeline import analyse
from spectrace.worker_path import PathStep, WorkerPath

CRASH = ["Traceback (most recent call last):", '  File "bench.py", line 3, in <module>',
         "RuntimeError: decode step failed"]  # fmt: skip


def _path(tmp_path: Path, lines: list[str], explain: bool = True) -> WorkerPath:
    log = tmp_path / "thread.txt"
    log.write_text("\n".join([*lines, *CRASH]) + "\n", encoding="utf-8")
    (crash,) = [i for i in analyse([str(log)], explain=explain).incidents if i.root_cause]
    assert crash.worker_path is not None
    return crash.worker_path


def _steps(path: WorkerPath, reader: str) -> list[PathStep]:
    return [s for s in path.trace if s.reader == reader]


def test_an_unknown_names_each_dropped_word_and_its_guard(tmp_path: Path) -> None:
    """An SGLang bug thread whose every family line is about another run: the words are named,
    each with the guard that set it apart; the tracker and the day are found."""
    path = _path(tmp_path, [
        "sgl-project/sglang · issue #70001 · open · Python",
        "# [Bug] Qwen3 decode throughput drops by half on L40S",
        "",
        "kiwiuser · description · 2026-08-11",
        "Speculative decoding with EAGLE3 works fine on our other cluster.",
        "Could this be the MTP head?",
    ])  # fmt: skip
    assert path.value == "unknown" and not path.conditional
    words = {(s.found, s.lineno): s for s in _steps(path, "family word")}
    assert not words[("EAGLE3", 5)].kept and "another run" in words[("EAGLE3", 5)].why
    assert not words[("MTP", 6)].kept and "question" in words[("MTP", 6)].why
    (framework,) = _steps(path, "framework")
    assert (framework.found, framework.kept, framework.lineno) == ("sglang", True, 1)
    assert [(s.found, s.kept) for s in _steps(path, "day")] == [("2026-08-11", True)]
    verdict = {s.found: s.why for s in _steps(path, "verdict")}
    assert verdict["unknown"].startswith("every family word set apart")
    assert verdict["would settle it"] == LAUNCH_OF["sglang"]


def test_a_plain_run_line_between_the_words_and_the_crash_is_named(tmp_path: Path) -> None:
    """A line saying the run was plain walls the title and header off the crash below: the
    trace says which line cut them off, not only that nothing was found. (A "Baseline (no
    speculative decoding): 301.5 s" line is the comparison's other arm, no wall:
    test_comparison_arms.)"""
    path = _path(tmp_path, [
        "vllm-project/vllm · pull request #88001 · merged · Python",
        "# Medusa heads for the Foo-13B model",
        "",
        "devname · description · 2025-11-02",
        "Rerun on a plain server (no speculative decoding): 301.5 s",
        "",
    ])  # fmt: skip
    medusa = [s for s in _steps(path, "family word") if s.found == "MEDUSA"]
    assert medusa and not medusa[0].kept and "line 5" in medusa[0].why
    assert any("cut off from the crash by line 5" in s.why for s in _steps(path, "framework"))


def test_a_thread_off_the_engine_trackers_says_why_no_framework(tmp_path: Path) -> None:
    """A recipe repository's thread: the family is named and the day is there, but nothing
    names the framework; the trace says the words were read and named none, and asks for the
    launch command."""
    path = _path(tmp_path, [
        "acme-labs/serving-recipes · issue #12 · open · Python",
        "# [Bug] DFlash drafter crashes at warmup on H20",
        "",
        "someone · description · 2026-06-30",
        "We launch the DFlash drafter with our usual recipe and it crashes at warmup.",
    ])  # fmt: skip
    (framework,) = _steps(path, "framework")
    assert framework.found == "none" and not framework.kept
    assert "in words: the title, the family lines and the run's other lines name none" in framework.why
    assert any(s.kept for s in _steps(path, "family word"))
    verdict = {s.found: s.why for s in _steps(path, "verdict")}
    assert verdict["unknown"].startswith("family named, no framework found")
    assert verdict["would settle it"] == LAUNCH


def test_a_decided_verdict_names_its_line(tmp_path: Path) -> None:
    """A decided run: the verdict step carries the evidence's reason and line."""
    path = _path(tmp_path, [
        "[2026-03-01 10:00:00] server_args=ServerArgs(model_path='m', speculative_algorithm="
        "'EAGLE', speculative_eagle_topk=1, disable_overlap_schedule=True)",
    ])  # fmt: skip
    (verdict,) = _steps(path, "verdict")
    assert verdict.kept and verdict.found == f"{path.value} ({path.worker_class})"
    assert verdict.lineno == 1


def test_off_by_default(tmp_path: Path) -> None:
    """Without the flag no trace is made: the verdict carries none."""
    path = _path(tmp_path, ["sgl-project/sglang · issue #1 · open · Python",
                            "# [Bug] NEXTN crash"], explain=False)  # fmt: skip
    assert path.trace == ()


def test_cli_text_and_json(tmp_path: Path) -> None:
    """The flag on the command line: the text report lists each reader's finding under the
    worker path; the JSON report has them as ``trace``; without it, no ``trace`` key."""
    import typer

    app = typer.Typer()
    register_all(app, ())
    log = tmp_path / "thread.txt"
    log.write_text("\n".join(["sgl-project/sglang · issue #70002 · open · Python",
                              "# [Bug] EAGLE3 crash, while the plain server works",
                              "", "u · description · 2026-07-01", *CRASH]) + "\n")  # fmt: skip
    text = CliRunner().invoke(app, ["triage", str(log), "--explain-path"]).output
    assert "family word: EAGLE3" in text and "set apart:" in text
    assert "would settle it" in text
    out = CliRunner().invoke(app, ["triage", str(log), "--explain-path", "-f", "json"]).output
    (incident,) = json.loads(out)["incidents"]
    trace = incident["worker_path"]["trace"]
    assert {"reader", "found", "kept", "why", "file", "line"} == set(trace[0])
    assert any(s["reader"] == "family word" and not s["kept"] for s in trace)
    plain = CliRunner().invoke(app, ["triage", str(log), "-f", "json"]).output
    assert "trace" not in json.loads(plain)["incidents"][0]["worker_path"]


def test_the_sglang_era_join_says_where_it_stops(tmp_path: Path) -> None:
    """SGLang's tracker, MTP named in the writer's sentence: with the post's day the era join
    runs (kept, with the day it used); with no day and no release it runs too, says that is
    what it lacked, and gives the family's class on every release as the condition (session 19;
    before, unknown)."""
    def thread(byline: str) -> list[str]:
        return ["sgl-project/sglang · issue #70003 · open · Python",
                "# [Bug] decode crashes at batch 64 on H20", "", byline,
                "MTP acceptance drops to 1.2 and then the scheduler dies."]  # fmt: skip

    dated = _path(tmp_path, thread("someone · description · 2026-09-20"))
    join = [s for s in _steps(dated, "rule") if s.found == "SGLang era join"]
    assert join and join[0].kept and "2026-09-20" in join[0].why
    undated = _path(tmp_path, thread("someone · description"))
    join = [s for s in _steps(undated, "rule") if s.found == "SGLang era join"]
    assert join and join[0].kept and "no release, era line or day" in join[0].why
    assert undated.value == "unknown" and undated.conditional is not None
    assert "EAGLEWorkerV2" in undated.conditional and "EAGLEWorker)" in undated.conditional


def test_a_word_the_looser_sglang_reading_keeps_is_shown_kept(tmp_path: Path) -> None:
    """On SGLang's own tracker the era join also reads looser words ('with and without NEXTN'):
    the trace shows such a word kept, with the strict guard that had set it apart."""
    path = _path(tmp_path, [
        "sgl-project/sglang · issue #70009 · open · Python",
        "# [Bug] NEXTN on H100 silently picks triton; forcing fa3 is 2x faster", "",
        "someone · description · 2026-09-15", "### Describe the bug", "",
        "I was running Qwen3-32B on an H100 with and without NEXTN, one request at a time.",
    ])  # fmt: skip
    words = [s for s in _steps(path, "family word") if s.lineno == 7]
    assert words and words[0].kept and "looser reading" in words[0].why
    assert any(s.found == "SGLang era join" and s.kept for s in _steps(path, "rule"))
