"""One log line -> safe rich Text coloured by meaning (rank tag, level, noise, crash).

Log text is untrusted: it becomes ``Text`` (never markup), only SGR colour survives from ANSI,
OSC sequences (hyperlinks, titles) are dropped and any other control byte is shown as ``?``.
"""

from __future__ import annotations

import re

from rich.style import Style
from rich.text import Text

_OSC = re.compile(r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?")
_CSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")
_SGR_ONLY = re.compile(r"\x1b\[[0-9;]*m")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")

# SGLang "[2026-02-27 21:00:18 DP0 TP7]", vLLM "(Worker_TP1 pid=12)", torchrun "[rank6]:".
_RANK = re.compile(
    r"^\[\d{4}-\d\d-\d\d [\d:.]+ ((?:(?:DP|PP|TP|EP|ATTN_CP|MOE_DP)\d+ ?)+)\]"
    r"|^\((\w+?) pid=\d+[^)]*\)"
    r"|^\[(rank\d+)\]:"
)
_LEVEL = re.compile(r"\b(DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL)\b")
_CRASHY = re.compile(
    r"Traceback \(most recent call last\)|^\s*File \".*\", line \d+|^\w+(?:\.\w+)*(?:Error|Exception):"
    r"|hit an exception|Fatal Python error|Received sigquit|SIGQUIT received|crashed with exit code"
    r"|CUDA error|illegal memory access|Watchdog caught collective operation timeout"
)
_BENIGN = re.compile(
    r"Ignore import error when loading|Loading safetensors checkpoint shards|Capturing batches"
    r"|Load weight (?:begin|end)|Init torch distributed|Using default HuggingFace chat template"
    r"|\bINFO:\s+127\.0\.0\.1|UserWarning|FutureWarning|NCCL INFO"
)

RANK_STYLE = Style(color="cyan", bold=True)
LEVEL_STYLES = {
    "ERROR": Style(color="red", bold=True), "CRITICAL": Style(color="red", bold=True),
    "FATAL": Style(color="red", bold=True), "WARNING": Style(color="yellow"),
    "WARN": Style(color="yellow"), "DEBUG": Style(dim=True),
}
CRASH_STYLE = Style(color="bright_white", bgcolor="rgb(95,0,0)")
CRASHY_STYLE = Style(color="red")
BENIGN_STYLE = Style(dim=True)


def rank_of(text: str) -> str | None:
    """The rank label in a line's header ("TP7", "DP0 TP3", "Worker_TP1", "rank6"), if any."""
    m = _RANK.match(plain(text))
    if m is None:
        return None
    return next(g for g in m.groups() if g).strip()


def plain(text: str) -> str:
    """The line as a user reads it: escapes removed, control bytes shown as '?'."""
    if "\x1b" in text:
        text = _CSI.sub("", _OSC.sub("", text))
    return _CONTROL.sub("?", text)


def to_text(raw: str, *, colour: bool = True) -> Text:
    """Safe Text of a raw line, keeping the log's own SGR colours when ``colour``."""
    if "\x1b" not in raw or not colour:
        return Text(plain(raw).expandtabs(8))
    kept = _OSC.sub("", raw)
    kept = _CSI.sub(lambda m: m.group(0) if _SGR_ONLY.fullmatch(m.group(0)) else "", kept)
    kept = _CONTROL.sub(lambda m: m.group(0) if m.group(0) == "\x1b" else "?", kept)
    text = Text.from_ansi(kept.replace("\t", "    "), end="")
    text.plain = text.plain.replace("\x1b", "?")
    return text


def styled(raw: str, *, in_crash: bool, colour: bool = True) -> Text:
    """A display line: rank tag, level, crash and noise styles laid over the safe text."""
    text = to_text(raw, colour=colour)
    line = text.plain
    if in_crash:
        text.stylize(CRASH_STYLE)
    elif _BENIGN.search(line):
        text.stylize(BENIGN_STYLE)
    elif _CRASHY.search(line):
        text.stylize(CRASHY_STYLE)
    m = _RANK.match(line)
    if m is not None:
        group = next(i for i, g in enumerate(m.groups(), 1) if g)
        text.stylize(RANK_STYLE, m.start(group), m.end(group))
    level = _LEVEL.search(line, 0, 120)
    if level is not None and level.group(1) in LEVEL_STYLES:
        text.stylize(LEVEL_STYLES[level.group(1)], level.start(1), level.end(1))
    return text
