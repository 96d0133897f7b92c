"""Native (C/C++) stack frames -> ``NativeFrame``, and what a frame run says about a crash.

A native abort prints its message once and its frames in one of a few shapes, each owned by
the code that printed it: glibc's ``backtrace_symbols`` (``lib.so(sym+0x1f) [0x7f..]``, also
under UCX's ``==== backtrace ====`` with an index in front), gdb's ``#3 0x.. in f () from lib``,
TensorRT-LLM's ``tensorrt_llm::common::TllmException`` (``3  0x7f.. symbol + 77``), c10's
``frame #0: c10::Error::Error(...) + 0x98 (0x7f.. in libc10.so)`` and OpenMPI's signal handler
(glibc's frames under ``[host:pid] [ 3] ``, in a report that names the signal). A frame run whose message
line was lost still says it is a crash when it passes through a thrower (``throwRuntimeError``,
``c10::Error``, ``torchCheckFail``, ``__assert_fail``, ``abort``): ``thrower`` names it and the
frame after the throw machinery says where it was thrown.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class NativeFrame:
    """One native frame, innermost first as printed. ``symbol`` is "" when the printer did not
    resolve it (``lib.so(+0x1a2b)``, ``<unknown function>``); ``module`` is the library or
    binary path when printed, else ""."""

    index: int | None
    symbol: str
    module: str
    address: str | None = None
    offset: str | None = None
    location: str | None = None  # "file.cpp:120" when gdb had debug info


# strsignal()'s words for the signals a crash dies of (faulthandler and OpenMPI print them)
SIGNALS = {
    "Segmentation fault": "SIGSEGV", "Aborted": "SIGABRT", "Bus error": "SIGBUS",
    "Floating point exception": "SIGFPE", "Illegal instruction": "SIGILL",
}  # fmt: skip
_HEX = r"0x[0-9a-fA-F]+"
# glibc: "/usr/lib/libc10.so(_ZN3c105ErrorC2E+0x98) [0x7f..]", "./prog() [0x..]", "lib.so(+0x1a)"
_GLIBC = re.compile(
    r"(?:(?P<index>\d{1,4})\s+)?(?P<module>[^\s()\[\]]+)\((?P<symbol>[^()\s+]*)(?:\+(?P<offset>"
    + _HEX
    + r"))?\)\s*\[(?P<address>"
    + _HEX
    + r")\]$"
)
# gdb: "#3  0x00007f.. in c10::f(int) () from /lib/libc10.so", "#0  f (x=1) at ./a.c:44"
_GDB = re.compile(r"#(?P<index>\d{1,4})\s+(?:(?P<address>" + _HEX + r") in )?(?P<rest>\S.*)$")
_GDB_TAIL = re.compile(r"\s+(?:from (?P<module>\S+)|at (?P<location>\S+:\d+))$")
# c10: "frame #0: c10::Error::Error(...) + 0x98 (0x7f.. in /x/libc10.so)"
_C10 = re.compile(
    r"frame #(?P<index>\d{1,4}): (?P<symbol>.+?)(?: \+ (?P<offset>" + _HEX + r"))?"
    r"(?: \((?P<address>" + _HEX + r") in (?P<module>[^()]+)\))?$"
)
# TensorRT-LLM: "3       0x7f1122336677 tensorrt_llm::runtime::Foo::bar() + 77"
_TLLM = re.compile(
    r"(?P<index>\d{1,4})\s+(?P<address>" + _HEX + r")\s+(?P<symbol>\S.*?)"
    r"(?:\s+\+\s+(?P<offset>(?:0x)?[0-9a-fA-F]+))?$"
)

# OpenMPI's signal handler (opal_show_stackframe) starts every line of its report with
# "[host:pid] " (the pid zero-padded to 5 digits) and numbers each frame "[ 3] "; a line
# two writers glued repeats both.
_OMPI = re.compile(r"\[[^\]\s:]{1,120}:\d{5,7}\] (?:\[\s*(?P<index>\d{1,4})\] )?")
# The rest of its report: the signal, its code and address, the closing line.
_OMPI_REPORT = re.compile(
    r"(?:\*\*\* (?:Process received signal|End of error message) \*\*\*|Signal(?: code)?: "
    r"|Failing at address: |Associated errno: |siginfo is NULL|Sending PID: |Band event: )"
)
_OMPI_SIGNAL = re.compile(r"Signal: (?P<name>[^()]+?)(?: \((?P<number>\d{1,2})\))?\s*$")

_LIBRARY = re.compile(r"[^\s()]*(?:/|\.so\b)[^\s()]*\([^()\s]*\)$")

# Frames of the throw / abort machinery itself, in the order a crash passes through them.
_THROWERS = (
    ("throwRuntimeError", "tensorrt_llm::common::TllmException"),
    ("TllmException::TllmException", "tensorrt_llm::common::TllmException"),
    ("torchCheckFail", "c10::Error"),
    ("torchInternalAssertFail", "c10::Error"),
    ("c10::Error::Error", "c10::Error"),
    ("_ZN3c105ErrorC", "c10::Error"),
    ("__assert_fail", "AssertionFailure"),
    ("ggml_abort", "GGML_ABORT"),
    ("__cxa_throw", "CppException"),
    ("std::terminate", "CppTerminate"),
    ("__verbose_terminate_handler", "CppTerminate"),
)
_ABORTS = ("abort", "__GI_abort", "raise", "__GI_raise", "gsignal", "__pthread_kill_implementation",
           "pthread_kill", "__pthread_kill_internal")  # fmt: skip
_MACHINERY = re.compile(
    r"c10::Error|c10::detail::|torch(?:Check|InternalAssert)Fail|throwRuntimeError|TllmException"
    r"|__cxa_throw|std::terminate|terminate_handler|__assert_fail|ggml_abort|ggml_print_backtrace"
    r"|^(?:__GI_)?(?:abort|raise)$|gsignal|pthread_kill|c10::get_backtrace|c10::.*Backtrace"
    r"|^_ZN3c10|^_ZN12tensorrt_llm6common"
)


# What gdb prints around a backtrace it was asked for (ggml_print_backtrace, a crash handler):
# thread notices, the current frame without its "#N", a missing source file, the detach.
_GDB_CHATTER = re.compile(
    r"\[(?:New (?:LWP|Thread) |Thread debugging using |Inferior \d+ \(process \d+\) detached)"
    r"|Using host libthread_db library |\d+\t.*: No such file or directory\.$|0x[0-9a-fA-F]+ in \S"
)


def is_backtrace_chatter(text: str) -> bool:
    """A line gdb (or OpenMPI's signal handler) prints around a backtrace: part of the crash
    it dumps, never a frame."""
    line = text.strip()
    if line.startswith("[") and (m := _OMPI.match(line)) is not None and m["index"] is None:
        return _OMPI_REPORT.match(line, m.end()) is not None
    return _GDB_CHATTER.match(line) is not None


def signal_report(lines: Iterable[str]) -> tuple[str, str] | None:
    """(type, message) of the signal an OpenMPI report names (``[h:1] Signal: Bus error (7)``
    -> ``("SIGBUS", "Bus error (7)")``); None when its ``Signal:`` line is not among them."""
    for text in lines:
        line = text.strip()
        m = _OMPI.match(line) if line.startswith("[") else None
        if m is None or m["index"] is not None:
            continue
        if (sig := _OMPI_SIGNAL.match(line, m.end())) is not None:
            name, number = sig["name"].strip(), sig["number"]
            return SIGNALS.get(name, "Signal"), f"{name} ({number})" if number else name
    return None


def signal_site(frames: Iterable[NativeFrame]) -> NativeFrame | None:
    """Where a signal hit, in a handler's numbered frames: frame 1 (0 is the trampoline the
    kernel returns through); None when the paste lost it."""
    return next((f for f in frames if f.index == 1 and (f.symbol or f.module)), None)


def parse_native_frame(text: str) -> NativeFrame | None:
    """One printed native frame, or None for any other line (cheap for non-frames)."""
    line = text.strip()
    if not line or ("0x" not in line and not line.startswith("#")):
        return None
    head = line[0]
    if head == "#":
        return _gdb(line)
    if head == "f" and line.startswith("frame #"):
        m = _C10.match(line)
        return _frame(m, symbol=_unknown(m["symbol"])) if m else None
    if head == "[":
        return _ompi(line)
    m = _GLIBC.match(line)
    if m is not None:
        return _frame(m, symbol=m["symbol"])
    m = _TLLM.match(line) if head.isdigit() else None
    if m is None:
        return None
    inner = _GLIBC.match(m["symbol"]) or (  # unresolved: "lib.so(+0x7e1d) [0x7f..]" or no [..]
        _GLIBC.match(f"{m['symbol']} [{m['address']}]") if _LIBRARY.match(m["symbol"]) else None
    )
    if inner is not None:
        return _frame(inner, symbol=inner["symbol"], index=int(m["index"]))
    return _frame(m, symbol=m["symbol"])


def _ompi(line: str) -> NativeFrame | None:
    """``[host:pid] [ 3] lib.so(sym+0x1a)[0x7f..]``: glibc's frame under OpenMPI's prefix."""
    index = None
    while (m := _OMPI.match(line)) is not None and m["index"] is not None:
        index, line = int(m["index"]), line[m.end() :]
    m = _GLIBC.match(line) if index is not None else None
    return _frame(m, symbol=m["symbol"], index=index) if m else None


def _unknown(symbol: str) -> str:
    return "" if symbol.startswith("<unknown") else symbol


def _frame(m: re.Match[str], *, symbol: str, index: int | None = None) -> NativeFrame:
    groups = m.groupdict()
    number = groups.get("index")
    return NativeFrame(
        index=index if index is not None else (int(number) if number else None),
        symbol=symbol.strip(),
        module=(groups.get("module") or "").strip(),
        address=groups.get("address"),
        offset=groups.get("offset"),
    )


def _gdb(line: str) -> NativeFrame | None:
    m = _GDB.match(line)
    if m is None:
        return None
    rest, module, location = m["rest"], "", None
    tail = _GDB_TAIL.search(rest)
    if tail is not None:
        module, location = tail["module"] or "", tail["location"]
        rest = rest[: tail.start()]
    if rest.endswith(")") and " (" in rest:
        rest = rest.rsplit(" (", 1)[0]  # gdb separates the function from its arguments by a space
    elif m["address"] is None:
        return None  # "#3 some text": a Markdown heading or a numbered note, not a frame
    symbol = "" if rest in ("??", "<unknown>") else rest
    return NativeFrame(int(m["index"]), symbol, module, m["address"], None, location)


def native_frames(lines: Iterable[str]) -> tuple[NativeFrame, ...]:
    """Every native frame among the lines, in print order."""
    out = []
    for text in lines:
        frame = parse_native_frame(text)
        if frame is not None:
            out.append(frame)
    return tuple(out)


def thrower(frames: Iterable[NativeFrame]) -> str | None:
    """The exception type the frames' throw machinery names ("c10::Error"), or "SIGABRT" for a
    bare abort; None when the frames pass through neither (a stack that was only sampled)."""
    symbols = [_name(f.symbol) for f in frames]
    for needle, kind in _THROWERS:
        if any(needle in s for s in symbols):
            return kind
    return "SIGABRT" if any(s in _ABORTS for s in symbols) else None


def thrown_in(frames: Iterable[NativeFrame]) -> NativeFrame | None:
    """The first frame past the throw / abort machinery (innermost first): where the failing
    check ran; unresolved frames count (``libggml-cuda.so+0x2c3d4`` still names a library)."""
    listed = list(frames)
    last = max((i for i, f in enumerate(listed) if _MACHINERY.search(_name(f.symbol))
                and f.symbol), default=-1)  # fmt: skip
    return next((f for f in listed[last + 1 :] if f.symbol or f.module), None)


def frame_text(frame: NativeFrame) -> str:
    """``symbol`` when resolved, else ``libname.so+0x2c3d4``."""
    if frame.symbol:
        return _name(frame.symbol)
    name = frame.module.rsplit("/", 1)[-1] or "?"
    return f"{name}+{frame.offset}" if frame.offset else name


def _name(symbol: str) -> str:
    """``c10::Error::Error(c10::SourceLocation, std::string)`` -> ``c10::Error::Error``."""
    return symbol.split("(", 1)[0].strip() if not symbol.startswith("(") else symbol
