"""Time ``spectrace tui`` as a user sees it, in a real terminal (tmux), against toolong and lnav.

Usage: python benchmarks/bench_tui.py --size-mb 512 [--file LOG] [--toolong PATH/TO/tl]
       [--lnav PATH/TO/lnav] [--repeat N] [--spectrace "COMMAND"] [--no-open] [--no-actions]

Every time is taken from an event (process start, the Enter that submits a query) to what the
terminal shows (``tmux capture-pane``). Opening (against toolong, which has no crash list): first
screen of log text, first crash in the list, full crash list, last line after ``G`` (pressed
once the index is complete, and pressed at the first screen), and peak RSS (VmHWM). Actions
(against lnav on the same file, both idle after loading it): a search for a string the log does
not hold (answered: "not found" / lnav's "0 hits"), a search for a string it holds (first match
shown, count complete), and a text filter (first kept line shown, filter complete).
toolong pins textual<0.59, so it lives in its own virtualenv (``--toolong``), never ours.
Each program is started ``--repeat`` times (alternating) and every figure is the median.
``--spectrace`` may be any command line, e.g. ``env PYTHONPATH=OLD_CHECKOUT python -m spectrace``,
and may be given more than once to compare versions in the same run (each gets a column, and a
ratio against toolong measured in the same rounds).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

POLL_S = 0.02
TIMEOUT_S = 120.0
STAMP = re.compile(r"\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")
CRASHES = re.compile(r"([\d,]+) crash(?:es)?\b")  # the status says "1 crash", "18 crashes"
PRESENT = "Prefill batch"  # gen_log.py writes it on about 1 line in 100
ABSENT = "zq-not-in-this-log-qz"
ACTION_SIZE = ("200", "50")  # wide enough for the status line's counts beside the file name


class Terminal:
    """One program in a detached 160x48 tmux pane, on a tmux server of its own (with a shared
    server, killing the last session shuts it down and a session started then is lost)."""

    def __init__(self, name: str, command: str, size: tuple[str, str] = ("160", "48")) -> None:
        self.name = f"{name}-{os.getpid()}"
        self.tmux("kill-server")
        self.start = time.perf_counter()
        self.tmux(  # a program that exits leaves its last screen (its error) to read
            "start-server", ";", "set-option", "-g", "remain-on-exit", "on", ";",
            "new-session", "-d", "-x", size[0], "-y", size[1], "-s", self.name, f"exec {command}",
        )  # fmt: skip
        self.pid = self._pane_pid()

    def _pane_pid(self) -> int:
        """The program's pid; a server just started after ``kill-server`` may need a moment."""
        for _ in range(100):
            pid = self.tmux("display-message", "-p", "-t", self.name, "#{pane_pid}").strip()
            if pid.isdigit():
                return int(pid)
            time.sleep(POLL_S)
        raise RuntimeError(f"tmux did not start {self.name}")

    def tmux(self, *args: str) -> str:
        return subprocess.run(
            ["tmux", "-L", self.name, *args], capture_output=True, text=True, check=False
        ).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.name)

    def until(self, ready: Callable[[str], bool], since: float | None = None) -> float:
        """Seconds from ``since`` (default: process start) until the screen satisfies ``ready``."""
        t0 = self.start if since is None else since
        while time.perf_counter() - t0 < TIMEOUT_S:
            if ready(self.screen()):
                return time.perf_counter() - t0
            time.sleep(POLL_S)
        return float("nan")

    def settled(
        self, value: Callable[[str], str | None], since: float, still: float = 1.0
    ) -> float:
        """Seconds from ``since`` to the last change of ``value(screen)`` before it stayed the
        same (and not None) for ``still`` seconds: when a count that streams is complete."""
        last, changed = None, since
        while time.perf_counter() - since < TIMEOUT_S:
            now = value(self.screen())
            if now != last:
                last, changed = now, time.perf_counter()
            elif now is not None and time.perf_counter() - changed >= still:
                return changed - since
            time.sleep(POLL_S)
        return float("nan")

    def keys(self, *keys: str) -> float:
        now = time.perf_counter()
        self.tmux("send-keys", "-t", self.name, *keys)
        return now

    def proc(self, name: str) -> str:
        """``/proc/PID/name`` of the program; a program that is gone ends the benchmark with
        what its screen said, not with a FileNotFoundError."""
        try:
            return Path(f"/proc/{self.pid}/{name}").read_text()
        except FileNotFoundError:
            last = [row for row in self.screen().splitlines() if row.strip()][-5:]
            raise SystemExit(f"{self.name} exited; its screen ends:\n" + "\n".join(last)) from None

    def peak_mb(self) -> float:
        status = self.proc("status")
        return int(re.search(r"VmHWM:\s+(\d+)", status).group(1)) / 1024  # type: ignore[union-attr]

    def cpu_s(self) -> float:
        """CPU seconds the program has used: robust where wall time is not (a loaded box)."""
        fields = self.proc("stat").rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self) -> None:
        self.tmux("kill-server")


