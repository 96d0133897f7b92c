#!/usr/bin/env python3
"""Find verdicts that a paste's form, not its content, decides.

Usage: SPECTRACE_PY=.venv/bin/python perturb.py ROUND_DIR [ROUND_DIR ...] CHECKOUT [--only NAME,NAME] [--ids 03,07] [--jobs N]

Each excerpt of each ROUND_DIR (ex/NN.txt and truth.tsv, as measure.py reads them) is read as
it is and again after each transformation below; each one changes only how the text was pasted
(line ends, colour codes, Markdown around it, an unrelated environment dump, a rank prefix, a
second copy of the same run), not what it shows, so a verdict class that changes is a fragility.
measure.py's in-process reader, probe and classifier decide (imported, so both tools class
alike). Prints per transformation the flips (right->unknown, right->wrong, trap no-path->path,
then any other change) with the round/excerpt ids, and a total.
tests/test_perturb.py: each transformation keeps the verdicts of a tiny round of our own.
"""
from __future__ import annotations

import argparse
import re
import sys
import tempfile
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measure import InProcess, classify, judge, read_truth, shown  # noqa: E402

# --- which lines are a log's records and which are the writer's prose ------------

FENCE = re.compile(r"^\s*(```|~~~)")
LEVEL = r"(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL|FATAL)"
STAMP = r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?"
SHORT_STAMP = r"\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?"
PROC = r"\((?:[\w.-]+ )*pid=\d+\)"  # vLLM's process prefix: "(APIServer pid=12)", "(Worker_TP0 pid=9)"
RECORD = re.compile(
    rf"^\s*(?:{PROC}\s+)?(?:{LEVEL}\b|\[?{STAMP}|\[?{SHORT_STAMP}|\[[^\]\s][^\]]*\]\s)"
    r"|^\s*Traceback \(most recent call last\)"
    r'|^\s*File "'
    r"|^\s*(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Warning)\b(?::|$)")
COMMAND = re.compile(r"^\s*(?:\$ |#|--|\\|[A-Z_]+=\S* |(?:python3?|vllm|sglang|trtllm-serve|docker|torchrun)\b)")
PROSE = re.compile(r"[A-Za-z]{2,}[,.]? [A-Za-z]{2,} [A-Za-z]{2,}")


def _fenced(lines: list[str]) -> list[bool]:
    """Per line, whether it is a fence or inside a fenced block."""
    inside, out = False, []
    for line in lines:
        if FENCE.match(line):
            out.append(True)
            inside = not inside
        else:
            out.append(inside)
    return out


def is_record(line: str) -> bool:
    """A log's record or a traceback line (what a logger or Python printed)."""
    return bool(RECORD.match(line))


def prose_lines(lines: list[str]) -> list[bool]:
    """Per line, whether it is the writer's own sentence: outside any fence, not indented, not a
    record, a command, a table row or a quote, and at least three words."""
    return [not f and bool(PROSE.search(s)) and not s[:1].isspace() and not is_record(s)
            and not COMMAND.match(s) and not s.lstrip().startswith(("|", ">", "<"))
            for s, f in zip(lines, _fenced(lines))]


def _split(text: str) -> tuple[list[str], str]:
    """The lines (without line ends) and whether the text ended in one."""
    end = "\n" if text.endswith("\n") else ""
    return text[:-1].split("\n") if end else text.split("\n"), end


def output_lines(lines: list[str]) -> list[bool]:
    """Per line, whether a process printed it: a record, or a traceback's source line under its
    'File "..."' line."""
    out: list[bool] = []
    for i, s in enumerate(lines):
        under_file = i > 0 and bool(re.match(r'\s*File "', lines[i - 1])) and s.startswith("    ")
        out.append(is_record(s) or under_file)
    return out


def _per_line(text: str, change: Callable[[str, bool, bool], str]) -> str:
    """``change(line, is_prose, is_output)`` applied to each line."""
    lines, end = _split(text)
    return "\n".join(change(s, p, o) for s, p, o in zip(lines, prose_lines(lines), output_lines(lines))) + end


# --- the transformations ------------

def crlf(text: str) -> str:
    """Windows line ends."""
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


def trailing_space(text: str) -> str:
    """Two trailing spaces on every line (a Markdown line break), a tab on blank ones."""
    return _per_line(text, lambda s, p, r: s + ("  " if s.strip() else " \t"))


