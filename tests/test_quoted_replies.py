"""Replies that quote another post (``> ``): the reader keeps the quote mark as
``LogLine.quoted`` and the linker ranks a quoted run below the writer's own. A quoted launch or
sentence still speaks for the run where the writer's own lines say nothing of it (a reply
quoting the run it answers), and a quoted traceback is still a crash."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import roots, run

from spectrace.dialects.detect import LineParser

SGL = "python -m sglang.launch_server --model-path org/llama-8b --tp 2"
EAGLE = f"{SGL} --speculative-algorithm EAGLE --speculative-draft-model-path org/eagle --speculative-eagle-topk 4"
CRASH = [
    "Traceback (most recent call last):",
    '  File "/opt/py/sglang/srt/managers/scheduler.py", line 2611, in run_scheduler_process',
    "    scheduler.run_event_loop()",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]
HEADER = ["sgl-project/sglang · Issue #8123", "dan opened this issue on Mar 4, 2025", ""]


@pytest.mark.parametrize(
    ("raw", "quoted", "text"),
    [
        ("> We run EAGLE", True, "We run EAGLE"),
        (">> We run EAGLE", True, "We run EAGLE"),  # an e-mail reply to a reply
        ("> > We run EAGLE", True, "We run EAGLE"),
        (">", True, ""),  # the blank line between quoted paragraphs
        ("   > indented quote", True, "   indented quote"),
        ("> ```", True, ""),
        (">>> import sglang", False, "import sglang"),  # a Python prompt is the writer's typing
        ("a -> b", False, "a -> b"),
        ("We run EAGLE", False, "We run EAGLE"),
    ],
)
def test_the_reader_keeps_the_quote_mark(raw: str, quoted: bool, text: str) -> None:
    line = LineParser("reply.md").parse(raw.encode(), 1, 0)
    assert (line.quoted, line.text) == (quoted, text)


def _verdict(tmp_path: Path, lines: list[str]) -> tuple[str, str | None]:
    (crash,) = roots(run(tmp_path, lines, name="thread.md"))
    path = crash.worker_path
    assert path is not None
    return path.value, path.worker_class


def test_a_quoted_launch_speaks_when_the_writer_shows_no_run(tmp_path: Path) -> None:
    """A maintainer quotes the command the reporter launched and pastes the crash."""
    lines = [*HEADER, "> Can you share the launch command?", ">", f"> {EAGLE}", "",
             "Thanks, with that command it crashes like this:", *CRASH]  # fmt: skip
    assert _verdict(tmp_path, lines) == ("v1", "EAGLEWorker")


def test_a_quote_is_still_a_crash_when_it_is_the_only_text(tmp_path: Path) -> None:
    lines = [*HEADER, f"> {EAGLE}", *(f"> {line}" for line in CRASH)]
    assert _verdict(tmp_path, lines) == ("v1", "EAGLEWorker")


def test_the_writers_own_launch_outranks_the_quoted_one(tmp_path: Path) -> None:
    own = f"{SGL} --speculative-algorithm NGRAM"
    lines = [*HEADER, f"> {EAGLE}", "", "Mine is different:", own, *CRASH]
    assert _verdict(tmp_path, lines) == ("other", "NGRAMWorker")


@pytest.mark.parametrize(
    "own",
    [
        "Same traceback on my side without any speculative decoding.",
        "I hit it on a plain server too.",
        "Here speculative decoding is disabled and it still crashes.",
    ],
)
def test_the_writers_plain_run_is_not_the_quoted_one(tmp_path: Path, own: str) -> None:
    lines = [*HEADER, f"> {EAGLE}", ">> We run EAGLE with topk 4.", "", own, *CRASH]
    value, worker = _verdict(tmp_path, lines)
    assert value in ("unknown", "none") and worker is None


V2_CRASH = [
    "Traceback (most recent call last):",
    '  File "/opt/py/sglang/srt/managers/scheduler.py", line 2611, in run_scheduler_process',
    "    scheduler.run_event_loop()",
    '  File "/opt/py/sglang/srt/speculative/eagle_worker_v2.py", line 828, in forward_batch_generation',
    "    self.verify(batch)",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]
OWN_CRASH = [
    "Traceback (most recent call last):",
    '  File "/opt/py/sglang/srt/managers/scheduler.py", line 2611, in run_scheduler_process',
    "    scheduler.run_event_loop()",
    '  File "/opt/py/sglang/srt/layers/attention/triton_backend.py", line 512, in forward_extend',
    "    o = self.extend_attention_fwd(q, k, v)",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]


def test_a_quoted_crash_lends_no_frames_to_the_writers_own(tmp_path: Path) -> None:
    """Ranks of one run share their worker; a crash quoted from another post is no rank of the
    writer's run: its EAGLE v2 frames decide its own path only."""
    lines = [*(f"> {line}" for line in V2_CRASH), "",
             "Similar here, on a plain server:", "", *OWN_CRASH]  # fmt: skip
    got = {c.first_seen.quoted: c.worker_path for c in roots(run(tmp_path, lines))}
    assert got[True] is not None and got[True].worker_class == "EAGLEWorkerV2"
    assert got[False] is not None and got[False].worker_class is None
    assert got[False].value in ("unknown", "none")


