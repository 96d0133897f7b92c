"""The log view: a Line API widget that renders only the visible rows of any LineSource."""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Sequence

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from spectrace.tui.linestyle import LineStyler
from spectrace.tui.timeline import LineSource

RENDER_CACHE = 2000
CURSOR_STYLE = Style(bgcolor="rgb(40,60,90)")
GUTTER_STYLE = Style(color="rgb(110,110,110)")
MATCH_STYLE = Style(color="black", bgcolor="yellow")
CUT_STYLE = Style(reverse=True, dim=True)
MORE_STYLE = Style(color="black", bgcolor="rgb(170,170,170)", bold=True)
MAX_WIDTH = 10_000
LABEL_MAX = 16


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
        self.pattern: re.Pattern[str] | None = None
        self.follow = False
        self.colour = True
        self._cache: OrderedDict[int, Text] = OrderedDict()
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

    def set_pattern(self, pattern: re.Pattern[str] | None) -> None:
        self.pattern = pattern
        self._cache.clear()
        self.refresh()

    def position(self) -> tuple[int, int] | None:
        """(file, line) under the cursor, or None when empty."""
        return self.source.locate(self.cursor) if self.source.count else None

    def go_to(self, row: int) -> None:
        """Put the cursor on ``row`` and scroll it into the middle of the view."""
        self.cursor = max(0, min(row, self.source.count - 1))
        self.scroll_to(y=max(0, self.cursor - self.size.height // 3), animate=False, immediate=True)

    def _sync_size(self) -> None:
        """Match the scrollable size to the rows and the widest row rendered so far."""
        self.virtual_size = Size(max(self._width, self.size.width), self.source.count)
        digits = max(7, len(str(self.source.count)))  # 10 M lines and more stay aligned
        if digits != self._digits:
            self._digits = digits
            self._cache.clear()

    # -- keys and mouse ----------------------------------------------------------------------

    def action_cursor(self, delta: int) -> None:
        self.follow = False
        self.cursor = max(0, min(self.cursor + delta, self.source.count - 1))
        self._reveal()

    def action_page(self, direction: int) -> None:
        self.action_cursor(direction * max(1, self.size.height - 1))

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
        row = int(self.scroll_offset.y + event.y)
        if row < self.source.count:
            self.cursor = row

    def _reveal(self) -> None:
        top, height = int(self.scroll_offset.y), self.size.height
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif height and self.cursor >= top + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False, immediate=True)

    def watch_cursor(self, old: int, new: int) -> None:
        self.refresh()

    # -- rendering ---------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.scrollable_content_region.width  # not under the scrollbar: "›" stays seen
        if row >= self.source.count:
            if row == 0 and self.placeholder is not None:
                strip = Strip(list(self.placeholder.render(self.app.console)))
                return strip.crop_extend(0, width, self.rich_style)
            return Strip.blank(width, self.rich_style)
        text = self._row_text(row)
        strip = Strip(list(text.render(self.app.console)), text.cell_len)
        strip = edge_marks(
            strip.crop_extend(scroll_x, scroll_x + width, self.rich_style),
            left=scroll_x > 0 and text.cell_len > 0,
            right=text.cell_len > scroll_x + width,
        )
        if row == self.cursor:
            strip = strip.apply_style(CURSOR_STYLE)
        return strip

    def _row_text(self, row: int) -> Text:
        text = self._cache.get(row)
        if text is not None:
            return text
        file, line = self.source.locate(row)
        raw, cut = self.source.text(row)
        body = self.styler.styled(
            raw, in_crash=(file, line) in self.crash_lines, colour=self.colour
        )
        if self.pattern is not None:
            body.highlight_regex(self.pattern, MATCH_STYLE)
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
        if text.cell_len > self._width:
            self._width = min(text.cell_len + 1, MAX_WIDTH)
            self.call_later(self._sync_size)
        return text


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