def last_line(path: Path) -> tuple[int, str]:
    """Line count and a visible prefix of the last line (its stamp makes it unique)."""
    with path.open("rb") as fh:
        count = sum(chunk.count(b"\n") for chunk in iter(lambda: fh.read(1 << 24), b""))
        fh.seek(max(0, path.stat().st_size - 4096))
        tail = fh.read().decode("utf-8", "replace").rstrip("\n").rsplit("\n", 1)[-1]
    return count, re.sub(r"\x1b\[[0-9;]*m", "", tail)[:60]


def bench_spectrace(exe: str, log: Path, count: int) -> dict[str, float]:
    shows_last = re.compile(rf"^\s*{count} ", re.M)
    term = Terminal("bench-spectrace", f"{exe} tui {log}")
    out = {"first_screen": term.until(lambda s: bool(STAMP.search(s)))}
    out["cpu_at_first_screen"] = term.cpu_s()
    out["first_crash"] = term.until(
        lambda s: any(int(n.replace(",", "")) > 0 for n in CRASHES.findall(s))
    )
    out["full_list"] = term.until(lambda s: bool(CRASHES.search(s)) and "scanning" not in s)
    out["cpu_at_full_list"] = term.cpu_s()
    term.until(lambda s: "indexing" not in s)
    out["index_done"] = time.perf_counter() - term.start
    out["jump_last"] = term.until(lambda s: bool(shows_last.search(s)), since=term.keys("G"))
    out["peak_mb"] = term.peak_mb()
    term.close()
    early = Terminal("bench-spectrace", f"{exe} tui {log}")
    early.until(lambda s: bool(STAMP.search(s)))
    early.keys("G")
    out["last_line_from_start"] = early.until(lambda s: bool(shows_last.search(s)))
    early.close()
    return out


def bench_toolong(exe: str, log: Path, tail: str) -> dict[str, float]:
    term = Terminal("bench-toolong", f"{exe} {log}")
    out = {"first_screen": term.until(lambda s: bool(STAMP.search(s)))}
    out["cpu_at_first_screen"] = term.cpu_s()
    term.keys("End")
    out["last_line_from_start"] = term.until(lambda s: tail[:50] in s)
    time.sleep(1.0)
    out["peak_mb"] = term.peak_mb()
    term.close()
    return out


def spectrace_actions(exe: str, log: Path, matches: int) -> dict[str, float]:
    """Search and filter in an idle app (index and scan done), from the Enter that submits."""
    term = Terminal("bench-spectrace", f"{exe} tui {log}", ACTION_SIZE)
    term.until(lambda s: "indexing" not in s and "scanning" not in s and bool(STAMP.search(s)))
    time.sleep(1.0)
    out: dict[str, float] = {}
    term.keys("/")
    term.until(lambda s: "Search (n/N" in s)
    term.tmux("send-keys", "-t", term.name, "-l", ABSENT)
    out["absent_answered"] = term.until(lambda s: "not found" in s, since=term.keys("Enter"))
    term.keys("/")
    term.until(lambda s: "Search (n/N" in s)
    term.tmux("send-keys", "-t", term.name, "-l", PRESENT)
    sent = term.keys("Enter")
    out["search_first_match"] = term.until(lambda s: _search_count(s) >= 1, since=sent)
    out["search_complete"] = term.until(lambda s: f"{matches:,} match" in s, since=sent)
    term.keys("f")
    term.until(lambda s: "Filter lines" in s)
    term.tmux("send-keys", "-t", term.name, "-l", PRESENT)
    sent = term.keys("Enter")

    def filtered(screen: str) -> bool:  # the status says so and the first row is a kept line
        rows = screen.splitlines()
        return len(rows) > 1 and "filter" in rows[0] and PRESENT in rows[1]

    out["filter_first_line"] = term.until(filtered, since=sent)
    out["filter_complete"] = term.until(lambda s: f"{matches:,} shown" in s, since=sent)
    term.close()
    return out


