"""Crash logs written from the path tables themselves: for each ``[[frame]]`` row of
rules/paths/*.toml, a crash whose speculative frame is that row's file, in each stack format
users paste (issue 11: "a log nobody here has seen still lands on a known frame").

The expectation comes from the row, never from a verdict written here: a row that names a
worker decides it (the class of the stated release's span where the file's class changed by
release; without a release, a condition naming every class it held); a row that only informs
(shared code, a kernel, an event loop that proves the path only for an EAGLE-family run) may
decide no class its file does not define. Every line is ours, in the frameworks' formats.
Used by tests/linker/test_frame_forms.py (a sample) and benchmarks/frame_sweep.py (all).
"""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from spectrace.assemblers.vllm_release import parse_release
from spectrace.assemblers.sglang_eras import shared_rules
from spectrace.assemblers.spec_prose import eagle_family
from spectrace.path_frames import (
    FrameSignature,
    class_bases,
    frame_signatures,
    renamed,
    symbol_signatures,
)
from spectrace.worker_path import WorkerPath

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
from path_tables.hand import HAND_FRAMES  # noqa: E402  (a hand row's real file in its tree)

SITE = "/usr/local/lib/python3.12/dist-packages/"
# where a source checkout holds each framework's package
CHECKOUT = {"sglang": "/home/dev/sglang/python/", "vllm": "/workspace/vllm/",
            "trtllm": "/code/TensorRT-LLM/", "vllm_ascend": "/vllm-workspace/vllm-ascend/"}  # fmt: skip
# the tracker a copied issue page names in its title
TRACKER = {"sglang": "sgl-project/sglang", "vllm_ascend": "vllm-project/vllm-ascend",
           "trtllm": "NVIDIA/TensorRT-LLM"}  # fmt: skip
_PACKAGE = {"sglang": "sglang/srt/", "vllm": "vllm/", "trtllm": "tensorrt_llm/", "vllm_ascend": ""}
_HAND = {(fw, suffix, function): scanned for fw, suffix, _p, _w, _what, function, _n, scanned
         in HAND_FRAMES if scanned}  # fmt: skip
_HAND_ROOT = {"sglang": "sglang/", "vllm": "vllm/", "trtllm": ""}
TORCH = ("torch/nn/modules/module.py", 1751, "_call_impl", "return forward_call(*args, **kwargs)")
THREAD = ("/usr/lib/python3.12/threading.py", 1075, "_bootstrap_inner", "self.run()")
ERROR = "RuntimeError: CUDA error: an illegal memory access was encountered"


@dataclass(frozen=True, slots=True)
class Expect:
    """What the row lets the verdict be: ``decide`` the one class a deciding row names (None
    where it names a condition or only informs), ``condition`` the classes a condition must
    hold, ``allowed`` every class the file may decide."""

    decide: str | None
    condition: tuple[str, ...]
    allowed: frozenset[str]
    shared: bool = False  # other algorithms' workers run the file too: a condition holding
    # ``decide`` is right where the log names no algorithm


@dataclass(frozen=True, slots=True)
class FrameCase:
    row: FrameSignature
    form: str
    release: str  # the release the log states ("" none)
    lines: tuple[str, ...]
    expect: Expect

    @property
    def key(self) -> str:
        fn = f"::{self.row.function}" if self.row.function else ""
        return f"{self.row.framework}:{self.row.name}{fn}|{self.form}|{self.release or '-'}"


def package_path(row: FrameSignature) -> str:
    """The row's file as its package holds it (``sglang/srt/speculative/eagle_worker.py``)."""
    scanned = _HAND.get((row.framework, row.name, row.function or ""))
    if scanned is not None:
        return _HAND_ROOT.get(row.framework, "") + scanned
    if row.framework == "sglang" and "/" not in row.name:
        return "sglang/srt/speculative/" + row.name
    root = _PACKAGE.get(row.framework, "")
    return row.name if row.name.startswith(root.split("/")[0] + "/") else root + row.name


