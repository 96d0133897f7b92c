"""Raw line -> LogLine: normalise, peel wrappers, try each dialect (last winner first)."""

from __future__ import annotations

from datetime import datetime

from spectrace.dialects._time import YEARLESS
from spectrace.dialects.base import Dialect, Header, LogLine
from spectrace.dialects.c10 import C10Dialect
from spectrace.dialects.gutter import Gutter
from spectrace.dialects.paste import quoted, uncolour, unhtml, unjson, unpaste
from spectrace.dialects.pylogging import PyLoggingDialect
from spectrace.dialects.ray import RayDialect
from spectrace.dialects.sglang import SGLangDialect
from spectrace.dialects.trtllm import TrtllmDialect
from spectrace.dialects.uvicorn import UvicornDialect
from spectrace.dialects.vllm import VllmDialect
from spectrace.dialects.wrappers import Peeled, peel, unglue
from spectrace.textsafe import ESCAPES, scrub

# Adding a dialect: write its module, add an instance here.
REGISTRY: tuple[Dialect, ...] = (
    SGLangDialect(),
    VllmDialect(),
    UvicornDialect(),
    C10Dialect(),
    TrtllmDialect(),
    PyLoggingDialect(),
    RayDialect(),
)
MAX_LINE = 64 * 1024  # characters kept per line; the rest is dropped (a read issue upstream)
WRAPPER_ROOM = 512  # start of an over-long redraw line kept for its wrappers and header
MISS_CACHE = 4096  # lines remembered per input (then forgotten at once)
MISS_TEXT = 512  # longer texts are not remembered (the cache stays under about 2 MB)


def normalise(raw: bytes) -> str:
    """``normalised``'s text."""
    return normalised(raw)[0]


def normalised(raw: bytes) -> tuple[str, bool]:
    """Bytes of one physical line -> printable text: UTF-8 with replacement, out of docker's JSON
    (``unjson``) and HTML entities (``unhtml``), no ANSI (also shown as text: ``uncolour``) or
    controls, no copy-paste marks (``unpaste``).

    ``\r`` redraws stay in (see ``last_redraw``): wrappers are peeled off the line's start
    first. Over MAX_LINE, the start is kept, or for redraws the start's wrappers and the tail.
    With it, whether a Markdown or e-mail quote mark was taken off (``paste.quoted``).
    """
    body = raw.rstrip(b"\r\n")
    if len(body) > MAX_LINE:
        cr = body.rfind(b"\r")
        tail = body[max(cr + 1, len(body) - MAX_LINE) :]
        body = body[:MAX_LINE] if cr < 0 else body[:WRAPPER_ROOM] + b"\r" + tail
    text = unhtml(unjson(body.decode("utf-8", errors="replace")))
    if "\x1b" in text:
        text = ESCAPES.sub("", text)
    if "[" in text and ("[0m" in text or "^[[" in text):
        text = uncolour(text)
    text = scrub(text, "", keep="\r")
    return unglue(unpaste(text)), quoted(text)


def last_redraw(text: str) -> str:
    """tqdm redraws: only the last painted state is what the reader saw."""
    if "\r" not in text:
        return text
    return next((seg for seg in reversed(text.split("\r")) if seg.strip()), "")


class Detector:
    """Tries dialects in order and promotes the one that matched (toolong's FormatParser)."""

    def __init__(self, dialects: tuple[Dialect, ...] = REGISTRY) -> None:
        self._order = list(dialects)
        # texts no dialect takes (traceback frames repeat thousands of times in a crash storm);
        # dialects are pure, so a miss stays a miss whatever the order
        self._misses: set[str] = set()

    def detect_indented(self, text: str) -> tuple[Header | None, int]:
        """A header, also one a paste indented as a whole; with the columns it was moved by."""
        header = self.detect(text)
        if header is not None or text[:1] not in (" ", "\t"):
            return header, 0
        stripped = text.lstrip(" \t")
        header = self.detect(stripped) if stripped else None
        return header, (len(text) - len(stripped) if header is not None else 0)

    def detect(self, text: str) -> Header | None:
        if text in self._misses:
            return None
        for i, dialect in enumerate(self._order):
            header = dialect.parse(text)
            if header is not None:
                if i:
                    self._order.insert(0, self._order.pop(i))
                return header
        if len(text) <= MISS_TEXT:
            if len(self._misses) >= MISS_CACHE:
                self._misses.clear()
            self._misses.add(text)
        return None


def _join(*parts: str | None) -> str:
    return "|".join(part for part in parts if part)


def _outer(p: Peeled) -> str:
    """The writer as the wrappers name it: container or host, process, torchrun rank."""
    return _join(p.container, p.host, p.proc, p.torch_rank)