def nbsp_prose(text: str) -> str:
    """The spaces between words of the writer's sentences as no-break spaces (a rich-text copy)."""
    return _per_line(text, lambda s, p, r: re.sub(r"(?<=[A-Za-z,.]) (?=[A-Za-z])", "\u00a0", s) if p else s)


def zero_width_prose(text: str) -> str:
    """A zero-width space before each sentence of the writer's prose (a chat client's copy)."""
    return _per_line(text, lambda s, p, r: "\u200b" + re.sub(r"([.:!?]) ", "\\1 \u200b", s) if p else s)


ANSI = {"INFO": "32", "WARNING": "33", "WARN": "33", "ERROR": "31", "CRITICAL": "1;31", "FATAL": "1;31",
        "DEBUG": "36"}


def ansi_levels(text: str) -> str:
    """A record's level in colour codes, as a terminal's copy keeps them."""
    def colour(s: str, p: bool, r: bool) -> str:
        if not r:
            return s
        return re.sub(rf"\b{LEVEL}\b", lambda m: f"\x1b[{ANSI[m.group(0)]}m{m.group(0)}\x1b[0m", s, count=1)
    return _per_line(text, colour)


# a saved thread's head: its title with its number, its state, its URL, an index or citation line
# ("owner/repo · issue #N", "owner/repo#N: title", "Issue #N: title"), the opener's line, the
# page's breadcrumb (thread_head.py reads most of these only in a text's first lines: what goes
# before them is no longer the thread's head)
HEAD = re.compile(r"^\W*(?:[^\s:：]{1,20}\s*[:：]\s*)?<?https?://(?:www\.)?github\.com/\S+\s*$|^\s*\|.*github\.com/.*\|\s*$"
                  r"|\S\s+#\d+\s*$|^\s*(?:Open|Closed|Merged|Draft)\s*$| · |opened (?:this|on)|wants to merge"
                  r"|^\s*[\w-]+ / [\w.-]+\s*$|[\w-]+/[\w.-]+#\d+|(?i:\b(?:issue|pr|pull request)\s*#\d+\s*[:–—-])")
HEAD_LINES = 12


def _head(text: str) -> tuple[str, str]:
    """(the thread's head, the rest): up to the paragraph end after the last line within the
    text's first lines that names the thread; empty where none does."""
    lines = text.split("\n")
    named = [i for i, s in enumerate(lines[:HEAD_LINES]) if HEAD.search(s)]
    if not named:
        return "", text
    end = named[-1] + 1
    while end < len(lines) and lines[end].strip():  # the rest of its paragraph (a table, a title)
        end += 1
    return "\n".join(lines[:end]) + "\n\n", "\n".join(lines[end:]).lstrip("\n")


def bug_template(text: str) -> str:
    """Inside an issue tracker's bug template: an environment section left as its placeholder, the
    text under "Describe the bug" (fenced unless it holds fences), the checklist after; a saved
    thread's head stays above it, and a text that already is a filled template stays as it is."""
    if re.search(r"(?im)^#+ .*(?:your current environment|describe the bug)", text):
        return text
    head, rest = _head(text)
    body = rest.rstrip("\n")
    if not any(FENCE.match(s) for s in body.split("\n")):
        body = f"```text\n{body}\n```"
    return (f"{head}### Your current environment\n\n<details>\n<summary>The output of <code>python collect_env.py</code>"
            "</summary>\n\n```text\nYour output of `python collect_env.py` here\n```\n\n</details>\n\n"
            f"### 🐛 Describe the bug\n\n{body}\n\n### Before submitting a new issue...\n\n"
            "- [x] Make sure you already searched for relevant issues and asked the chatbot first.\n")


def unfenced(text: str) -> str:
    """The Markdown fences taken out (a paste into a plain-text field)."""
    lines, end = _split(text)
    return "\n".join(s for s in lines if not FENCE.match(s)) + end


def indent4(text: str) -> str:
    """The whole text indented by four spaces (a Markdown code block)."""
    return _per_line(text, lambda s, p, r: "    " + s if s.strip() else s)


def details(text: str) -> str:
    """Folded inside <details><summary>log</summary>, under a saved thread's head."""
    head, rest = _head(text)
    return f"{head}<details><summary>log</summary>\n\n{rest.rstrip()}\n\n</details>\n"