def frame_path(row: FrameSignature, style: str) -> str:
    """The frame's file as a traceback prints it: installed, a source checkout, elided."""
    own = package_path(row)
    if style == "checkout":
        return CHECKOUT.get(row.framework, "/src/") + own
    if style == "elided":
        return ".../" + own
    return SITE + own


def _spans(row: FrameSignature) -> tuple[tuple[str, str, str], ...]:
    return row.workers if row.workers else ((row.worker_class or "", *row.releases),)


def expectation(row: FrameSignature, release: str) -> Expect:
    """What the row allows for a log stating ``release`` (or none)."""
    allowed = frozenset({*row.classes, *(c for s in row.workers for c in s[0].split("|") if c),
                         *([row.worker_class] if row.worker_class else []),
                         *_family_workers(row)})  # fmt: skip
    if row.points_to is None or row.needs_spec or not row.worker_class:
        return Expect(None, (), allowed)
    if not renamed(row):
        return Expect(row.worker_class, (), allowed, _shared(row))
    spans = [s for s in row.workers if _within(release, s[1], s[2])] if release else []
    if len(spans) == 1 and spans[0][0] and "|" not in spans[0][0]:
        return Expect(spans[0][0], (), allowed)
    held = spans[0][0] if len(spans) == 1 else "|".join(s[0] for s in row.workers if s[0])
    return Expect(None, tuple(sorted({c for c in held.split("|") if c})), allowed)


def _family_workers(row: FrameSignature) -> set[str]:
    """The workers the framework's rows give the row's family (a family's own kernel or helper
    file names the family's worker of the run's release)."""
    families = {row.family, *(["EAGLE"] if row.framework == "sglang" and eagle_family(row.family)
                               else [])}  # EAGLE3 / NEXTN run EAGLE's workers  # fmt: skip
    return {s.worker_class for s in frame_signatures() if row.family and s.family in families
            and s.framework == row.framework and s.worker_class}  # fmt: skip


def _shared(row: FrameSignature) -> bool:
    """Another algorithm's workers run the row's file ([[shared]] rows of sglang_eras.toml) or
    subclass its class (the table's ``bases``): its class alone needs the algorithm."""
    subclasses = any(row.worker_class in bases and cls != row.worker_class
                     for cls, bases in class_bases(row.framework).items())  # fmt: skip
    return row.framework == "sglang" and (subclasses or any(
        row.name == r.file or row.name.endswith("/" + r.file) for r in shared_rules()))


def _within(release: str, first: str, last: str) -> bool:
    at, low, high = parse_release(release), parse_release(first), parse_release(last)
    return None not in (at, low, high) and low <= at <= high  # type: ignore[operator]


def release_line(framework: str, release: str) -> str | None:
    """The line a report states the framework's release with (check_env, the server's own
    start-up line, pip freeze, TensorRT-LLM's banner); None where no reader states it."""
    number = release.removeprefix("v")
    return {
        "sglang": f"sglang: {number}",
        "vllm": f"INFO 12-01 09:59:00 [api_server.py:1839] vLLM API server version {number}",
        "vllm_ascend": f"vllm_ascend=={number}",
        "trtllm": f"[TensorRT-LLM] TensorRT-LLM version: {number or '1.0.0'}",
    }.get(framework)


def releases_of(row: FrameSignature, every: bool) -> list[str]:
    """The releases a row's cases state: none, then the newest its file was in (each span's
    first and last where its class changed by release, with ``every``)."""
    if release_line(row.framework, "") is None:
        return [""]
    if row.framework == "trtllm":
        return ["", "1.0.0"]
    if every and row.workers:
        found = {r for s in row.workers for r in (s[1], s[2])}
        return ["", *sorted(found)]
    return ["", row.releases[1]] if row.releases[1] else [""]


# --- the stack formats -------------------------------------------------------------------


Frame = tuple[str, int, str, str]  # (file, line, function, code)


