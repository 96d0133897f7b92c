"""A hostile log line stays inside its own cells: every screen row keeps the terminal's width,
no control, escape or bidi character reaches the terminal, markup and links stay text."""

from __future__ import annotations

from pathlib import Path

from rich.segment import Segment
from tui_helpers import SIZE, pilot, started

from spectrace.tui.app import SpectraceApp

HOSTILE = (
    "[bold red]x[/] [link=file:///etc/passwd]pw[/link] "
    "\x1b]8;;http://evil.example/\x1b\\click\x1b]8;;\x1b\\ \x1b]52;c;ZWNobyBwd25lZA==\x07 "
    "\x1b[2J\x1b[H\x1b[31mred\x1b[0m \x07bell \x9b2J \u202eevil\u202c zw\u200bsp \x08bs "
    "\x1b[?1049h wide 漢字 e\u0301 \U0001f525 \x0bvt"
)
LOG = "\n".join(
    [
        "[2026-02-27 21:00:17 TP7] AAAA first line",
        f"[2026-02-27 21:00:18 TP7] {HOSTILE}",
        "[2026-02-27 21:00:18 TP7] Scheduler hit an exception: Traceback (most recent call last):",
        '  File "/srv/x.py", line 12, in run',
        "    do_it()",
        f"RuntimeError: {HOSTILE}",
        "[2026-02-27 21:00:19 TP0] ZZZZ last line",
    ]
)
# C0 but nothing (a screen row has no tab or newline left), DEL and C1, bidi, zero-width
UNSAFE = {chr(c) for c in [*range(0x20), *range(0x7F, 0xA0), *range(0x202A, 0x202F), 0x200B]}


def screen(app: SpectraceApp) -> list[list[Segment]]:
    """What the terminal is sent, row by row."""
    return [list(strip) for strip in app.screen._compositor.render_strips()]


@pilot
async def test_a_hostile_line_stays_inside_its_cells(tmp_path: Path) -> None:
    log = tmp_path / "evil.log"
    log.write_text(LOG + "\n", encoding="utf-8")
    app = SpectraceApp([log])
    ready = lambda a: a.log_view.source.count == 7 and a.analysis is not None  # noqa: E731
    async with started(app, ready) as pilot:
        assert [i.exception_type for i in app.analysis.incidents] == ["RuntimeError"]
        await pilot.press("e")  # the crash selected: its hostile message in list and detail
        await pilot.pause()
        rows = screen(app)
        width = SIZE[0]
        assert len(rows) == SIZE[1]
        for y, row in enumerate(rows):
            assert sum(seg.cell_length for seg in row) == width, (y, "".join(s.text for s in row))
            text = "".join(seg.text for seg in row)
            assert not UNSAFE & set(text), (y, sorted(UNSAFE & set(text)))
        texts = ["".join(seg.text for seg in row) for row in rows]
        first = next(y for y, t in enumerate(texts) if "AAAA first line" in t)
        assert "[bold red]x[/]" in texts[first + 1]  # the markup shown as text, on its own row
        assert any("ZZZZ last line" in t for t in texts[first + 2 :])
        assert sum("[link=file:///etc/passwd]pw" in t for t in texts) >= 3  # log, list, detail
        hostile_segments = [s for row in rows for s in row if "pw" in s.text or "click" in s.text]
        assert hostile_segments and all(
            s.style is None or not s.style.link for s in hostile_segments
        )


@pilot
async def test_a_hostile_file_name_stays_one_harmless_row(tmp_path: Path) -> None:
    """An OSC title write in a file name once retitled the terminal; its newline split the
    status bar."""
    log = tmp_path / "ev\x1b]2;PWNED\x07il[bold red]x[link=http:]\nnl\u202e.log"
    log.write_text(LOG + "\n", encoding="utf-8")
    app = SpectraceApp([log])
    ready = lambda a: a.log_view.source.count == 7 and a.analysis is not None  # noqa: E731
    async with started(app, ready) as pilot:
        await pilot.press("e")
        await pilot.pause()
        rows = screen(app)
        assert len(rows) == SIZE[1]
        texts = ["".join(seg.text for seg in row) for row in rows]
        for y, row in enumerate(rows):
            assert sum(seg.cell_length for seg in row) == SIZE[0], (y, texts[y])
            assert not UNSAFE & set(texts[y]), (y, sorted(UNSAFE & set(texts[y])))
        assert texts[0].startswith("evil[bold red]x[link=http:]?nl?.log: 7 lines")
        assert any("first line  evil[bold red]x[link=http:]?nl?.log:3" in t for t in texts)