def _search_count(screen: str) -> int:
    m = re.search(r"search '[^']*': (?:[\d,]+/[\d,]+ lines, )?([\d,]+) match", screen)
    return int(m.group(1).replace(",", "")) if m else 0


def lnav_actions(exe: str, log: Path, matches: int) -> dict[str, float]:
    """The same actions in lnav (``/`` search, ``:filter-in``), from the Enter that submits."""
    term = Terminal("bench-lnav", f"{exe} {log}", ACTION_SIZE)
    term.until(lambda s: bool(re.search(r"L\d+\s+100%", s)))
    time.sleep(1.0)
    out: dict[str, float] = {}
    term.keys("/")
    term.tmux("send-keys", "-t", term.name, "-l", ABSENT)
    out["absent_answered"] = term.until(
        lambda s: f"0 hits for “{ABSENT}”" in s, since=term.keys("Enter")
    )
    term.keys("/")
    term.tmux("send-keys", "-t", term.name, "-l", PRESENT)
    sent = term.keys("Enter")
    hits = re.compile(rf"(?:([\d,]+) hits?|Hit [\d,]+ of ([\d,]+)) for “{PRESENT}”")

    def count(screen: str) -> int:
        m = hits.search(screen)
        return int((m.group(1) or m.group(2)).replace(",", "")) if m else 0

    out["search_first_match"] = term.until(lambda s: count(s) >= 1, since=sent)
    out["search_complete"] = term.until(lambda s: count(s) >= matches, since=sent)
    term.keys(":")
    term.tmux("send-keys", "-t", term.name, "-l", f"filter-in {PRESENT}")
    sent = term.keys("Enter")
    out["filter_first_line"] = term.until(
        lambda s: "Lines not shown" in s and PRESENT in s, since=sent
    )
    # lnav filters messages (a line with its untagged continuation lines), so its hidden
    # count is not lines minus matches: complete is when that count stops changing
    hidden = re.compile(r"([\d,]+) Lines not shown")
    out["filter_complete"] = term.settled(
        lambda s: m.group(1) if (m := hidden.search(s)) else None, sent
    )
    term.close()
    return out


def count_lines_with(path: Path, text: str) -> int:
    needle, n = text.encode(), 0
    with path.open("rb") as fh:
        for line in fh:
            n += needle in line
    return n


def bench_floor(log: Path) -> dict[str, float]:
    """Without toolong: ``head`` in the same terminal, the floor any viewer starts from."""
    term = Terminal("bench-floor", f"sh -c 'head -n 60 {log}; exec sleep 60'")
    out = {"first_screen": term.until(lambda s: bool(STAMP.search(s)))}
    term.close()
    return out


def make_log(size_mb: int, folder: Path) -> Path:
    out = folder / f"bench_{size_mb}mb.log"
    gen = Path(__file__).with_name("gen_log.py")
    subprocess.run(
        [sys.executable, str(gen), "--size-mb", str(size_mb), "--out", str(out)], check=True
    )
    return out


def warm(path: Path) -> None:
    with path.open("rb") as fh:
        while fh.read(1 << 24):
            pass