def _frames(row: FrameSignature, style: str) -> list[Frame]:
    """Outermost first: a thread's entry, the row's frame, torch's module call."""
    code = "out = self._impl(batch)"
    return [THREAD, (frame_path(row, style), 301, row.function or "run_batch", code),
            (SITE + TORCH[0], *TORCH[1:])]  # type: ignore[list-item]


def traceback(frames: list[Frame], error: str = ERROR) -> list[str]:
    out = ["Traceback (most recent call last):"]
    for file, line, func, code in frames:
        out += [f'  File "{file}", line {line}, in {func}', f"    {code}"]
    return [*out, error]


def _plain(row: FrameSignature, style: str = "site") -> list[str]:
    return traceback(_frames(row, style))


def _rank_prefix(row: FrameSignature, rank: int) -> str:
    if row.framework == "sglang":
        return f"[2026-12-01 10:00:00 TP{rank}] "
    if row.framework == "trtllm":
        return f"[1,{rank}]<stderr>:"
    return f"(Worker_TP{rank} pid={4100 + rank}) ERROR 12-01 10:00:00 [multiproc_executor.py:671] "


def _ranks(row: FrameSignature) -> list[str]:
    """Two ranks print the same traceback; their lines interleave."""
    lines = _plain(row)
    return [_rank_prefix(row, r) + line for line in lines for r in (3, 1)]


def _chained(row: FrameSignature) -> list[str]:
    outer = [THREAD, ("/usr/lib/python3.12/concurrent/futures/thread.py", 58, "run",
                      "result = self.fn(*self.args, **self.kwargs)")]  # fmt: skip
    return [*_plain(row), "", "The above exception was the direct cause of the following exception:",
            "", *traceback(outer, "RuntimeError: worker step failed")]  # fmt: skip


def _faulthandler(row: FrameSignature) -> list[str]:
    frames = _frames(row, "site")[::-1]
    return ["Fatal Python error: Segmentation fault", "",
            "Thread 0x00007f1d8a1b7480 (most recent call first):",
            *(f'  File "{file}", line {line} in {func}' for file, line, func, _code in frames)]  # fmt: skip


def _pyspy(row: FrameSignature) -> list[str]:
    """A py-spy dump inside SGLang's watchdog report (innermost first)."""
    frames = _frames(row, "site")[::-1]
    return ["[2026-12-01 10:00:00 TP0] Pyspy dump for PID 4242:",
            "Process 4242: python3 -m server", "Python v3.12.3 (/usr/bin/python3.12)", "",
            'Thread 4242 (active): "MainThread"',
            *(f"    {func} ({file}:{line})" for file, line, func, _code in frames),
            "[2026-12-01 10:05:00 TP0] Scheduler watchdog timeout (self.watchdog_timeout=300, "
            "self.soft=False)"]  # fmt: skip


def _cut(row: FrameSignature) -> list[str]:
    """The paste ends inside the row's frame line."""
    head = _plain(row)[:3]
    return [*head, f'  File "{frame_path(row, "site")}", lin']


def _compose(row: FrameSignature) -> list[str]:
    service = {"sglang": "sglang-1", "trtllm": "trtllm-1"}.get(row.framework, "vllm-1")
    return [f"{service}  | {line}" for line in _plain(row)]


def _web(row: FrameSignature) -> list[str]:
    repo = TRACKER.get(row.framework, "vllm-project/vllm")
    return [f"[Bug] Server crashes under load with speculative decoding · Issue #4821 · {repo}",
            "", "The server dies after a few minutes of traffic:", "", "```",
            *_plain(row), "```"]  # fmt: skip


