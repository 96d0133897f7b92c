"""One definition of unsafe characters: the parser drops them, reports escape them, the TUI marks them."""

from __future__ import annotations

from rich.text import Text

from spectrace.dialects.detect import normalise
from spectrace.reports.text import render_plain
from spectrace.textsafe import inert, scrub
from spectrace.tui.linestyle import plain, to_text

# NUL, BEL, BS, VT, DEL, a C1 control (NEL), the line separator, a bidi override and an isolate
UNSAFE = "\x00\x07\x08\x0b\x7f\x85\u2028\u202e\u2066"
LINE = f"[2026-02-27 21:00:18 TP7] a{UNSAFE}b"


def test_the_parser_drops_what_the_tui_marks_and_the_reports_escape() -> None:
    assert normalise(LINE.encode()) == "[2026-02-27 21:00:18 TP7] ab"
    assert plain(LINE) == "[2026-02-27 21:00:18 TP7] a" + "?" * len(UNSAFE) + "b"
    assert inert(LINE) == (
        "[2026-02-27 21:00:18 TP7] a\\x00\\x07\\x08\\x0b\\x7f\\x85\\x2028\\x202e\\x2066b"
    )


def test_each_layer_keeps_only_what_it_needs() -> None:
    assert normalise(b"Loading: 50%\rLoading: 100%\n") == "Loading: 50%\rLoading: 100%"  # redraws
    assert plain("50%\r100%") == "50%?100%" and inert("\r") == "\\x0d"  # never sent raw
    coloured = to_text("\x1b[31mred\x1b[0m \x07bell")
    assert isinstance(coloured, Text) and coloured.plain == "red ?bell" and coloured.spans
    assert scrub("tab\tand\nnewline stay") == "tab\tand\nnewline stay"


def test_a_bidi_override_cannot_reorder_a_report_line() -> None:
    document = {
        "files": [{"path": "evil\u202elog.txt", "lines": 1, "bytes": 1, "dialects": {}}],
        "incidents": [], "findings": [],
        "summary": {"reasons": [], "incidents": 0, "root_causes": 0, "collateral": 0,
                    "known": 0, "findings": 0, "exit_code": 0},
    }  # fmt: skip
    text = render_plain(document)
    assert "\u202e" not in text and "evil\\x202elog.txt" in text
