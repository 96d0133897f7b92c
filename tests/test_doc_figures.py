"""The deterministic figures README.md and docs/ state, checked against what the code does.

Each check reads the phrase from the doc itself, so a doc that drifts (or a code change that
makes it wrong) fails here; a phrase that was reworded fails too, with the phrase to look for.
Timing figures are not checked (they are dated measurements; docs/figures.md lists them with
the script that prints each). The inventory of all figures is docs/figures.md.
"""

from __future__ import annotations

import ast
import inspect
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from spectrace import cli, guard, lookback, parallel, read, ruleset
from spectrace.assemblers import fatal, faultdump
from spectrace.commands import stacks as stacks_command
from spectrace.commands import triage as triage_command
from spectrace.incident_storms import STORM_LINES, STORM_SECONDS
from spectrace.linecount import NUMPY_INPUT_MIN
from spectrace.reports import Format, cap, github, words
from spectrace.reports import json as json_report
from spectrace.stacks import pasted

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"
MIB = 1024 * 1024


def doc(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def figures(name: str, pattern: str) -> tuple[int, ...]:
    """The numbers a phrase of the doc states (whitespace in the pattern matches line breaks)."""
    found = re.search(pattern.replace(" ", r"\s+"), doc(name))
    assert found, f"{name} no longer says {pattern!r}: update the doc's figure and this test"
    return tuple(int(g.replace(",", "")) for g in found.groups())


class _Sink:
    """A file that only counts: the generator's crash schedule depends on bytes, not on disk."""

    def write(self, data: bytes) -> int:
        return len(data)


@cache
def generated(size_mb: int, ranks: int) -> tuple[int, int, int, int]:
    """(crash records, incidents, lines, MiB) gen_log.py writes for ``--size-mb size_mb``
    (seed 0)."""
    sys.path.insert(0, str(BENCH))
    try:
        import gen_log
    finally:
        sys.path.remove(str(BENCH))
    out, truth = gen_log.generate(_Sink(), size_mb * 1_000_000, ranks, 0)
    return len(truth.crashes), len(truth.incidents), out.lines, out.bytes // MIB


@pytest.mark.parametrize(
    ("name", "pattern"),
    [
        ("README.md", r"gen_log.py --size-mb (\d+) --out big.log`, (\d+) known crashes"),
        ("docs/scan.md", r"\((\d+) MB gen_log, 8 ranks, (\d+) crashes;"),
        (
            "docs/figures.md",
            r"`gen_log.py --size-mb (\d+)` \(8 ranks, seed 0\) writes (\d+) crash records in (\d+) incidents",
        ),
        (
            "sample_logs/README.md",
            r"`--size-mb (\d+)` \(8 ranks, seed 0\) writes (\d+) crash records in (\d+) incidents",
        ),
    ],
)
def test_generated_log_holds_the_crashes_the_docs_count(name: str, pattern: str) -> None:
    size_mb, *counts = figures(name, pattern)
    assert generated(size_mb, 8)[: len(counts)] == tuple(counts)


def _stacks_default(name: str) -> float:
    """The default ``spectrace stacks`` shows the user for one option."""
    return inspect.signature(stacks_command.stacks_command).parameters[name].default


def test_the_tui_benchmark_log_is_the_one_the_generator_writes() -> None:
    size_mb, mib, lines, crashes = figures(
        "docs/tui.md",
        r"`benchmarks/gen_log.py --size-mb (\d+)`: (\d+) MiB, ([\d,]+) lines, (\d+) crash records",
    )
    found, _, found_lines, found_mib = generated(size_mb, 8)
    assert (found_mib, found_lines, found) == (mib, lines, crashes)


def _constants() -> list[tuple[str, str, tuple[int, ...]]]:
    """(doc, phrase, the values the code uses) for limits the docs promise."""
    return [
        ("README.md", r"shows the (\d+) most important incident groups", (cap.TEXT_MAX_INCIDENTS,)),
        ("docs/scan.md", r"two reused (\d+) MiB buffers", (read.BLOCK_SIZE // MIB,)),
        ("docs/scan.md", r"for plain files over (\d+) MB", (parallel.PARALLEL_MIN_BYTES // MIB,)),
        ("docs/fleet.md", r"\((\d+) MB, `parallel.PARALLEL_MIN_BYTES`\)", (parallel.PARALLEL_MIN_BYTES // MIB,)),
        ("docs/scan.md", r"used for inputs over (\d+) MB", (NUMPY_INPUT_MIN // MIB,)),
        ("docs/scan.md", r"of the (\d+) MiB before it", (lookback.MAX_BACK // MIB,)),
        ("docs/hostile-inputs.md", r"the line keeps its first (\d+) KiB", (read.MAX_LINE_BYTES // 1024,)),
        ("docs/hostile-inputs.md", r"the outer and inner (\d+) frames", (faultdump.MAX_FRAMES // 2,)),
        ("docs/hostile-inputs.md", r"with a (\d+) ms timeout per line and is dropped after (\d+) timeouts",
         (round(ruleset.USER_TIMEOUT_S * 1000), fatal.MAX_TIMEOUTS)),
        ("docs/rules.md", r"with a (\d+) ms budget per line", (round(ruleset.USER_TIMEOUT_S * 1000),)),
        ("docs/hostile-inputs.md", r"stops after (\d+) MiB of binary reads in a row", (guard.MAX_BINARY_RUN // MIB,)),
        ("docs/hostile-inputs.md", r"stops after (\d+) GiB of NULs", (guard.MAX_NUL_RUN // 1024 // MIB,)),
        ("docs/hostile-inputs.md", r"stops past (\d+)x the file's size and (\d+) GiB",
         (guard.BOMB_RATIO, guard.BOMB_FLOOR // 1024 // MIB)),
        ("docs/hostile-inputs.md", r"a baseline over (\d+) MiB or a marker file over (\d+) MiB",
         (triage_command.MAX_BASELINE // MIB, triage_command.MAX_MARKER_FILE // MIB)),
        ("docs/hostile-inputs.md", r"clipped to (\d+) characters", (cli.MAX_NAME_SHOWN,)),
        ("docs/hostile-inputs.md", r"human reports name (\d+) ranks", (words.MAX_RANKS,)),
        ("docs/interleaved-ranks.md", r"within (\d+) lines and (\d+) s",
         (STORM_LINES, int(STORM_SECONDS.total_seconds()))),
        ("docs/stacks.md", r"(\d+) lines without any dump line end it", (pasted.GAP_LINES,)),
        ("docs/stacks.md", r"bounds each py-spy call \(default (\d+) s\)", (round(_stacks_default('timeout')),)),
        ("docs/triage.md", r"The default is (\d+) for the text report", (cap.TEXT_MAX_INCIDENTS,)),
        ("docs/triage.md", r"at most its first (\d+) occurrences", (json_report.MAX_OCCURRENCES,)),
        ("docs/json-schema.md", r"at most the first (\d+)\)", (json_report.MAX_OCCURRENCES,)),
        ("docs/triage.md", r"at most (\d+) of each \(GitHub's per-step cap\)", (github.MAX_PER_TYPE,)),
    ]  # fmt: skip


@pytest.mark.parametrize(("name", "pattern", "values"), _constants())
def test_limits_the_docs_state_are_the_code_s(
    name: str, pattern: str, values: tuple[int, ...]
) -> None:
    assert figures(name, pattern) == values


def test_the_readme_names_every_report_format() -> None:
    listed = re.search(r"the CI command: ([a-z /]+) reports", doc("README.md"))
    assert listed, "README.md's command table no longer lists the report formats"
    assert listed.group(1).split(" / ") == [f.value for f in Format]
    assert "six report formats" in doc("README.md") and len(Format) == 6


def test_bench_load_dump_has_the_fields_the_docs_say() -> None:
    sys.path.insert(0, str(BENCH))
    try:
        import bench_load
    finally:
        sys.path.remove(str(BENCH))
    fields = ast.parse(bench_load._dump()[len("server_args=") :], mode="eval").body.keywords
    assert figures("docs/linking.md", r"feeding a (\d+)-field dump") == (len(fields),)


def _triage(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "spectrace", "triage", *args]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_exit_codes_are_the_readme_s() -> None:
    table = doc("README.md").split("### Exit codes", 1)[1].split("\n\n", 2)[1]
    codes = [int(m) for m in re.findall(r"^\| (\d+) \|", table, re.M)]
    assert codes == [0, 1, 2, 130] and cli.EXIT_INTERRUPTED == 130
    assert "The first command exits with code 1" in doc("README.md")
    marker = "Dynamic speculation disable enabled"
    assert _triage("sample_logs/seed_story/", "--expect", marker).returncode == 1
    assert _triage("sample_logs/benign_only/").returncode == 0
    bad = _triage("sample_logs/no_such_dir/")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


_UNITS = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}


def number_word(word: str) -> int:
    """'thirty-nine' -> 39, '105' -> 105: the README spells its round count (in digits past
    ninety-nine), and rounds keep being added."""
    if word.isdigit():
        return int(word)
    tens, _, unit = word.partition("-")
    if tens in _TENS:
        return _TENS[tens] + (_UNITS.index(unit) + 1 if unit else 0)
    return _UNITS.index(word) + 1


def test_the_readme_counts_the_real_log_rounds_of_docs_real_logs() -> None:
    said = re.search(r"about (\d+) real SGLang.{0,200}?in ([\w-]+)\s+rounds", doc("README.md"), re.S)
    assert said, "README.md no longer says 'about N real SGLang ... logs ..., in K rounds'"
    rounds = re.split(r"^# ", doc("docs/real-logs.md"), flags=re.M)[1:]
    excerpts = [re.search(r"(\d+)\s+excerpts", part) for part in rounds]
    assert all(excerpts), "a round of docs/real-logs.md no longer says how many excerpts it read"
    total = sum(int(m.group(1)) for m in excerpts if m)
    assert number_word(said.group(2)) == len(rounds)
    assert abs(int(said.group(1)) - total) <= total * 0.05  # "about"
