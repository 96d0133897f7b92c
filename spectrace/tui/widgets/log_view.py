"""The log view: a Line API widget that renders only the visible rows of any LineSource."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from spectrace.tui.linestyle import LineStyler, masked
from spectrace.tui.timeline import LineSource

RENDER_CACHE = 2000
STRIP_CACHE = 512  # drawn rows kept: a redraw of rows already drawn (a dialog closing) is free
CURSOR_STYLE = Style(bgcolor="rgb(40,60,90)")
GUTTER_STYLE = Style(color="rgb(110,110,110)")
MATCH_STYLE = Style(color="black", bgcolor="yellow")
MARK_STYLE = Style(color="black", bgcolor="bright_green", bold=True, underline=True)
CUT_STYLE = Style(reverse=True, dim=True)
MORE_STYLE = Style(color="black", bgcolor="rgb(170,170,170)", bold=True)
MAX_WIDTH = 10_000
HIGHLIGHT_TIMEOUT_S = 0.05  # a user pattern on one row while drawing
LABEL_MAX = 16


class Matchable(Protocol):
    """A ``regex`` pattern (it takes a timeout): the user's search, or a jump's target text."""

    def search(
        self, string: str, pos: int = ..., *, timeout: float | None = ...
    ) -> _Match | None: ...

    def finditer(
        self, string: str, pos: int = ..., *, timeout: float | None = ...
    ) -> Iterator[_Match]: ...


class _Match(Protocol):
    def start(self) -> int: ...

    def end(self) -> int: ...


@dataclass
class OpenLine(Message):
    """Enter on a log row: show the whole line (its fields one a row, its lost newlines back)."""

    row: int


class EmptySource:
    """Nothing to show yet."""

    count = 0

    def text(self, row: int) -> tuple[str, int]:
        return "", 0

    def texts(self, start: int, stop: int) -> list[str]:
        return []

    def locate(self, row: int) -> tuple[int, int]:
        return 0, row

    def row_of(self, file: int, line: int) -> int | None:
        return None


class LogView(ScrollView, can_focus=True):
    """Scrolls any number of rows; reads and styles a row only when it is on screen."""

    BINDINGS = [
        Binding("j,down", "cursor(1)", "Down", show=False),
        Binding("k,up", "cursor(-1)", "Up", show=False),
        Binding("pagedown,space", "page(1)", "PgDn", show=False),
        Binding("pageup,b", "page(-1)", "PgUp", show=False),
        Binding("g,home", "first", "Top", show=False),
        Binding("G,end", "last", "Bottom (stays there as lines arrive)", show=False),
        Binding("h,left", "pan(-8)", "Left", show=False),
        Binding("l,right", "pan(8)", "Right", show=False),
        Binding("w", "wrap", "Wrap long lines on/off", show=False),
        Binding("enter", "open_line", "Open the whole line", show=False),
    ]

    cursor = reactive(0, always_update=True)

    def __init__(
        self, labels: Sequence[str] = (), styler: LineStyler | None = None, **kwargs: object
    ) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.styler = styler or LineStyler()
        self.source: LineSource = EmptySource()
        self.labels = list(labels)
        self.crash_lines: set[tuple[int, int]] = set()
        self.pattern: Matchable | None = None
        self.mark: Matchable | None = None  # the text a jump went to, on the cursor row only
        self.wrap = False
        self.redact = True  # secrets masked as in the reports (--no-redact shows them)
        self._rows_shown: list[tuple[int, int]] = []  # wrap mode: (row, part) of each screen line
        self.follow = False
        self.colour = True
        self._cache: OrderedDict[int, Text] = OrderedDict()
        # (row, scroll x, width, cursor row, style) -> the row's Text when drawn and its strip
        self._strips: dict[tuple[int, int, int, bool, Style], tuple[Text, Strip]] = {}
        self._width = 0
        self._digits = 7  # the line number's width in the gutter
        self.placeholder: Text | None = None  # shown when there is no log at all

    # -- data -------------------------------------------------------------------------------

    def set_source(self, source: LineSource, keep: tuple[int, int] | None = None) -> None:
        """Show new rows; keep the cursor on the same (file, line) when it is still shown."""
        self.source = source
        self._cache.clear()
        self._width = 0  # the widest row of this source seen so far, not of the one before
        row = source.row_of(*keep) if keep is not None else None
        self._sync_size()
        self.cursor = min(row if row is not None else self.cursor, max(source.count - 1, 0))
        self._reveal()
        self.refresh()

    def grew(self) -> None:
        """More rows exist (index progress, follow): resize, and stay at the end if following."""
        self._cache.pop(self.source.count - 1, None)
        self._cache.pop(self.source.count - 2, None)
        self._sync_size()
        if self.follow:
            self.cursor = max(self.source.count - 1, 0)
            self.call_after_refresh(self.scroll_end, animate=False, immediate=True)
        self.refresh()

    def set_crash_lines(self, lines: set[tuple[int, int]]) -> None:
        self.crash_lines = lines
        self._cache.clear()
        self.refresh()

    def set_pattern(self, pattern: Matchable | None) -> None:
        self.pattern = pattern
        self._cache.clear()
        self.refresh()

    def position(self) -> tuple[int, int] | None:
        """(file, line) under the cursor, or None when empty."""
        return self.source.locate(self.cursor) if self.source.count else None

    def go_to(self, row: int, mark: Matchable | None = None) -> None:
        """Put the cursor on ``row`` a third down the view; with ``mark``, pan sideways to the
        text it matches and highlight it there (a jump to a flag shows the flag)."""
        self.cursor = max(0, min(row, self.source.count - 1))
        self.mark = mark
        self._cache.pop(self.cursor, None)
        height = self.scrollable_content_region.height
        self.scroll_to(y=max(0, self.cursor - height // 3), animate=False, immediate=True)
        self.scroll_to(x=self._pan_to(mark), animate=False, immediate=True)
        self.refresh()

    def _pan_to(self, mark: Matchable | None) -> int:
        """The scroll x that shows ``mark`` on the cursor row (0 when it is already seen)."""
        if mark is None or self.wrap or not self.source.count:
            return 0
        text = self._row_text(self.cursor).plain
        try:
            found = mark.search(text, self._gutter_width(), timeout=HIGHLIGHT_TIMEOUT_S)
        except TimeoutError:
            return 0
        if found is None:
            return 0
        width = self.scrollable_content_region.width
        start, end = Text(text[: found.start()]).cell_len, Text(text[: found.end()]).cell_len
        return 0 if end < width - 1 else max(0, start - width // 3)

    def _sync_size(self) -> None:
        """Match the scrollable size to the rows and the widest row rendered so far (wrap
        mode: no sideways scrolling at all)."""
        wide = self.size.width if self.wrap else max(self._width, self.size.width)
        self.virtual_size = Size(wide, self.source.count)
        digits = max(7, len(str(self.source.count)))  # 10 M lines and more stay aligned
        if digits != self._digits:
            self._digits = digits
            self._cache.clear()

    # -- keys and mouse ----------------------------------------------------------------------

    def on_resize(self) -> None:
        """The cursor stays on screen when the terminal shrinks."""
        self._reveal()

    def action_wrap(self) -> None:
        """``w``: wrap long lines inside the view, or scroll them sideways (the default)."""
        self.wrap = not self.wrap
        self.scroll_to(x=0, animate=False, immediate=True)
        self._sync_size()
        self._reveal()
        self.refresh()

    def action_open_line(self) -> None:
        if self.source.count:
            self.post_message(OpenLine(self.cursor))

    def action_cursor(self, delta: int) -> None:
        self.follow = False
        self.mark = None
        self.cursor = max(0, min(self.cursor + delta, self.source.count - 1))
        self._reveal()

    def action_page(self, direction: int) -> None:
        self.action_cursor(direction * max(1, self.scrollable_content_region.height - 1))

    def action_first(self) -> None:
        self.follow = False
        self.go_to(0)

    def action_last(self) -> None:
        """Go to the end and stay there while more lines arrive (as lnav does at the bottom)."""
        self.follow = True
        self.cursor = max(self.source.count - 1, 0)
        self.scroll_end(animate=False, immediate=True)

    def action_pan(self, cells: int) -> None:
        self.scroll_to(x=max(0, self.scroll_target_x + cells), animate=False, immediate=True)

    def on_click(self, event: events.Click) -> None:
        if self.wrap:
            shown = self._wrapped_layout()
            row = shown[event.y][0] if 0 <= event.y < len(shown) else self.source.count
        else:
            row = int(self.scroll_offset.y + event.y)
        if row < self.source.count:
            self.cursor = row

    def _reveal(self) -> None:
        """Scroll so the cursor row is inside the content region (never under a scrollbar)."""
        top, height = int(self.scroll_offset.y), self.scrollable_content_region.height
        if self.wrap and height:
            if self.cursor < top:
                self.scroll_to(y=self.cursor, animate=False, immediate=True)
            elif self.cursor not in {row for row, _ in self._wrapped_layout()[:height]}:
                self.scroll_to(
                    y=self._top_showing(self.cursor, height), animate=False, immediate=True
                )
            return
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif height and self.cursor >= top + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False, immediate=True)

    def _top_showing(self, row: int, height: int) -> int:
        """Wrap mode: the top row that puts ``row`` on the last screen lines."""
        used, top = len(self._parts(row)), row
        while top > 0 and used + len(self._parts(top - 1)) <= height:
            top -= 1
            used += len(self._parts(top))
        return top

    def watch_cursor(self, old: int, new: int) -> None:
        self.refresh()

    # -- rendering ---------------------------------------------------------------------------

    def _parts(self, row: int) -> list[Strip]:
        """Wrap mode: one row as the screen lines it takes at the view's width."""
        width = max(self.scrollable_content_region.width, 8)
        lines = self._shown_text(row).wrap(self.app.console, width, overflow="fold")
        return [Strip(list(line.render(self.app.console)), line.cell_len) for line in lines] or [
            Strip.blank(width)
        ]

    def _wrapped_layout(self) -> list[tuple[int, int]]:
        """Wrap mode: (row, part) of each screen line from the top row down."""
        height = self.scrollable_content_region.height
        out: list[tuple[int, int]] = []
        row = int(self.scroll_offset.y)
        while len(out) < height and row < self.source.count:
            out.extend((row, part) for part in range(len(self._parts(row))))
            row += 1
        return out[:height]

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.scrollable_content_region.width  # not under the scrollbar: "›" stays seen
        if self.wrap and self.source.count:
            if y == 0:
                self._rows_shown = self._wrapped_layout()
            if y >= len(self._rows_shown):
                return Strip.blank(width, self.rich_style)
            row, part = self._rows_shown[y]
            strip = self._parts(row)[part].crop_extend(0, width, self.rich_style)
            return strip.apply_style(CURSOR_STYLE) if row == self.cursor else strip
        if row >= self.source.count:
            if row == 0 and self.placeholder is not None:
                strip = Strip(list(self.placeholder.render(self.app.console)))
                return strip.crop_extend(0, width, self.rich_style)
            return Strip.blank(width, self.rich_style)
        text, style = self._shown_text(row), self.rich_style
        key = (row, int(scroll_x), width, row == self.cursor, style)
        drawn = self._strips.get(key)
        if drawn is not None and drawn[0] is text:  # the same Text object: nothing changed
            return drawn[1]
        strip, cells = self._visible(text, int(scroll_x), width, style)
        strip = edge_marks(strip, left=scroll_x > 0 and cells > 0, right=cells > scroll_x + width)
        if row == self.cursor:
            strip = strip.apply_style(CURSOR_STYLE)
        if len(self._strips) >= STRIP_CACHE:
            self._strips.clear()
        self._strips[key] = (text, strip)  # holding the Text keeps its id from being reused
        return strip

    def _visible(self, text: Text, left: int, width: int, style: Style) -> tuple[Strip, int]:
        """The row's cells [left, left + width) and how many cells the whole row has. A row of
        printable ASCII (one cell a character) is cut before it is drawn: a 20 kB line (a
        server_args dump) costs what its visible part does, not a cell count of every char."""
        if _one_cell_each(text.plain):
            shown = text[left : left + width] if left or len(text.plain) > width else text
            strip = Strip(list(shown.render(self.app.console)), len(shown.plain))
            return strip.crop_extend(0, width, style), len(text.plain)
        cells = text.cell_len
        strip = Strip(list(text.render(self.app.console)), cells)
        return strip.crop_extend(left, left + width, style), cells

    def _gutter_width(self) -> int:
        """Cells before a row's text: the file label (merged files) and the line number."""
        label = min(max(map(len, self.labels)), LABEL_MAX) + 1 if len(self.labels) > 1 else 0
        return label + self._digits + 1

    def _shown_text(self, row: int) -> Text:
        """The row as cached, plus the jump's mark on the cursor row (never cached)."""
        text = self._row_text(row)
        if self.mark is not None and row == self.cursor:
            text = text.copy()
            _highlight(text, self.mark, MARK_STYLE, self._gutter_width())
        return text

    def _row_text(self, row: int) -> Text:
        text = self._cache.get(row)
        if text is not None:
            return text
        file, line = self.source.locate(row)
        raw, cut = self.source.text(row)
        if self.redact:
            raw = masked(raw)
        body = self.styler.styled(
            raw, in_crash=(file, line) in self.crash_lines, colour=self.colour
        )
        if self.pattern is not None:
            _highlight(body, self.pattern, MATCH_STYLE)
        gutter = f"{line + 1:>{self._digits}} "
        if len(self.labels) > 1:
            width = min(max(map(len, self.labels)), LABEL_MAX)
            gutter = f"{self.labels[file][:width]:<{width}} {gutter}"
        text = Text.assemble((gutter, GUTTER_STYLE), body)
        if cut:
            text.append(f" … [+{cut} bytes]", CUT_STYLE)
        self._cache[row] = text
        if len(self._cache) > RENDER_CACHE:
            self._cache.popitem(last=False)
        cells = _cells(text)
        if cells > self._width:
            self._width = min(cells + 1, MAX_WIDTH)
            self.call_later(self._sync_size)
        return text