def _native(row: FrameSignature) -> list[str]:
    """TensorRT-LLM's C++ exception: the assertion names the source file, the frames the class."""
    cls = next((s.pattern for s in symbol_signatures() if s.pattern in row.classes), row.classes[0])
    return [f"[TensorRT-LLM][ERROR] Assertion failed: too many draft tokens "
            f"(/src/cpp/{row.name}:143)",
            "1       0x7fe1c1a0b5e2 tensorrt_llm::common::throwRuntimeError(char const*, int, "
            "std::string const&) + 102",
            f"2       0x7fe1c1d7c3a4 tensorrt_llm::layers::{cls}<half>::forwardAsync(int) + 812",
            "3       0x7fe1c1d7e019 tensorrt_llm::layers::DynamicDecodeLayer<half>::forwardAsync(int) + 96"]  # fmt: skip


FORMS: dict[str, Callable[[FrameSignature], list[str]]] = {
    "plain": _plain,
    "ranks": _ranks,
    "chained": _chained,
    "faulthandler": _faulthandler,
    "pyspy": _pyspy,
    "cut": _cut,
    "checkout": lambda row: _plain(row, "checkout"),
    "elided": lambda row: _plain(row, "elided"),
    "compose": _compose,
    "web": _web,
}
NATIVE_FORMS = {"native": _native}

# --- copy forms: the same crash after a notes file, a wiki, a terminal or a digest copied it ---


def _nextline(row: FrameSignature) -> list[str]:
    """Notes / docstring style: the frame's function on the line after its file and line."""
    out = ["    Traceback (most recent call last):"]
    for file, line, func, code in _frames(row, "elided"):
        out += [f'    File "{file}", line {line},', f"      in {func}", f"        {code}"]
    return [*out, "    " + ERROR]


def _docstring(row: FrameSignature) -> list[str]:
    """A script's docstring quoting what it measured: no traceback line, the row's frame with
    its function on the next line, then the exception."""
    file, line, func, code = _frames(row, "elided")[1]
    return ['"""Work around the crash below.', "", "MEASURED on the first request:", "",
            f'    File "{file}", line {line},', f"      in {func}", f"        {code}",
            "    " + ERROR, '"""']  # fmt: skip


def _inline(row: FrameSignature) -> str:
    return " ".join(f'File "{file}", line {line}, in {func} {code}'
                    for file, line, func, code in _frames(row, "site"))  # fmt: skip


def _midline(row: FrameSignature) -> list[str]:
    """A wiki's pattern section / a summary: the frames quoted inside one prose line."""
    return ["## Related patterns", "",
            f"- [Worker crash on startup](../patterns/worker_crash.md) - score 3: the server died "
            f"with {ERROR} ``` Traceback (most recent call last): {_inline(row)} ..."]  # fmt: skip


def _sentence(row: FrameSignature) -> list[str]:
    """A frame quoted mid-sentence in a summary, with no traceback header."""
    file, line, func, code = _frames(row, "site")[1]
    return ["Summary of the failure:",
            f"The crash happens at ... File \"{file}\", line {line}, in {func} {code} ... and the "
            f"process exits with {ERROR}."]  # fmt: skip


def _prefix(row: FrameSignature) -> str:
    if row.framework == "sglang":
        return "2026-12-01 10:00:00.716 ERROR 4242 [ TP4 scheduler.py:3475] "
    if row.framework == "trtllm":
        return "[12/01/2026-10:00:00] [TRT-LLM] [E] "
    return "(EngineCore_DP0 pid=4242) ERROR 12-01 10:00:00 [core.py:708] "


def _wrap(row: FrameSignature, width: int, prefixed: bool, fold: bool = False) -> list[str]:
    """A terminal (a coding agent's session) wrapped every line at ``width`` columns: a word
    that does not fit moves down, a longer one (a frame's path) is cut inside; padded to the
    width. With ``fold`` (``fold -w``, a pager's copy) every line is cut at the width whatever
    it cuts, unpadded."""
    head = _prefix(row) if prefixed else ""
    out: list[str] = []
    for line in _plain(row):
        text = head + line
        pieces = ([text[i : i + width] for i in range(0, len(text), width)] if fold else
                  textwrap.wrap(text, width, break_on_hyphens=False, drop_whitespace=True))  # fmt: skip
        out += [p if fold else p.ljust(width) for p in pieces or [""]]
    return out