def test_unquoted_ranks_of_one_run_still_share_their_worker(tmp_path: Path) -> None:
    lines = [*(f"[2026-01-05 10:00:01 TP0] {line}" for line in V2_CRASH),
             *(f"[2026-01-05 10:00:01 TP1] {line}" for line in OWN_CRASH)]  # fmt: skip
    paths = {c.worker_path.worker_class for c in roots(run(tmp_path, lines)) if c.worker_path}
    assert paths == {"EAGLEWorkerV2"}


def test_a_quoted_crash_neither_dates_nor_takes_the_writers_run(tmp_path: Path) -> None:
    """An old report's stamped crash quoted above the writer's own launch and unstamped crash:
    its day is the other post's (it does not bound the writer's release to 2025's v1), and the
    writer's launch is not the quoted crash's run."""
    lines = [f"> [2025-02-01 10:00:00 TP0] Scheduler hit an exception: {CRASH[0]}",
             f"> {CRASH[-1]}", "", "Same on my side with a build from today:", "",
             f"{SGL} --speculative-algorithm EAGLE --speculative-draft-model-path org/eagle",
             "", *CRASH]  # fmt: skip
    got = {c.first_seen.quoted: c.worker_path for c in roots(run(tmp_path, lines))}
    theirs, mine = got[True], got[False]
    assert theirs is not None and (theirs.value, theirs.conditional) == ("unknown", None)
    assert mine is not None and mine.value == "unknown" and mine.conditional
    assert "EAGLEWorkerV2" in mine.conditional


def test_a_writer_saying_the_server_is_plain_takes_no_quoted_launch(tmp_path: Path) -> None:
    lines = [f">> {SGL} --speculative-algorithm NGRAM", "> Same here with EAGLE3.", "",
             "Not for me, my server is plain and still crashes:", SGL, *CRASH]  # fmt: skip
    value, worker = _verdict(tmp_path, lines)
    assert value in ("unknown", "none") and worker is None


def test_a_plain_run_sentence_between_two_crashes_makes_them_two_runs(tmp_path: Path) -> None:
    """Another user's traceback pasted unquoted, then the writer's own under a sentence saying
    theirs is plain: the two are not ranks of one run, so no frames pass between them."""
    lines = ["Another user's traceback from #5000 (EAGLE v2):", *V2_CRASH, "",
             "Mine, on a plain server without speculative decoding:", *OWN_CRASH]  # fmt: skip
    by_line = {c.first_seen.lineno: c.worker_path for c in roots(run(tmp_path, lines))}
    theirs, mine = by_line[2], by_line[2 + len(V2_CRASH) + 2]
    assert theirs is not None and theirs.worker_class == "EAGLEWorkerV2"
    assert mine is not None and mine.worker_class is None and mine.value in ("unknown", "none")