COLLECT_ENV = """Collecting environment information...
PyTorch version: 2.6.0+cu124
Is debug build: False
CUDA used to build PyTorch: 12.4
OS: Ubuntu 22.04.5 LTS (x86_64)
GCC version: (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0
Python version: 3.12.9 (main, Feb  4 2025, 14:38:38) [GCC 11.4.0] (64-bit runtime)
Is CUDA available: True
CUDA runtime version: 12.4.131
GPU models and configuration:
GPU 0: NVIDIA H100 80GB HBM3
GPU 1: NVIDIA H100 80GB HBM3
Nvidia driver version: 550.127.05

Versions of relevant libraries:
[pip3] numpy==1.26.4
[pip3] nvidia-nccl-cu12==2.21.5
[pip3] torch==2.6.0
[pip3] transformers==4.51.3
[pip3] triton==3.2.0
"""

PIP_LIST = """Package                   Version
------------------------- -----------
aiohttp                   3.11.16
fastapi                   0.115.12
numpy                     1.26.4
pydantic                  2.11.3
safetensors               0.5.3
tokenizers                0.21.1
uvicorn                   0.34.1
"""

NVIDIA_SMI = """+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 550.127.05             Driver Version: 550.127.05     CUDA Version: 12.4     |
|-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
|=========================================+========================+======================|
|   0  NVIDIA H100 80GB HBM3          On  |   00000000:18:00.0 Off |                    0 |
| N/A   31C    P0             71W /  700W |       1MiB /  81559MiB |      0%      Default |
+-----------------------------------------+------------------------+----------------------+
|   1  NVIDIA H100 80GB HBM3          On  |   00000000:2A:00.0 Off |                    0 |
| N/A   30C    P0             69W /  700W |       1MiB /  81559MiB |      0%      Default |
+-----------------------------------------+------------------------+----------------------+
"""


def env_before(text: str) -> str:
    """An environment report (torch's collect_env and a pip list, no serving engine) first, under
    a saved thread's head."""
    head, rest = _head(text)
    return f"{head}Environment:\n\n```\n{COLLECT_ENV}```\n\n```\n$ pip list\n{PIP_LIST}```\n\n{rest}"


def env_after(text: str) -> str:
    """An nvidia-smi table after the text."""
    return f"{text.rstrip()}\n\nGPUs:\n\n```\n$ nvidia-smi\n{NVIDIA_SMI}```\n"


def strip_stamps(text: str) -> str:
    """The timestamps taken off the records (a log shipper's or a grep's copy)."""
    def strip(s: str, p: bool, r: bool) -> str:
        if not r:
            return s
        s = re.sub(rf"^(\s*(?:{PROC}\s+)?{LEVEL}) {SHORT_STAMP} ", r"\1 ", s)  # vLLM: INFO 05-01 10:00:00 [..]
        s = re.sub(rf"^(\s*(?:{PROC}\s+)?)\[{STAMP}\] ?", r"\1", s)  # [2025-01-02 10:00:00] ..
        s = re.sub(rf"^(\s*(?:{PROC}\s+)?\[){STAMP} ", r"\1", s)  # [2025-01-02 10:00:00 TP0] -> [TP0]
        return re.sub(rf"^(\s*(?:{PROC}\s+)?){STAMP}(?: - | \| | )?", r"\1", s)  # 2025-01-02T10:00:00Z ..
    return _per_line(text, strip)


def strip_levels(text: str) -> str:
    """The level names taken off the records."""
    def strip(s: str, p: bool, r: bool) -> str:
        if not r:
            return s
        s = re.sub(rf"^(\s*(?:{PROC}\s+)?){LEVEL}:? ", r"\1", s)
        s = re.sub(rf"^(\s*(?:{PROC}\s+)?)\[{LEVEL}\] ", r"\1", s)
        s = re.sub(rf"^(\s*(?:{PROC}\s+)?\[?{STAMP}\]?\s+){LEVEL}:? ", r"\1", s)
        return re.sub(rf" - {LEVEL} - ", " - ", s)
    return _per_line(text, strip)


def _prefix(make: Callable[[], str]) -> Callable[[str], str]:
    def add(text: str) -> str:
        return _per_line(text, lambda s, p, r: make() + s if r and not re.match(rf"\s*(?:{PROC}|\[{STAMP})", s) else s)
    return add


def rank_paren(text: str) -> str:
    """A worker process's prefix on every record that has none, as vLLM's multiprocess executor
    writes it: "(Worker_TP0 pid=1234) " (a bare "TP0" is SGLang's rank word, not a vLLM tag)."""
    return _prefix(lambda: "(Worker_TP0 pid=1234) ")(text)


