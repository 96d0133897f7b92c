"""Outer wrappers peeled before any dialect: CRI, docker-compose, CI stamps, log shippers and
viewers (``[pod/p/c] ``, ``[ts] pod >> ``, ``May 16, 2026 @ ts``, syslog/journald), torchrun,
process tags."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from spectrace.dialects._time import YEARLESS, make_ts
from spectrace.dialects.base import Header

_CRI = re.compile(
    r"(\d{4})-(\d\d)-(\d\d)T(\d\d:\d\d:\d\d)(?:\.(\d+))?(?:Z|[+-]\d\d:?\d\d) (?:stdout|stderr) ([PF]) "
)
_CI = re.compile(r"(\d{4})-(\d\d)-(\d\d)T(\d\d:\d\d:\d\d)(?:\.(\d+))?Z ")
# Buildkite's and other CI viewers' bracketed stamp: "[2025-12-13T19:54:35Z] ".
_CI_BRACKETED = re.compile(r"\[(\d{4})-(\d\d)-(\d\d)T(\d\d:\d\d:\d\d)(?:\.(\d+))?Z\] ")
# ``name-1  | ``; a service with ``container_name:`` set has no replica number, and compose pads
# every name to the longest and adds a blank, so two or more blanks stand before its bar
_COMPOSE = re.compile(r"([A-Za-z0-9][\w.-]*[-_]\d+) +\| |([A-Za-z][\w.-]*)  +\| ")
# A shipper's "[2025-12-18T16:24:02+08:00] pod-name >> " (the pod names the writer).
_SHIPPER = re.compile(
    r"\[(\d{4})-(\d\d)-(\d\d)[T ](\d\d:\d\d:\d\d)(?:\.(\d+))?(?:Z|[+-]\d\d:?\d\d)?\] "
    r"([\w.:-]+) >> "
)
# grep -n / -A / -C output: "1234:" on matches, "1235-" on context lines, "file:1234:" and
# "file-1235-" for several files. Never before a digit (unless a full date follows), so a time
# ("12:34:56"), a stamp ("2025-07-25T...") or NCCL's "host:pid:tid" stays whole; "file:N:"
# only right before text, so "Indexing.cu:1422: Assertion ..." and "x.py:63: Warning" stay too.
_GREP = re.compile(
    r"[\w./-]+:\d{1,9}:(?=[^\d\s])"
    r"|(?:[\w./-]+-)?\d{1,9}[:-](?=[^\d\s]|\s*$|\s+\S|\d{4}-\d\d-\d\d[T ])"
)
# A full sglang header right after a word (two writers on one line) or as the function of a
# faulthandler frame ("line 7 in [2025-...] "): a header there was never part of that text.
_GLUED = re.compile(
    r"(?:[\w.)]|line \d+ in )"
    r"(\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:[.,]\d{1,6})?(?: (?:DP|PP|ATTN_CP|MOE_DP|TP|EP)\d+)*\] )"
)
# kubectl logs --prefix: "[pod/name/container] " (the pod names the writer).
_KUBECTL = re.compile(r"\[pod/([\w.-]+)/[\w.-]+\] ")
# stern / k9s / ``kubectl logs -l`` merged by hand: "pod-name container " or "container-name "
# before the writer's own line. A bare name is too common a start, so it must hold a hyphen and
# what follows must open a known record (a vLLM tag or level, an sglang stamp, klog, a
# traceback's lines, an exception).
_STERN = re.compile(
    r"([a-z0-9][a-z0-9.]*-[a-z0-9.-]*[a-z0-9])(?: [a-z0-9](?:[a-z0-9-]*[a-z0-9])?)? "
    r"(?=\([A-Za-z]\w* pid=\d+\)|(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)(?::| \d\d-\d\d )"
    r"|\[\d{4}-\d\d-\d\d |[IWEF]\d{4} \d\d:\d\d|Traceback \(most recent call last\):"
    r"| +File \"| {4,}\S|[A-Za-z_][\w.]*(?:Error|Exception|Interrupt): )"
)
# pytest's failure report marks the raised exception "E           RuntimeError: ..." (CI logs).
_PYTEST_E = re.compile(r"E {3,}(?=[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Timeout)\b)")
# A log viewer's table copied as text (Grafana/Loki, GitHub turning a pasted HTML table into a
# Markdown one): "  |   | 2026-06-12 12:13:18.902 | <line> |  ". Not loguru's "ts | LEVEL | ...".
_TABLE = re.compile(
    r"(\d{4})-(\d\d)-(\d\d) (\d\d:\d\d:\d\d)(?:\.(\d+))? \| "
    r"(?!(?:TRACE|DEBUG|INFO|SUCCESS|WARNING|ERROR|CRITICAL)\s*\|)"
)
_MONTHS = {m: i for i, m in enumerate("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(), 1)}
_MON = r"(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
# Kibana / OpenSearch Discover copy: "May 16, 2026 @ 20:46:57.892" then a tab or spaces.
_KIBANA = re.compile(_MON + r" (\d{1,2}), (\d{4}) @ (\d\d:\d\d:\d\d)(?:\.(\d+))?\s+")
# the month as journalctl prints it under other locales (its ``%b``): CJK "7月" / "7월",
# and the European abbreviations that differ from the English ones (German, French, Spanish,
# Italian, Portuguese, Dutch, Russian)
_LOCAL_MONTHS = {name: n for n, names in enumerate((
    ("jan", "janv", "ene", "gen", "янв"), ("feb", "févr", "fév", "fev", "фев"),
    ("mär", "mrz", "mars", "mar", "mrt", "мар"), ("avr", "avril", "abr", "apr", "апр"),
    ("mai", "may", "mag", "mei", "мая", "май"), ("juin", "giu", "июн"),
    ("juil", "lug", "июл"), ("août", "ago", "авг"),
    ("sept", "set", "сен"), ("okt", "oct", "ott", "out", "окт"),
    ("nov", "ноя"), ("dez", "déc", "dic", "dec", "дек"),
), 1) for name in names}
_LOCAL_MON = (r"(\d{1,2}\s?[月월]|(?i:" + "|".join(sorted(_LOCAL_MONTHS, key=len, reverse=True))
              + r")\.?)")
# syslog / journalctl: "Dec  2 13:27:57 host python3[1234]: " (no year; the process names it),
# "7月 08 14:09:10 host docker[42]: " under a CJK locale, "Mär 08 ..." under a German one.
_SYSLOG = re.compile(
    r"(?:" + _MON + r"|" + _LOCAL_MON + r")"
    r" +(\d{1,2}) (\d\d:\d\d:\d\d)(?:\.(\d+))? (\S+) ([\w.@/-]+)(?:\[\d+\])?: "
)
# journalctl -o short-iso: "2026-09-21T19:29:28+02:00 host vllm[3588]: " (a year and an offset;
# the process's pid required, so a CI stamp before "word word: text" stays the CI's)
_JOURNAL_ISO = re.compile(
    r"(\d{4})-(\d\d)-(\d\d)T(\d\d:\d\d:\d\d)(?:[.,](\d+))?(?:Z|[+-]\d\d:?\d\d) (\S+) ([\w.@/-]+)\[\d+\]: "
)
_TORCHRUN = re.compile(r"\[(?:rank|default)(\d+)\]: ?")
# OpenMPI's ``mpirun --tag-output`` (TensorRT-LLM's multi-GPU runs): "[1,3]<stderr>:" is job 1,
# rank 3; every line of every rank carries it, so tracebacks of several ranks interleave
_MPI_TAG = re.compile(r"\[\d{1,6},(\d{1,6})\]<std(?:out|err|diag)>: ?")
# An editor's or viewer's line number before a writer's tag: "[80746] [rank0]:[E321 ...",
# " 404 ^[[36m(RayWorkerWrapper pid=1)^[[0m ...", cat -n's "   404\t(Worker pid=1) ...".
_GUTTER_NO = re.compile(
    r"(?:\[\d{1,9}\] |[ \t]{0,8}\d{1,9}[ \t])"
    r"(?=(?:\^\[|\x1b)?\[[0-9;]{1,12}m|\([^()]*? pid=\d+|\[(?:rank|default)\d+\]:)"
)
# vLLM's VLLM_LOGGING_PREFIX (or a launcher's) before the level and stamp: "[1/8,TP1][pid=7] ERROR 01-28 ..."
_LOG_PREFIX = re.compile(
    r"(?:\[[^\[\]\n]{1,40}\]){1,4} ?(?=(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d)"
)
# A process tag; Ray Data nests the actor's class in its name ("(MapWorker(MapBatches(X)) pid=1)").
_PROC = re.compile(r"\(((?:[^()]|\((?:[^()]|\([^()]*\))*\))*?) pid=(\d+)(?:, ip=([^)]*))?\) ?")
# A paste whose pids were edited out by hand ("(EngineCore) ERROR [core.py:1138] ..."): the
# bare name counts only right before a vLLM level word.
_PROC_BARE = re.compile(r"\(([A-Za-z][\w-]*)\) (?=(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) )")
# A collector's "2026-03-09 01:27:30.122744672 " (micro- or nanoseconds) before a process tag.
_STAMP_NS = re.compile(r"(\d{4})-(\d\d)-(\d\d) (\d\d:\d\d:\d\d)\.(\d{6,9}) (?=\()")
# A colour code whose ESC byte a copy-paste dropped (Ray's "[36m(RayWorkerWrapper pid=1)[0m"),
# or that a pager showed in caret notation ("^[[1;36m(Worker_TP0 pid=1)^[[0;0m", less/cat -v).
_SGR = re.compile(r"(?:\^\[)?\[[0-9;]{1,12}m")
# A paste indented as a whole, before a tag; a log viewer's "  | " gutter (also Python's
# exception-group borders, under which the nested tracebacks read as plain ones).
_BLANKS = re.compile(r"[ \t]+(?=\[(?:rank|default)\d+\]:|\([^()]*? pid=\d+)")
_GUTTER = re.compile(r"[ \t]*\|[ \t]")
# The end of a tqdm bar, "[00:26<00:07,  5.89it/s]": it ends its line unless another
# writer's line was glued on when the bar's "\r" redraws lost their newline.
# a tqdm bar's end: "[00:02<00:01, 1.50it/s]", or rateless after its count: "| 3/5 [00:02<00:01]"
_BAR_END = re.compile(
    r"\[[\d:]+<[\d:?]*,[^\]]*?(?:it/s|s/it|B/s)[^\]]*\]|\|\s*\d+/\d+ \[[\d:]+<[\d:?]*\]"
)
# Markdown a reader typed into a pasted line: bold around the words that matter
# ("[Rank 4] **Watchdog caught collective operation timeout:** WorkNCCL(...)"), and an inline
# code span's opening backtick before the writer's tag. Only a phrase (a blank inside) is taken
# for bold: ``**kwargs`` has no closing pair, and ``**init**`` (a flattened ``__init__``) stays.
_BOLD = re.compile(r"\*\*(?=[A-Za-z])([^*\n]{0,200}? [^*\n]{0,200}?)(?<=[\w:.)])\*\*")
_TICK = re.compile(r"`(?=\[(?:rank|default)?\d*|\([A-Za-z]\w* pid=)")
_MAX_PEELS = 8  # nested / duplicated groups; bounded so junk cannot loop


@dataclass(frozen=True, slots=True)
class Peeled:
    """A line with its wrappers removed, and what the wrappers said about the writer."""

    text: str
    container: str | None = None  # docker-compose service
    proc: str | None = None  # innermost "(Name pid=N)" as "Name pid=N"
    proc_name: str | None = None
    torch_rank: str | None = None  # "rank6"
    ts: Header | None = None  # a wrapper stamp, used when the inner line has none
    partial: bool = False  # CRI "P": the line continues in the next record
    host: str | None = None  # the machine a wrapper names: Ray's ``ip=``, syslog's host
    # how many leading characters were wrappers: bold and a table's closing border come off
    # inside and after the text too, so its length alone does not tell where the body starts
    lead: int = 0


def _stamp(m: re.Match[str], text: str) -> Header:
    year, month, day, hms, frac = m.groups()[:5]
    return Header(dialect="wrapper", text="", ts=make_ts(year, month, day, hms, frac),
                  ts_text=text[: m.end()].split(" ")[0].strip("[]"))  # fmt: skip


def _named_stamp(m: re.Match[str], year: str | int, day: str, hms: str, frac: str | None,
                 local: str | None = None) -> Header:
    """A stamp that spells the month's name (Kibana, syslog; ``local``: a locale's name)."""
    name = m.group(1) or local or ""
    month = str(_MONTHS[name] if m.group(1) else _local_month(name))
    shown = f"{name} {day}" + (f", {year}" if year != YEARLESS else "") + f" {hms}"
    return Header(dialect="wrapper", text="", ts=make_ts(year, month, day, hms, frac),
                  ts_text=shown + (f".{frac}" if frac else ""))  # fmt: skip


def _local_month(name: str) -> int:
    """A locale's month name -> its number ("7月" -> 7, "Mär" -> 3, "juil." -> 7)."""
    digits = re.match(r"\d+", name)
    return int(digits.group()) if digits else _LOCAL_MONTHS[name.lower().rstrip(".")]


