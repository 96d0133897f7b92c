"""What a single line of a traceback says: its start, its exception, the line that announces it."""

from __future__ import annotations

import re

from spectrace.dialects.base import LogLine

TB_START = "Traceback (most recent call last):"
CHAIN_MARKERS = {
    "During handling of the above exception, another exception occurred:": "context",
    "The above exception was the direct cause of the following exception:": "cause",
}
CUT_MIN = 14  # "Traceback (mos": a wrapped start shorter than this is too weak a sign
_EXC = re.compile(r"(?P<type>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?::(?: ?(?P<msg>.*))?)?$")
_LOWER_SUFFIXES = ("error", "exception", "timeout", "exit", "interrupt")
EXCEPTION_SUFFIXES = ("Error", "Exception", "Interrupt", "Exit", "Iteration", "Warning", "Timeout")
# Lines Python (or sglang <= 0.3) prints right before a traceback, with no logger header:
# multiprocessing's "Process X:", "Exception ignored in: ...", threading's "Exception in thread
# Thread-3 (forward_thread_func):", sglang's "Exception in ModelTpServer:".
_RAW_HEADER = re.compile(r"Process [\w.-]+:|Exception ignored in: .+|Exception in [^:]{1,200}:")
# A shell reporting a child killed by a signal (zh_CN locales too): the killed process wrote no
# traceback, so the traceback below it is another process's (the parent's) reaction.
SHELL_DEATH = re.compile(
    r"(?:\d+ )?(?:Killed|Segmentation fault|Aborted|已杀死|段错误|已放弃)(?: \(core dumped\)|（核心已转储）)?"
)


def parse_exception(text: str) -> tuple[str, str] | None:
    """``Type: message`` at column 0 -> (type, message); a bare name must look like an exception."""
    m = _EXC.match(text)
    if m is None:
        return None
    etype, msg = m.group("type"), m.group("msg")
    if msg is None and ":" not in text and not etype.endswith(EXCEPTION_SUFFIXES):
        return None
    name = etype.rsplit(".", 1)[-1]
    if not name[0].isupper() and not name.lower().endswith(_LOWER_SUFFIXES):
        return None  # "self.comm: T = ..." is code that lost its indent (socket.timeout is not)
    if name[0].islower() and not name.islower():
        return None  # "imeError: ..." is the rest of a cut line (lower-case names are all lower)
    return etype, (msg or "").strip()


_INLINE = re.compile(r"(?:[A-Z][\w ]{0,30}:\s*)?`(?P<code>[^`]+)`[.:]?")


def unquoted(text: str) -> str:
    """The exception line a Markdown report quoted in inline code (``Error: `KeyError: 3` ``,
    a line of its own); other text as it is (an exception named inside prose stays prose)."""
    m = _INLINE.fullmatch(text.strip())
    if m is None:
        return text
    code = m.group("code").strip()
    return code if ":" in code and parse_exception(code) is not None else text


def starts_traceback(text: str) -> bool:
    """``Traceback (most recent call last):`` ends the line (after a header such as
    ``Scheduler hit an exception: ``); quoted inside a request repr, it does not."""
    return tb_start(text) >= 0


def tb_start(text: str) -> int:
    """Where the line's closing ``Traceback (most recent call last):`` starts, -1 if none;
    a terminal copy may have wrapped the line inside it (``... Traceback (most rec``)."""
    body = text.rstrip()
    if body.endswith(TB_START):
        return len(body) - len(TB_START)
    idx = body.rfind("Traceback (", max(len(body) - len(TB_START), 0))
    if idx >= 0 and len(body) - idx >= CUT_MIN and TB_START.startswith(body[idx:]):
        return idx
    return -1


def announces(prev: LogLine, line: LogLine) -> bool:
    """The line before a bare "Traceback" is its message: same vLLM call, an error-level header,
    a headed line ending in ':' (``logger.error(f"...:\n{traceback}")``), or a line Python
    prints itself (``Process EngineCore_DP0:``, ``Exception ignored in: <function ...>``)."""
    if not prev.text.strip() or prev.text.strip() in CHAIN_MARKERS:
        return False  # a cut chain: the link before this one was lost
    if prev.group is not None:
        return prev.group == line.group
    if prev.lineno != line.lineno - 1:
        return False
    if not prev.headed:
        return _RAW_HEADER.fullmatch(prev.text.strip()) is not None
    return prev.level in ("ERROR", "CRITICAL") or prev.text.rstrip().endswith(":")


_DETAIL = re.compile(r"- [A-Z][\w ]{0,30}: \S")  # "- Root cause: ..." under the exception line


def exception_message(first: str, more: list[str]) -> str:
    """The exception's message, or its first wordy continuation line (not a ==== rule); a
    ``- Root cause: ...`` detail under it (tvm_ffi's checks) says what failed, so it joins."""
    if first:
        details = [m.strip() for m in more if _DETAIL.match(m.strip())]
        return " ".join([first, *details]) if details else first
    return next((m.strip() for m in more if m.strip().strip("=-*_#~ ")), "")