def _markdown(row: FrameSignature) -> list[str]:
    """A page exported to Markdown outside a code block: every underscore escaped."""
    return [line.replace("_", "\\_").replace("*", "\\*") for line in _plain(row)]


def _html(row: FrameSignature) -> list[str]:
    """A page copied as HTML source: quotes and angle brackets as entities."""
    return [line.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
            .replace(">", "&gt;") for line in ["<pre>", *_plain(row), "</pre>"]]  # fmt: skip


def _json(row: FrameSignature) -> list[str]:
    """An agent transcript / an API error body: the traceback inside a JSON string."""
    body = "\n".join(_plain(row))
    return [json.dumps({"type": "tool_result", "content": "Exit code 1\n" + body}),
            json.dumps({"type": "text", "content": "The server crashed; looking at the worker."})]


def _quote(row: FrameSignature) -> list[str]:
    """A reply quoting the report: every line behind ``> ``."""
    return ["> The server dies right after the first request:", ">",
            *(f"> {line}" for line in _plain(row))]  # fmt: skip


COPY_FORMS: dict[str, Callable[[FrameSignature], list[str]]] = {
    "nextline": _nextline,
    "docstring": _docstring,
    "midline": _midline,
    "sentence": _sentence,
    **{f"wrap{w}": (lambda row, w=w: _wrap(row, w, False)) for w in (60, 80, 100, 120)},
    **{f"wrap{w}p": (lambda row, w=w: _wrap(row, w, True)) for w in (60, 80, 100, 120)},
    "fold80": lambda row: _wrap(row, 80, False, fold=True),
    "fold80p": lambda row: _wrap(row, 80, True, fold=True),
    "markdown": _markdown,
    "html": _html,
    "json": _json,
    "quote": _quote,
}



def python_row(row: FrameSignature) -> bool:
    return row.name.endswith(".py")


def cases(rows: list[FrameSignature] | None = None, forms: list[str] | None = None,
          every_release: bool = False) -> list[FrameCase]:  # fmt: skip
    """Every (row, form, release) case of ``rows`` (all rows) in ``forms`` (all forms)."""
    out: list[FrameCase] = []
    for row in rows if rows is not None else list(frame_signatures()):
        table = {**FORMS, **COPY_FORMS} if python_row(row) else NATIVE_FORMS if row.classes else {}
        for form, write in table.items():
            if forms is not None and form not in forms and not (form == "native" and forms):
                continue
            for release in releases_of(row, every_release):
                head = [line] if release and (line := release_line(row.framework, release)) else []
                out.append(FrameCase(row, form, release, (*head, *write(row)),
                                     expectation(row, release)))  # fmt: skip
    return out


def outcome(path: WorkerPath | None, case: FrameCase) -> str:
    """"right" (the class decided, or the condition holding every class it must), "wrong" (a
    class the row does not allow decided, or another framework's), "other" (another class the
    file defines decided), "cond" (a condition where a class was due), "unknown" (nothing),
    "lost" (no crash read)."""
    if path is None:
        return "lost"
    expect = case.expect
    decided = path.value not in ("unknown", "none") and path.worker_class
    hosts = (case.row.framework, None, *(("vllm",) if case.row.framework not in _PACKAGE else ()))
    if decided and (path.worker_class not in expect.allowed or path.framework not in hosts):
        return "wrong"
    if expect.decide is not None:
        if decided:
            return "right" if path.worker_class == expect.decide else "other"
        held = expect.shared and path.conditional is not None and expect.decide in path.conditional
        return "right" if held else "cond" if path.conditional else "unknown"
    if expect.condition:
        if decided:
            return "wrong"  # the log states no release that settles the file's class
        held = path.conditional is not None and all(c in path.conditional for c in expect.condition)
        return "right" if held else "cond" if path.conditional else "unknown"
    return "right"  # an informing row: anything but a class it does not allow