def test_the_shells_continuation_prompt_is_no_quote() -> None:
    """``> `` under a line ending in ``\\`` is the shell's PS2 prompt of the writer's own command."""
    parser = LineParser("reply.md")
    lines = [parser.parse(raw.encode(), n, 0) for n, raw in enumerate(
        [f"$ {SGL} \\", "> --speculative-algorithm EAGLE3 \\", "> --speculative-eagle-topk 1",
         "> a quoted sentence"], 1)]  # fmt: skip
    assert [line.quoted for line in lines] == [False, False, False, True]


def test_another_nodes_dump_across_a_plain_run_sentence_names_nothing(tmp_path: Path) -> None:
    lines = ["py-spy dump of the healthy node (EAGLE3 server, for comparison):",
             'Thread 1234 (active): "MainThread"',
             "    forward_batch_speculative_generation (sglang/srt/speculative/eagle_worker.py:310)",
             "    run_batch (sglang/srt/managers/scheduler.py:1640)", "",
             "The crashing node runs without speculative decoding:", SGL, "", *CRASH]  # fmt: skip
    value, worker = _verdict(tmp_path, lines)
    assert value in ("unknown", "none") and worker is None


def test_a_plain_run_said_to_work_is_no_wall(tmp_path: Path) -> None:
    """ "Without speculative decoding it is fine" sets a working plain run apart: the crash is
    still the EAGLE run's, whose launch stands above the sentence."""
    lines = [*HEADER, f"{SGL} --speculative-algorithm EAGLE --speculative-draft-model-path org/e "
             "--speculative-eagle-topk 4", "", "Without speculative decoding it is fine.", "",
             *CRASH]  # fmt: skip
    assert _verdict(tmp_path, lines) == ("v1", "EAGLEWorker")


PR = ["org/serving · pull request #351 · merged · Python", "# Support online MTP draft weight updates", "",
      "alice · description · 2026-07-14",
      "Tested with org/Model-7B and its built-in MTP head on 8x H200, using vLLM 0.24.0.", ""]  # fmt: skip
PROBE = ["Traceback (most recent call last):", '  File "probe.py", line 1, in <module>', "RuntimeError: probe"]


@pytest.mark.parametrize("wall", [
    "| speculative decoding disabled | n/a | 168.2 | baseline |",
    "| no spec | - | 151.0 | 1.00x |",
    "The batch combines speculative and non-speculative sequences; non-speculative ones go first.",
    "Speedup is measured against the non-speculative baseline.",
])  # fmt: skip
def test_a_results_row_or_a_batchs_non_speculative_part_is_no_plain_run_wall(tmp_path: Path, wall: str) -> None:
    """A PR's own results table has a baseline row and its prose speaks of non-speculative
    sequences: neither says the writer's run is a plain one, so the PR's MTP run still reaches
    the crash below."""
    lines = [*PR, "| Variant | Acceptance | tok/s |", "|---|---:|---:|", wall,
             "| MTP, target + draft update | 58.6% | 252.9 |", "", *PROBE]  # fmt: skip
    (crash,) = roots(run(tmp_path, lines))
    path = crash.worker_path
    assert path is not None and "EagleProposer" in f"{path.worker_class} {path.conditional}"


def test_a_sentence_saying_the_run_is_non_speculative_is_still_a_wall(tmp_path: Path) -> None:
    lines = [*PR, "| Variant | Acceptance | tok/s |", "|---|---:|---:|",
             "| MTP, target + draft update | 58.6% | 252.9 |", "",
             "The server that crashed is non-speculative:", "", *PROBE]  # fmt: skip
    (crash,) = roots(run(tmp_path, lines))
    assert crash.worker_path is None or crash.worker_path.value == "unknown"