def medians(runs: list[dict[str, float]]) -> dict[str, float]:
    """Each figure's median over the runs: one slow start on a shared box is ignored."""
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]} if runs else {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=256)
    parser.add_argument("--file", type=Path, help="an existing log instead of a generated one")
    parser.add_argument("--toolong", default=os.environ.get("TOOLONG", shutil.which("tl")))
    parser.add_argument("--spectrace", action="append", help="command (repeatable)")
    parser.add_argument("--lnav", default=shutil.which("lnav"))
    parser.add_argument("--repeat", type=int, default=3, help="starts per program (medians)")
    parser.add_argument("--no-open", dest="open", action="store_false", help="skip opening")
    parser.add_argument("--no-actions", dest="actions", action="store_false", help="skip actions")
    args = parser.parse_args()
    args.spectrace = args.spectrace or [shutil.which("spectrace") or "spectrace"]
    with tempfile.TemporaryDirectory(prefix="bench-tui-") as tmp:
        log = args.file or make_log(args.size_mb, Path(tmp))
        warm(log)
        count, tail = last_line(log)
        size_mb = log.stat().st_size / 2**20
        load = os.getloadavg()[0]
        print(
            f"input: {log} ({size_mb:.0f} MiB, {count:,} lines), warm page cache, "
            f"{os.cpu_count()} cores, load average {load:.1f} at start, "
            f"medians of {args.repeat} starts each"
        )
        if args.open:
            opening(args, log, count, tail)
        if args.actions and args.lnav:
            actions(args, log)
        elif args.actions:
            print("lnav not found (apt-get install lnav): actions not measured")


def opening(args: argparse.Namespace, log: Path, count: int, tail: str) -> None:
    runs: dict[str, list[dict[str, float]]] = {exe: [] for exe in args.spectrace}
    others: list[dict[str, float]] = []
    for _ in range(args.repeat):
        for exe in args.spectrace:
            runs[exe].append(bench_spectrace(exe, log, count))
        others.append(bench_toolong(args.toolong, log, tail) if args.toolong else bench_floor(log))
    table("open", [medians(r) for r in runs.values()], medians(others),
          "toolong" if args.toolong else "head", args.spectrace)  # fmt: skip


def actions(args: argparse.Namespace, log: Path) -> None:
    matches = count_lines_with(log, PRESENT)
    print(f"actions: search {ABSENT!r} (absent), search and filter {PRESENT!r} ({matches:,} lines)")
    runs: dict[str, list[dict[str, float]]] = {exe: [] for exe in args.spectrace}
    others = []
    for _ in range(args.repeat):
        for exe in args.spectrace:
            runs[exe].append(spectrace_actions(exe, log, matches))
        others.append(lnav_actions(args.lnav, log, matches))
    table("action", [medians(r) for r in runs.values()], medians(others), "lnav", args.spectrace)


def table(what: str, ours: list[dict[str, float]], theirs: dict[str, float], other_name: str,
          commands: list[str]) -> None:  # fmt: skip
    """One column per spectrace command (``#1``, ``#2`` when several), then the other program,
    then its ratio to each."""
    names = ["spectrace"] if len(ours) == 1 else [f"#{n + 1}" for n in range(len(ours))]
    if len(ours) > 1:
        print("  ".join(f"{name} = {cmd}" for name, cmd in zip(names, commands, strict=True)))
    ratios = ["ratio"] if len(ours) == 1 else [f"ratio{name}" for name in names]
    print(f"{what:<24}" + "".join(f"{h:>12}" for h in (*names, other_name))
          + "".join(f"{h:>10}" for h in ratios))  # fmt: skip
    for key in ours[0]:
        unit = " MB" if key == "peak_mb" else " s"  # cpu_* are CPU seconds of the process
        other = theirs.get(key)
        cells = [f"{col[key]:10.2f}{unit}" for col in ours]
        cells.append(f"{other:10.2f}{unit}" if other is not None else " " * 12)
        cells += [f"{other / col[key]:9.2f}x" if other and col[key] else " " * 10 for col in ours]
        print(f"{key:<24}" + "".join(cells))
    print(f"ratio = {other_name} / spectrace (above 1: spectrace is faster or smaller)")


if __name__ == "__main__":
    main()