def _one_cell_each(plain: str) -> bool:
    return plain.isascii() and plain.isprintable()


def _cells(text: Text) -> int:
    """Cells the row takes; rich counts them a character at a time past 512 characters."""
    return len(text.plain) if _one_cell_each(text.plain) else text.cell_len


def _highlight(body: Text, pattern: Matchable, style: Style, start: int = 0) -> None:
    """Style every match of a user pattern in a row's text from ``start``; a pattern that
    takes too long on this row leaves it unhighlighted rather than holding the screen."""
    try:
        for m in pattern.finditer(body.plain, start, timeout=HIGHLIGHT_TIMEOUT_S):
            if m.end() > m.start():
                body.stylize(style, m.start(), m.end())
    except TimeoutError:
        return


def edge_marks(strip: Strip, *, left: bool, right: bool) -> Strip:
    """ "‹" / "›" on a row's edge cell when it goes on past that edge (h / l to scroll)."""
    width = strip.cell_length
    if width < 3:
        return strip
    start, end = int(left), width - int(right)
    parts = [Strip([Segment("‹", MORE_STYLE)], 1)] if left else []
    parts.append(strip.crop(start, end))
    if right:
        parts.append(Strip([Segment("›", MORE_STYLE)], 1))
    return Strip.join(parts) if len(parts) > 1 else strip