def peel(text: str) -> Peeled:
    """Remove wrappers outermost first; a paste indented as a whole may hide them behind blanks."""
    if text[:1] in (" ", "\t"):
        stripped = text.lstrip(" \t")
        inner = _peel(stripped)
        if inner.text is not stripped:
            return replace(inner, lead=inner.lead + len(text) - len(stripped))
    return _peel(text)


def _peel(text: str) -> Peeled:
    """Remove wrappers outermost first; each may appear at most a few times."""
    container = proc = proc_name = torch_rank = host = None
    whole = len(text)
    stamp: Header | None = None
    partial = table = False
    for _ in range(_MAX_PEELS):
        if m := _GREP.match(text):  # first: a grep line number is outermost
            pass
        elif m := _TICK.match(text):
            pass
        elif m := _CRI.match(text):
            stamp, partial = stamp or _stamp(m, text), m.group(6) == "P"
        elif m := _JOURNAL_ISO.match(text):
            stamp, host = stamp or _stamp(m, text), host or m.group(6)
        elif m := _CI.match(text):
            stamp = stamp or _stamp(m, text)
        elif m := _COMPOSE.match(text):
            container = m.group(1) or m.group(2)
        elif m := _KUBECTL.match(text):
            container = m.group(1)
        elif m := _STERN.match(text):
            container = m.group(1)
        elif m := _SHIPPER.match(text):
            stamp, container = stamp or _stamp(m, text), m.group(6)
        elif m := _CI_BRACKETED.match(text):
            stamp = stamp or _stamp(m, text)
        elif m := _STAMP_NS.match(text):
            stamp = stamp or replace(_stamp(m, text), ts_text=m.group().strip())
        elif m := _TABLE.match(text):
            stamp, table = stamp or _stamp(m, text), True
        elif m := _KIBANA.match(text):
            stamp = stamp or _named_stamp(m, m.group(3), m.group(2), m.group(4), m.group(5))
        elif m := _SYSLOG.match(text):
            stamp = stamp or _named_stamp(m, YEARLESS, m.group(3), m.group(4), m.group(5), m.group(2))
            host = host or m.group(6)
        elif m := _PYTEST_E.match(text):
            pass
        elif m := _GUTTER_NO.match(text):
            pass
        elif m := _TORCHRUN.match(text) or _MPI_TAG.match(text):
            torch_rank = f"rank{m.group(1)}"
        elif m := _LOG_PREFIX.match(text):
            pass
        elif m := _PROC.match(text):
            proc_name, host = m.group(1), m.group(3) or host
            proc = f"{proc_name} pid={m.group(2)}"
        elif m := _PROC_BARE.match(text):
            proc = proc_name = m.group(1)
        elif m := _SGR.match(text):
            pass
        elif m := _BLANKS.match(text) or _GUTTER.match(text):
            pass
        else:
            break
        text = text[m.end() :]
    lead = whole - len(text)
    if "**" in text:
        text = _BOLD.sub(r"\1", text)
    if table and (body := text.rstrip(" \t")).endswith(" |"):
        text = body[:-2]  # the row's closing cell border
    return Peeled(text, container, proc, proc_name, torch_rank, stamp, partial, host, lead)


def unglue(text: str) -> str:
    """A line glued after a progress bar (``... 5.89it/s][rank0]: Traceback ...``) -> that line;
    the bar, redrawn over, is not what the reader saw last. An sglang header glued to another
    writer's unfinished output (``..._bounded_integers[2025-04-17 11:44:15 TP3] Scheduler hit
    ...``, a faulthandler frame ``line 7 in [2025-...] ...``) -> the headed line. Other lines
    come back unchanged."""
    if text[:1] != "[" and text.find("[20", 1) > 0:
        text = _glued_header(text)
    if "<" not in text or "/" not in text:
        return text
    end = None
    for end in _BAR_END.finditer(text):
        pass
    if end is None or not text[end.end() :].strip():
        return text
    return text[end.end() :].lstrip(" ")


def _glued_header(text: str) -> str:
    """From the last full sglang header glued to text before it (no blank between, or as a
    faulthandler frame's function name): two writers shared one terminal line."""
    start = None
    for m in _GLUED.finditer(text):
        start = m.start(1)
    return text if start is None else text[start:]
