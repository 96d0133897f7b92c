"""What the person on call sees first, in every format: the answer before the details, the same
words for the same facts, evidence that fits a 100-column terminal, files by short names."""

from __future__ import annotations

import copy
import io
from typing import Any

from rich.console import Console

from spectrace.reports import by_importance, github, markdown
from spectrace.reports.text import TriageReport, render_plain
from spectrace.reports.words import display_names, short_path

FRAME = '  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/speculative/eagle_worker.py", line {n}, in forward_batch_speculative_generation'  # fmt: skip
FRAME_REASON = "traceback frame in eagle_worker.py: EAGLEWorker (non-overlap) -> v1 (EAGLEWorker)"


def _terminal(document: dict[str, Any], width: int = 100) -> list[str]:
    out = io.StringIO()
    Console(file=out, width=width, force_terminal=True, color_system=None).print(
        TriageReport(document)
    )
    return out.getvalue().splitlines()


def _with_frame_evidence(document: dict[str, Any]) -> dict[str, Any]:
    """The seed story with the evidence a real v1 traceback gives: two frames of one file that
    prove the path, after the server_args line (which only informs here)."""
    doc = copy.deepcopy(document)
    path = doc["incidents"][0]["worker_path"]
    for ev in path["evidence"]:
        ev["points_to"] = None
    for n in (287, 301):
        path["evidence"].append({"file": "server.log", "line": 800, "text": FRAME.format(n=n),
                                 "reason": FRAME_REASON, "points_to": "v1"})  # fmt: skip
    return doc


def test_the_answer_comes_before_frames_and_signature(document: dict[str, Any]) -> None:
    lines = [line.strip() for line in render_plain(document, width=100).splitlines()]
    order = [next(n for n, line in enumerate(lines) if line.startswith(label)) for label in
             ("I1 RuntimeError", "origin TP7", "worker path:", "flags:", "shape mismatch:",
              "hint:", "collateral: I2", "innermost frames:", "signature:")]  # fmt: skip
    assert order == sorted(order)
    assert "flags:" in lines and "innermost frames:" in lines  # no trailing space on a title


def test_deciding_evidence_first_once_per_reason_and_one_line_quote(
    document: dict[str, Any],
) -> None:
    lines = _terminal(_with_frame_evidence(document))
    at = next(n for n, line in enumerate(lines) if "worker path: v1 (EAGLEWorker)" in line)
    assert lines[at + 1].startswith(f"      server.log:800 (+1 more): {FRAME_REASON[:40]}")
    quote = next(n for n in range(at, len(lines)) if lines[n].startswith("        | "))
    assert lines[quote].startswith(
        '        | File "sglang/srt/speculative/eagle_worker.py", line 287'
    )
    assert len(lines[quote]) <= 100 and lines[quote].endswith("…")  # cut, not wrapped
    assert lines[quote + 1].startswith("      server.log:12: server_args dump")
    assert sum("traceback frame in eagle_worker.py" in line for line in lines) == 1


def test_a_pipe_keeps_the_whole_quoted_line_for_grep(document: dict[str, Any]) -> None:
    out = io.StringIO()
    console = Console(file=out, width=100, force_terminal=False, color_system=None)
    console.print(TriageReport(_with_frame_evidence(document)), soft_wrap=True)
    assert "line 287, in forward_batch_speculative_generation" in out.getvalue()


def test_a_crash_without_timestamp_or_worker_reads_as_such(document: dict[str, Any]) -> None:
    doc = copy.deepcopy(document)
    incident = doc["incidents"][0]
    incident["first_seen"].update(time=None, time_text=None)
    incident["worker_path"] = {"value": "unknown", "worker_class": None, "evidence": [],
                               "conflict": None}  # fmt: skip
    text = render_plain(doc, width=200)
    assert "first seen at server.log:800 (no timestamp), 2 occurrence(s)" in text
    assert "first seen no timestamp" not in text
    assert "worker path: unknown (no speculative worker named in the log)" in text
    assert "worker path: unknown (no speculative worker named in the log)" in github.render(doc)
    assert "first seen at server.log:800 (no timestamp)" in markdown.render(doc)