class LineParser:
    """Attributes each line to a stream; headerless lines join the last headed stream."""

    def __init__(self, source: str, detector: Detector | None = None) -> None:
        self.source = source
        self._detector = detector or Detector()
        self._last: dict[str, tuple[str, str | None]] = {}  # wrapper tags -> last stream, rank
        self._writers: dict[str, set[str]] = {}  # wrapper tags -> headed streams seen
        # CRI "P" records waiting for their end: container -> (text, raw, lineno, offset)
        self._partial: dict[str | None, tuple[str, str, int, int]] = {}
        self._year: int | None = None  # the last year a stamp printed, for year-less stamps
        self._month = 0  # month of the last stamp, to see a year-less log cross New Year
        self._rollover = 0  # New Years crossed since the last printed year
        # short raw line -> its text, wrappers, and whether a quote mark was taken off
        self._peeled: dict[bytes, tuple[str, Peeled, bool]] = {}
        self._gutter = Gutter()  # a viewer's line numbers before every line of a paste
        self._ps2 = -1  # the number of a line of the writer's own that ended in a backslash

    def _peel(self, raw: bytes, lineno: int | None = None) -> tuple[str, Peeled, bool]:
        """``normalised`` and ``peel`` of a raw line, once per distinct short line (both pure);
        then a line-number gutter, which depends on the line's number, not its text."""
        known = self._peeled.get(raw)
        if known is None:
            text, mark = normalised(raw)
            known = text, peel(text), mark
            if len(raw) <= MISS_TEXT:
                if len(self._peeled) >= MISS_CACHE:
                    self._peeled.clear()
                self._peeled[raw] = known
        if cut := self._gutter.cut(known[0], lineno):
            text = known[0][cut:]
            return text, peel(text), known[2]
        return known

    @property
    def pending(self) -> bool:
        """True while a CRI partial line waits for the record that completes it."""
        return bool(self._partial)

    def remember(self, raw: bytes) -> bool:
        """Take a skipped line's writer as the last headed stream; False when it has no header."""
        peeled = self._peel(raw)[1]
        body = last_redraw(peeled.text)
        header = self._detector.detect_indented(body)[0] if body else None
        if header is None or header.anonymous:
            return False
        self._dated(header.ts)
        outer = _outer(peeled)
        stream = _join(outer, header.stream)
        self._saw(peeled, outer, stream, header.rank or peeled.torch_rank or peeled.proc_name)
        return True

    def _saw(self, p: Peeled, outer: str, stream: str, rank: str | None) -> None:
        """Remember the writer per wrapper tags and per container (for untagged lines)."""
        for key in {outer, f"\0{p.container or p.host or ''}"}:
            self._last[key] = (stream, rank)
            self._writers.setdefault(key, set()).add(stream)

    def parse(self, raw: bytes, lineno: int, offset: int) -> LogLine:
        """Never raises: junk becomes a plain, headerless line."""
        text, peeled, mark = self._peel(raw, lineno)
        mark = mark and self._ps2 != lineno - 1  # "> " under "cmd \\": the shell's PS2 prompt
        self._ps2 = lineno if not mark and text.rstrip().endswith("\\") else -1
        body = last_redraw(peeled.text)
        text = text[: peeled.lead] + body
        if (start := self._partial.pop(peeled.container, None)) is not None:
            body, text = start[0] + body, start[1] + body  # the record starts at its first part
            lineno, offset = start[2], start[3]
        if peeled.partial:
            self._partial[peeled.container] = (body[:MAX_LINE], text[:MAX_LINE], lineno, offset)
            body = ""
        header, indent = self._detector.detect_indented(body) if body else (None, 0)
        if header is not None:
            return self._headed(text, peeled, header, (lineno, offset, indent), mark)
        return self._unheaded(text, body, peeled, (lineno, offset), mark)

    def _headed(
        self, raw: str, p: Peeled, h: Header, at: tuple[int, int, int], quoted: bool
    ) -> LogLine:
        lineno, offset, indent = at
        if h.anonymous:
            stream, rank, inferred = self._writer(p)
        else:
            outer = _outer(p)
            stream, rank, inferred = _join(outer, h.stream), h.rank or p.torch_rank, False
            rank = rank or p.proc_name
            self._saw(p, outer, stream, rank)
        stamp = p.ts if h.ts is None else h
        ts = self._dated(stamp.ts if stamp else None)
        return LogLine(
            source=self.source, lineno=lineno, offset=offset, text=h.text, raw=raw,
            dialect=h.dialect, stream=stream, rank=rank,
            ts=ts, ts_text=stamp.ts_text if stamp else None,
            level=h.level, headed=True, group=h.group, inferred=inferred, indent=indent,
            node=p.host or p.container, quoted=quoted,
        )  # fmt: skip

    def _dated(self, ts: datetime | None) -> datetime | None:
        """Give a year-less stamp the year last seen in this input, +1 after each Dec -> Jan."""
        if ts is None:
            return None
        rolled = self._month == 12 and ts.month == 1
        self._month = ts.month
        if ts.year != YEARLESS:
            self._year, self._rollover = ts.year, 0
            return ts
        self._rollover += rolled
        try:
            return ts.replace(year=(self._year or YEARLESS) + self._rollover)
        except ValueError:  # 29 February in a non-leap year
            return ts

    def _writer(self, p: Peeled) -> tuple[str, str | None, bool]:
        """(stream, rank, inferred) of a line that names no writer itself.

        A wrapper tag names the writer, unless headed lines under it named inner writers
        (SGLang ranks inside one Ray actor); then, as with no tag, the last header is a guess.
        """
        outer = _outer(p)
        tagged = bool(p.proc or p.torch_rank)
        key = outer if tagged else f"\0{p.container or p.host or ''}"
        last = self._last.get(key)
        if tagged and (last is None or last[0] == outer):
            return outer, p.torch_rank or p.proc_name, False
        stream, rank = last if last is not None else (outer, None)
        if len(self._writers.get(key, ())) > 1:
            rank = None  # several writers: the last header is a guess, not a rank
        return stream, rank, True

    def _unheaded(
        self, raw: str, body: str, p: Peeled, at: tuple[int, int], quoted: bool
    ) -> LogLine:
        """A headerless line: continuation of the last writer's record, or a wrapper's own."""
        lineno, offset = at
        stream, rank, inferred = self._writer(p)
        dialect = "torchrun" if p.torch_rank else "vllm" if p.proc else "plain"
        return LogLine(
            source=self.source, lineno=lineno, offset=offset, text=body, raw=raw,
            dialect=dialect, stream=stream, rank=rank,
            ts=self._dated(p.ts.ts) if p.ts else None, ts_text=p.ts.ts_text if p.ts else None,
            headed=False, inferred=inferred, node=p.host or p.container, quoted=quoted,
        )  # fmt: skip