def rank_bracket(text: str) -> str:
    """A timestamp-and-rank prefix on every record that has none: "[2026-05-01 10:00:00 TP1] ",
    on the text's own first day (a day the text does not give would date its run: "[TP1] ")."""
    day = re.search(r"(?<!\d)20\d\d-[01]\d-[0-3]\d(?!\d)", text)
    return _prefix(lambda: f"[{day.group(0)} 10:00:00 TP1] " if day else "[TP1] ")(text)


def second_try(text: str) -> str:
    """The text's body again after "Edit: same on a second try:" (a re-run that kept its run); a
    saved thread's head (its title, its post header) stays once, above: a writer's edit repeats
    the log, not the page's title."""
    head, rest = _head(text)
    return f"{head}{rest.rstrip()}\n\nEdit: same on a second try:\n\n{rest.rstrip()}\n"


def _curl(s: str) -> str:
    s = re.sub(r"(?<=\w)'(?=\w)", "\u2019", s)
    s = re.sub(r'"([^"\n]*)"', "\u201c\\1\u201d", s)
    return re.sub(r"'([^'\n]*)'", "\u2018\\1\u2019", s)


def smart_quotes(text: str) -> str:
    """The straight quotes and apostrophes of the writer's sentences curled, outside their code
    spans (a word processor's or a blog's copy)."""
    def curl(s: str, p: bool, r: bool) -> str:
        if not p:
            return s
        parts = re.split(r"(`[^`]*`)", s)
        return "".join(part if part.startswith("`") else _curl(part) for part in parts)
    return _per_line(text, curl)


WRAP = 160  # a terminal's width


def wrap_records(text: str) -> str:
    """Records longer than a terminal's width cut into lines of that width (a terminal's copy)."""
    def wrap(s: str, p: bool, r: bool) -> str:
        if not r or len(s) <= WRAP:
            return s
        return "\n".join(s[i:i + WRAP] for i in range(0, len(s), WRAP))
    return _per_line(text, wrap)


def double_spaced(text: str) -> str:
    """A blank line after every line (a web view's copy)."""
    lines, end = _split(text)
    return "\n\n".join(lines) + end


TRANSFORMS: dict[str, Callable[[str], str]] = {f.__name__: f for f in (
    crlf, trailing_space, nbsp_prose, zero_width_prose, ansi_levels, bug_template, unfenced, indent4, details,
    env_before, env_after, strip_stamps, strip_levels, rank_paren, rank_bracket, second_try, smart_quotes,
    wrap_records, double_spaced)}


# --- running them ------------

@dataclass(frozen=True)
class Excerpt:
    round: str
    eid: str
    kind: str
    accept: frozenset[str]
    path: Path

    @property
    def name(self) -> str:
        return f"{self.round}/{self.eid}"


@dataclass
class Flips:
    """The excerpts whose class one transformation changed, by kind of change."""
    lost: list[str] = field(default_factory=list)  # right -> unknown (or family-only)
    wrong: list[str] = field(default_factory=list)  # right -> wrong
    trapped: list[str] = field(default_factory=list)  # trap no-path -> a path
    other: list[str] = field(default_factory=list)  # any other change: "id base->new"
    same: int = 0

    @property
    def count(self) -> int:
        return len(self.lost) + len(self.wrong) + len(self.trapped)


def flip_kind(kind: str, base: str, new: str) -> str:
    """'same', 'lost', 'wrong', 'trapped' or 'other' for one excerpt's base and new class."""
    if base == new:
        return "same"
    if kind == "trap":
        return "trapped" if base.startswith("no-path") and not new.startswith("no-path") else "other"
    if base in ("right", "cond-right"):
        if new in ("unknown", "family", "family?"):
            return "lost"
        if new in ("wrong", "cond-wrong"):
            return "wrong"
    return "other"


def excerpts(round_dirs: Iterable[Path], ids: set[str]) -> list[Excerpt]:
    return [Excerpt(d.name, eid, kind, frozenset(accept), d / "ex" / f"{eid}.txt")
            for d in round_dirs if (d / "truth.tsv").exists()
            for eid, kind, accept in read_truth(d)
            if kind in ("path", "trap") and (not ids or eid in ids) and (d / "ex" / f"{eid}.txt").exists()]