def test_files_are_named_by_their_shortest_unique_suffix() -> None:
    names = display_names(["/tmp/a/node0/server.log", "/tmp/b/node1/server.log", "/x/y/sched.log"])
    assert names == {"/tmp/a/node0/server.log": "node0/server.log",
                     "/tmp/b/node1/server.log": "node1/server.log", "/x/y/sched.log": "sched.log"}  # fmt: skip
    assert display_names(["logs/server.log", "server.log"])["server.log"] == "server.log"
    assert display_names(["logs/server.log", "server.log"])["logs/server.log"] == "logs/server.log"


def test_frames_of_a_source_checkout_start_at_the_package() -> None:
    assert short_path("/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py") == (
        "sglang/srt/managers/scheduler.py"
    )
    assert short_path("/workspace/vllm/vllm/v1/engine/core.py") == "vllm/v1/engine/core.py"
    assert short_path("/home/me/train.py") == "/home/me/train.py"


def test_of_two_root_causes_the_earlier_leads_in_every_format(document: dict[str, Any]) -> None:
    """A later fatal ``Killed`` (the launcher cleaning up) must not push the first error down."""
    doc = copy.deepcopy(document)
    killed = copy.deepcopy(doc["incidents"][0])
    killed.update(id="I3", exception_type="OOMKilled", message="Killed", severity="fatal",
                  collateral=[], caused_by=None, root_cause=True, fails=True)  # fmt: skip
    doc["incidents"][0]["severity"] = "error"
    doc["incidents"].append(killed)
    assert [i["id"] for i in by_importance(doc["incidents"])] == ["I1", "I3", "I2"]
    text = render_plain(doc, width=200)
    assert text.index("I1 RuntimeError") < text.index("I3 OOMKilled")
    md = markdown.render(doc)
    assert md.index("<details open><summary>I1:") < md.index("<details><summary>I3:")


def test_markdown_and_github_use_the_terminal_words(document: dict[str, Any]) -> None:
    md = markdown.render(document)
    origin = "origin TP7 (also TP2), first seen 2026-02-27 21:00:18 at server.log:800"
    assert f"- {origin}, 2 occurrence(s)" in md
    assert "- worker path: **v1 (EAGLEWorker)**" in md and "| v1 (EAGLEWorker) |" in md
    assert "- collateral: I2 NCCLTimeout:" in md
    error = next(line for line in github.render(document).splitlines() if "title=I1" in line)
    parts = error.split("::", 2)[2].split("%0A")
    assert parts[1] == f"{origin}, 2 occurrence(s)"
    assert parts[2] == "worker path: v1 (EAGLEWorker)"
    assert parts[3] == "shape mismatch: 160 = 10 running requests x 16 draft tokens"
    assert parts[-1].startswith("signature: ")


def test_a_cpp_backtrace_glued_to_the_message_stays_out_of_the_heading(
    document: dict[str, Any],
) -> None:
    doc = copy.deepcopy(document)
    doc["incidents"][0].update(
        exception_type="TllmAssertion",
        message=r"Both encoder and decoder model paths are empty (state.cc:535)"
        r"\n1       0x7fc3a35e6e5b tensorrt_llm::common::throwRuntimeError(char const*, int)",
    )
    for out in (render_plain(doc, width=300), markdown.render(doc), github.render(doc)):
        assert "paths are empty (state.cc:535) …" in out
        assert "0x7fc3a35e6e5b" not in out.split("```")[0]  # the log lines block may keep it


def test_flags_from_one_log_line_share_one_line(document: dict[str, Any]) -> None:
    """Ten flags of one server_args dump are one line under 'flags:', not ten."""
    text = render_plain(document, width=200)
    expected = (
        "server.log:12: disable_overlap_schedule=True, speculative_eagle_topk=4, api_key='***'"
    )
    assert f"      {expected}" in text.splitlines()
    assert f"- flags (server.log:12): {expected.split(': ', 1)[1]}".replace("_", "\\_").replace(
        "*", "\\*"
    ) in markdown.render(document)


def test_a_wrapped_line_keeps_its_indent_on_a_terminal(document: dict[str, Any]) -> None:
    lines = _terminal(document, width=40)
    at = next(n for n, line in enumerate(lines) if "hint: spec_info" in line)
    rest = lines[at + 1]
    assert rest.startswith("    ") and rest.strip() in "survived into a non-speculative forward"
    assert all(line == line.rstrip() for line in render_plain(document, width=60).splitlines())
