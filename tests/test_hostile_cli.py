"""Hostile rules, baselines, reports and file names: one line and exit 2, or harmless output;
never a traceback, never a raw terminal escape."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import typer
from test_hostile_inputs import seed_core, write
from typer.testing import CliRunner

from spectrace import diff, triage
from spectrace.commands import register_all
from spectrace.errors import InputError, RuleError
from spectrace.reports import Format, render
from spectrace.reports.json import build_document
from spectrace.ruleset import RuleSet
from spectrace.textsafe import inert

# ESC (OSC 52 clipboard write, CSI clear screen), BEL, a C1 CSI, a bidi override, zero-width
UNSAFE = ("\x1b", "\x07", "\x9b", "\u202e", "\u200b", "\ufeff")
HOSTILE_NAME = "a\nb[red]x[\\red]\x1b]52;c;aGk=\x07::warning::z,1:%0A\x9b2J\u202e.log"


def spectrace(*args: str, **kw: object) -> subprocess.CompletedProcess[str]:
    pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **kw}
    return subprocess.run(
        [sys.executable, "-m", "spectrace", *args], text=True, timeout=120, **pipes,  # type: ignore[call-overload]
    )  # fmt: skip


def assert_one_line_error(proc: subprocess.CompletedProcess[str], *words: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("spectrace: error:"), proc.stderr
    assert all(w in lines[0] for w in words), lines[0]
    assert not any(c in proc.stderr for c in UNSAFE)


def test_triage_with_stdin_closed_is_one_line() -> None:
    proc = spectrace("triage", "-", preexec_fn=lambda: os.close(0))
    assert_one_line_error(proc, "stdin is closed")


def test_an_error_naming_a_hostile_path_stays_one_harmless_line(tmp_path: Path) -> None:
    name = "nope\x1b]52;c;aGk=\x07\nline2\x9b2J\u202e.log"
    assert_one_line_error(spectrace("triage", str(tmp_path / name)), "no such file")


@pytest.mark.parametrize(
    "toml",
    ["crash = [1, 2]\n", 'benign = [[1], "x"]\n'],
    ids=["numbers", "mixed"],
)
def test_a_rule_array_of_non_tables_is_a_rule_error(tmp_path: Path, toml: str) -> None:
    (tmp_path / "bad.toml").write_text(toml)
    with pytest.raises(RuleError, match="is not a table"):
        RuleSet.load([tmp_path])


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ('{"incidents": [{"signature": ["a"]}]}', "malformed signature"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"spectrace_baseline": 99, "signatures": []}', "newer"),
        ('{"spectrace_baseline": 1, "signature_version": "7", "signatures": []}', "version 7"),
    ],
    ids=["unhashable", "deep", "newer-format", "other-signature-version"],
)
def test_a_hostile_baseline_is_one_input_error(tmp_path: Path, content: str, words: str) -> None:
    path = tmp_path / "baseline.json"
    path.write_text(content)
    with pytest.raises(InputError, match=words) as err:
        triage.read_baseline(path)
    assert "\n" not in str(err.value)


def report(tmp_path: Path, incidents: object, version: str = "1.1") -> str:
    path = tmp_path / "report.json"
    path.write_text(json.dumps({"schema_version": version, "incidents": incidents}))
    return str(path)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ([{"signature": ["a"]}], "no valid 'incidents'"),
        ("deep", "nested too deeply"),
        ([], "not one this spectrace reads"),
    ],
    ids=["unhashable", "deep", "newer-schema"],
)
def test_a_hostile_report_given_to_diff_is_one_input_error(
    tmp_path: Path, content: object, words: str
) -> None:
    path = report(tmp_path, content, version="99.0" if words.startswith("not one") else "1.1")
    if content == "deep":
        Path(path).write_text('{"schema_version": "1.1", "incidents": ' + "[" * 100_000 + "]}")
    with pytest.raises(InputError, match=words):
        diff.load_report(path)


def test_diff_shows_a_report_of_wrong_types_and_hostile_text_harmlessly(tmp_path: Path) -> None:
    hostile = f"[bold red]x[/] {''.join(UNSAFE)} [link=file:///etc/passwd]pw[/link]"
    old = report(tmp_path, [{"signature": "0123456789abcdef", "message": {"x": 1}, "ranks": 5,
                             "first_seen": 7, "id": 3, "exception_type": None}])  # fmt: skip
    new = tmp_path / "new.json"
    new.write_text(json.dumps({"schema_version": "1.1", "incidents": [
        {"signature": "fedcba9876543210", "id": hostile, "message": hostile, "ranks": [hostile],
         "first_seen": {"file": hostile, "line": "1"}}]}))  # fmt: skip
    app = typer.Typer()
    register_all(app, ())
    for fmt in ("text", "json"):
        result = CliRunner().invoke(app, ["diff", "-f", fmt, old, str(new)])
        assert result.exit_code == 1, result.output
        assert "1 new" in result.output or '"new": 1' in result.output, result.output
        assert not any(c in result.output for c in UNSAFE), result.output
        assert "[link=file:///etc/passwd]" in result.output  # shown as text, never as markup


@pytest.fixture
def hostile_document(tmp_path: Path) -> dict[str, object]:
    """The seed crash in a file whose name carries a newline, escapes and workflow syntax."""
    path = write(tmp_path, seed_core(), HOSTILE_NAME)
    analysis = triage.analyse_paths([path], [])
    return build_document(analysis, triage.judge(analysis), redact=True)


@pytest.mark.parametrize("fmt", list(Format))
def test_a_hostile_file_name_is_harmless_in_every_format(
    hostile_document: dict[str, object], fmt: Format
) -> None:
    out = render(hostile_document, fmt)
    assert not any(c in out for c in UNSAFE), [c for c in UNSAFE if c in out]
    if fmt is Format.JSON:
        files = json.loads(out)["files"]
        assert files[0]["path"].endswith(HOSTILE_NAME)  # the data is kept, only escaped
    elif fmt is Format.SARIF:
        json.loads(out)
    elif fmt is Format.JUNIT:
        ET.fromstring(out.split("\n", 1)[1])
    elif fmt is Format.GITHUB:
        commands = [line for line in out.splitlines() if line.startswith("::")]
        assert len(commands) == 2 and all(
            c.startswith(("::error ", "::warning ")) for c in commands
        )
    elif fmt is Format.MARKDOWN:
        rows = [line for line in out.splitlines() if line.startswith("| I")]
        assert len(rows) == 2 and all(row.count(" | ") == 6 for row in rows), rows
    elif fmt is Format.TEXT:
        assert out.count(".log: 85 lines") == 1 and "a\\x0ab" in out


def test_zero_width_and_bidi_marks_are_unsafe() -> None:
    assert inert("Trace\u200bback \u200f\u061c\u2060x\ufeff") == (
        "Trace\\x200bback \\x200f\\x61c\\x2060x\\xfeff"
    )


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["stacks", "1", "--interval", "inf"], "--interval"),
        (["stacks", "1", "--interval", "nan"], "--interval"),
        (["stacks", "1", "-n", "99999999999999999999"], "--samples"),
        (["stacks", "--watch", "x.log", "--pid", "1", "--stall", "nan"], "--stall"),
        (["engine", "run", "--out", "OUT", "--dtype", "int7"], "unknown dtype"),
        (["engine", "run", "--out", "FILE", "--num-requests", "1"], "cannot write under --out"),
    ],
    ids=["interval-inf", "interval-nan", "samples-huge", "stall-nan", "dtype", "out-is-a-file"],
)
def test_absurd_stacks_and_engine_options_are_one_line(
    tmp_path: Path, args: list[str], words: str
) -> None:
    """Rejected before any process is sampled or any rank starts (no torch import, no sleep)."""
    file = write(tmp_path, b"x\n", "file.log")
    args = [file if a == "FILE" else str(tmp_path / "out") if a == "OUT" else a for a in args]
    assert_one_line_error(spectrace(*args), words)


@pytest.mark.parametrize(
    "content",
    [
        '{"pg_status": [1, 2], "entries": 5}',
        '{"pg_status": {"0": 5}, "entries": []}',
        '{"pg_status": ' + "[" * 100_000 + "]" * 100_000 + "}",
    ],
    ids=["list-status", "int-status", "deep"],
)
def test_a_damaged_flight_dump_beside_a_log_is_skipped_not_fatal(
    tmp_path: Path, content: str
) -> None:
    """The crash in the log is still reported; the dump gets a one-line warning."""
    write(tmp_path, seed_core(), "server.log")
    write(tmp_path, content.encode(), "fr_dump_0.json")
    proc = spectrace("triage", str(tmp_path))
    assert proc.returncode == 1 and "tensor a (160)" in proc.stdout, proc.stderr
    assert proc.stderr.count("spectrace: warning: skipping") == 1 and "Traceback" not in proc.stderr
    alone = spectrace("triage", str(tmp_path / "fr_dump_0.json"))
    assert_one_line_error(alone, "flight-recorder dump")


def test_a_deep_stacks_capture_is_one_line(tmp_path: Path) -> None:
    path = write(tmp_path, b'{"format": "spectrace-stacks", "x": ' + b"[" * 100_000, "cap.json")
    assert_one_line_error(spectrace("stacks", "--load", path), "stacks capture")


def test_tui_refuses_a_pipe_a_device_and_a_zip(tmp_path: Path) -> None:
    """The log view seeks in its file: a pipe would lose its head, /dev/zero never ends."""
    from spectrace.commands.tui import expand

    fifo = tmp_path / "pipe.log"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="tui needs files it can reread"):
        expand([fifo])
    with pytest.raises(InputError, match="tui needs files it can reread"):
        expand([Path("/dev/zero")])
    packed = Path(write(tmp_path, b"PK\x03\x04" + bytes(64), "server.log.zip"))
    with pytest.raises(InputError, match="zip archive"):
        expand([packed])


def test_stdin_on_a_terminal_says_what_it_waits_for() -> None:
    """`spectrace triage -` typed at a prompt would otherwise sit silent like a hang."""
    import pty

    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "spectrace", "triage", "-"],
            stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        os.write(master, b"\x04")  # Ctrl-D at the start of a line: end of input
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(master)
        os.close(slave)
    assert "reading the log from the terminal; end it with Ctrl-D" in err
    assert proc.returncode == 0 and "Traceback" not in err, err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
@pytest.mark.parametrize("args", [["triage", "-f", "json"], ["triage"], ["diff", "LOG"]])
def test_a_full_disk_for_the_output_is_one_line(tmp_path: Path, args: list[str]) -> None:
    log = write(tmp_path, seed_core())
    with open("/dev/full", "w") as full:
        proc = spectrace(*[log if a == "LOG" else a for a in args], log, stdout=full)
    assert_one_line_error(proc, "cannot write the output: No space left on device")


@pytest.mark.parametrize(
    "pattern",
    [
        "(?:(?:a{1000}){1000}){1000}x",
        "(?:(?:a{1000}){1000}){0,10}x",
        "(?:(?:a{1000}){1000}){1000}\\\\p{L}",
    ],
    ids=["fixed", "inside-optional", "regex-only-syntax"],
)
def test_a_rule_whose_repeats_unroll_past_any_line_is_refused(tmp_path: Path, pattern: str) -> None:
    """`regex` unrolls counted repeats at compile time: the first took 24 GB before."""
    (tmp_path / "big.toml").write_text(
        f'[[crash]]\nid = "big"\npattern = "{pattern}"\nliterals = ["aaa"]\n'
    )
    with pytest.raises(RuleError, match="rule big: key 'pattern' repeats to about"):
        RuleSet.load([tmp_path])


def test_a_fifo_named_like_a_rule_file_is_refused_not_waited_on(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "a.toml")
    with pytest.raises(RuleError, match="not a regular file"):
        RuleSet.load([tmp_path])


def test_an_expect_file_of_too_many_markers_is_one_line(tmp_path: Path) -> None:
    """100,000 markers took 250 s and 1.5 GB before; 1,000 take about a second."""
    markers = tmp_path / "markers.txt"
    markers.write_text("".join(f"marker {i} is up\n" for i in range(1001)))
    proc = spectrace("triage", "--expect-file", str(markers), write(tmp_path, seed_core()))
    assert_one_line_error(proc, "1001 expected markers; at most 1000")


def test_a_warning_shows_a_file_name_as_typed_no_emoji_or_markup(tmp_path: Path) -> None:
    empty = write(tmp_path, b"", ":fire:[red]x.log")
    proc = spectrace("triage", "-f", "json", empty, write(tmp_path, seed_core()))
    assert proc.returncode == 1 and "skipping " + empty + ": empty file" in proc.stderr, proc.stderr