class Readers:
    """measure.py's in-process readers of one checkout (one per job), judging texts."""

    def __init__(self, checkout: Path, jobs: int) -> None:
        self.checkout = checkout
        self.readers = [InProcess(checkout) for _ in range(jobs)]
        self.tmp = tempfile.TemporaryDirectory(prefix="perturb_")

    def classes(self, work: list[tuple[Excerpt, str, str]]) -> list[tuple[str, str]]:
        """(class, verdict shown) of each (excerpt, tag, text)."""
        def one(i: int) -> tuple[str, str]:
            ex, tag, text = work[i]
            src = Path(self.tmp.name) / f"{i}_{ex.round}_{ex.eid}_{tag}.txt"
            with src.open("w", encoding="utf-8", newline="") as f:
                f.write(text)
            p, _probe, _doc = judge(self.readers[i % len(self.readers)], self.checkout, src)
            src.unlink()
            return classify(ex.kind, set(ex.accept), p), shown(p)
        # one thread per reader: reader k takes the items i with i % jobs == k, in order
        n = len(self.readers)
        out: list[tuple[str, str]] = [("", "")] * len(work)
        def lane(k: int) -> None:
            for i in range(k, len(work), n):
                out[i] = one(i)
        with ThreadPoolExecutor(n) as pool:
            list(pool.map(lane, range(n)))
        return out


def read(path: Path) -> str:
    with path.open(encoding="utf-8", errors="replace", newline="") as f:
        return f.read()


def perturb(exs: list[Excerpt], readers: Readers, names: list[str]) -> dict[str, Flips]:
    """The flips of each transformation of ``names``, printed as each one is done."""
    base = readers.classes([(ex, "base", read(ex.path)) for ex in exs])
    table = {name: Flips() for name in names}
    for name in names:
        got = readers.classes([(ex, name, TRANSFORMS[name](read(ex.path))) for ex in exs])
        f = table[name]
        for ex, (b, bshown), (cls, verdict) in zip(exs, base, got):
            k = flip_kind(ex.kind, b, cls)
            if k == "same":
                f.same += 1
                continue
            if k == "other":
                f.other.append(f"{ex.name} {b}->{cls}")
            else:
                getattr(f, k).append(ex.name)
            print(f"  {name:<17} {ex.name:<16} {ex.kind:<5} {b:<12} -> {cls:<12} [{bshown[:70]}] -> [{verdict[:70]}]",
                  flush=True)
        print(f"{name}: {f.count} flips, {len(f.other)} other changes", flush=True)
    return table


def report(table: dict[str, Flips], n: int) -> None:
    print(f"\n{'transformation':<17} {'right->unknown':>14} {'right->wrong':>12} {'trap->path':>10} "
          f"{'other':>5}  ids (of {n} excerpts)")
    for name, f in table.items():
        ids = "; ".join(x for x in (
            f"lost: {' '.join(f.lost)}" if f.lost else "", f"wrong: {' '.join(f.wrong)}" if f.wrong else "",
            f"trap: {' '.join(f.trapped)}" if f.trapped else "", f"other: {', '.join(f.other)}" if f.other else "") if x)
        print(f"{name:<17} {len(f.lost):>14} {len(f.wrong):>12} {len(f.trapped):>10} {len(f.other):>5}  {ids}")
    tot = [sum(len(getattr(f, k)) for f in table.values()) for k in ("lost", "wrong", "trapped", "other")]
    print(f"{'TOTAL':<17} {tot[0]:>14} {tot[1]:>12} {tot[2]:>10} {tot[3]:>5}  flips {sum(tot[:3])}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", type=Path, nargs="+", help="ROUND_DIR ... CHECKOUT")
    ap.add_argument("--only", default="", help="transformations to run, comma separated (default: all)")
    ap.add_argument("--ids", default="", help="excerpt ids to run, comma separated (default: all)")
    ap.add_argument("--jobs", type=int, default=1, help="reader processes")
    a = ap.parse_args()
    *dirs, checkout = a.paths
    names = [n for n in a.only.split(",") if n] or list(TRANSFORMS)
    unknown = [n for n in names if n not in TRANSFORMS]
    if unknown:
        ap.error(f"no transformation {', '.join(unknown)}; there are {', '.join(TRANSFORMS)}")
    exs = excerpts(dirs, {s for s in a.ids.split(",") if s})
    print(f"{len(exs)} excerpts of {len(dirs)} rounds, {len(names)} transformations, checkout {checkout}", flush=True)
    report(perturb(exs, Readers(checkout, a.jobs), names), len(exs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
