"""Logs as issue threads and log viewers show them: quote marks, code marks, box borders,
shipper / Kibana / syslog stamps. Each line here is written by us in the pasted shape."""

from __future__ import annotations

from datetime import datetime

import pytest

from spectrace.dialects.detect import LineParser, normalise
from spectrace.dialects.paste import unpaste
from spectrace.dialects.wrappers import peel

HEAD = "[2026-03-02 10:15:42 TP3] Scheduler hit an exception: Traceback (most recent call last):"


@pytest.mark.parametrize(
    ("pasted", "clean"),
    [
        (f"> {HEAD}", HEAD),  # a quoted reply
        (f"> > {HEAD}", HEAD),  # quoted twice
        (">", ""),  # an empty quoted line
        (f"`{HEAD}", HEAD),  # inline code opened on the first line
        ("RuntimeError: CUDA error: unspecified launch failure`", "RuntimeError: CUDA error: unspecified launch failure"),
        (f"```{HEAD}", HEAD),  # a fence glued to the first line
        ("RuntimeError: boom```", "RuntimeError: boom"),
        (f"{HEAD}      │", HEAD),  # k9s / lazydocker border on the right
        ('│   File "/srv/sglang/srt/managers/scheduler.py", line 9, in f   │',
         '  File "/srv/sglang/srt/managers/scheduler.py", line 9, in f'),
    ],
)  # fmt: skip
def test_paste_marks_come_off(pasted: str, clean: str) -> None:
    assert unpaste(pasted) == clean


@pytest.mark.parametrize(
    "line",
    [
        "`x` is a balanced code span at the start",
        "AssertionError: expected `topk` to be 1, got `4`",
        "Decode batch, #running-req: 10, #queue-req: 0, ",  # trailing blank kept (0.5.4-0.5.8)
        "plain text",
        "",
    ],
)
def test_log_text_is_left_alone(line: str) -> None:
    assert unpaste(line) == line


def test_long_blank_tail_is_cheap_and_kept() -> None:
    line = "x" + " " * 60_000
    assert unpaste(line) == line


def test_quoted_header_is_parsed_with_its_rank_and_time() -> None:
    parsed = LineParser("issue.md").parse(f"> {HEAD}".encode(), 1, 0)
    assert (parsed.dialect, parsed.rank) == ("sglang", "TP3")
    assert parsed.ts == datetime(2026, 3, 2, 10, 15, 42)
    assert normalise(f"`{HEAD}`".encode()) == f"`{HEAD}`"  # a balanced span is not a paste mark


def test_shipper_stamp_and_pod_name() -> None:
    p = peel(
        "[2026-03-02T18:15:42+08:00] rl-job-7f3c-0 >> (SGLangEngine pid=411) "
        "[2026-03-02 10:15:42 TP3] Scheduler hit an exception: x"
    )
    assert (p.container, p.proc_name) == ("rl-job-7f3c-0", "SGLangEngine")
    assert p.text.startswith("[2026-03-02 10:15:42 TP3]")
    assert p.ts is not None and p.ts.ts_text == "2026-03-02T18:15:42+08:00"


def test_kibana_stamp_before_a_torchrun_line() -> None:
    p = peel("Mar 2, 2026 @ 10:15:42.120\t[rank3]:[E302 10:15:42.119 ProcessGroupNCCL.cpp:1] x")
    assert p.torch_rank == "rank3" and p.text.startswith("[E302")
    assert p.ts is not None and p.ts.ts == datetime(2026, 3, 2, 10, 15, 42, 120000)


def test_syslog_stamp_takes_the_year_of_the_log() -> None:
    parser = LineParser("journal.txt")
    parser.parse(b"[2026-03-02 10:15:40] server_args=ServerArgs(model_path='/m')", 1, 0)
    line = parser.parse(b"Mar  2 10:15:42 gpu07 python3[4242]: Killed", 2, 60)
    assert line.text == "Killed"
    assert line.ts == datetime(2026, 3, 2, 10, 15, 42)


def test_header_of_a_paste_indented_as_a_whole() -> None:
    parsed = LineParser("issue.md").parse(f"    {HEAD}".encode(), 1, 0)
    assert (parsed.dialect, parsed.rank, parsed.indent) == ("sglang", "TP3", 4)
    assert parsed.text.startswith("Scheduler hit an exception:")
    frame = LineParser("issue.md").parse(b'    File "/srv/a.py", line 3, in f', 1, 0)
    assert (frame.headed, frame.indent) == (False, 0)  # a frame line is no header


def test_header_copied_without_its_opening_bracket() -> None:
    parsed = LineParser("issue.md").parse(HEAD[1:].encode(), 1, 0)
    assert (parsed.dialect, parsed.rank, parsed.ts_text) == ("sglang", "TP3", "2026-03-02 10:15:42")


def test_kubectl_prefix_names_the_pod() -> None:
    p = peel("[pod/sglang-decode-3/sglang] [2026-03-02 10:15:42 TP3] Decode batch, #running-req: 9")
    assert (p.container, p.text[:26]) == ("sglang-decode-3", "[2026-03-02 10:15:42 TP3] ")


@pytest.mark.parametrize(
    ("pasted", "clean"),
    [
        (f"    > {HEAD}", f"    {HEAD}"),  # marks behind a whole-paste indent: the indent stays
        (f"  `{HEAD}", f"  {HEAD}"),
        ("    `x` y", "    `x` y"),
    ],
)
def test_paste_marks_behind_an_indent(pasted: str, clean: str) -> None:
    assert unpaste(pasted) == clean


def test_wrapper_behind_an_indent() -> None:
    p = peel(f"    2026-03-02T10:15:42.217Z stdout F {HEAD}")
    assert p.text == HEAD and p.ts is not None
    assert peel("    plain text").text == "    plain text"


@pytest.mark.parametrize(
    ("line", "text"),
    [
        (f"4810:{HEAD}", HEAD),
        ('4811-  File "/srv/a.py", line 3, in f', '  File "/srv/a.py", line 3, in f'),
        ("logs/server.log:4815:RuntimeError: boom", "RuntimeError: boom"),
        ("12:34:56 a time, not a line number", "12:34:56 a time, not a line number"),
        ("10:15:42 TP0] a cut header", "10:15:42 TP0] a cut header"),
        (
            "sglang-0:100:1012 [1] NCCL INFO Init COMPLETE",
            "sglang-0:100:1012 [1] NCCL INFO Init COMPLETE",
        ),
        ("4812-", ""),  # a blank context line stays blank (it ends an exception's message)
        (
            "/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1422: indexSelectSmallIndex: x",
            "/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1422: indexSelectSmallIndex: x",
        ),
        (
            "/usr/lib/python3/x.py:63: FutureWarning: y",
            "/usr/lib/python3/x.py:63: FutureWarning: y",
        ),
        (
            'logs/server.log-4816-  File "/srv/a.py", line 3, in f',
            '  File "/srv/a.py", line 3, in f',
        ),
        (f"4813-sglang-1  | {HEAD}", HEAD),  # before a compose prefix: the number is outermost
    ],
)
def test_grep_line_numbers(line: str, text: str) -> None:
    assert peel(line).text == text


def test_forum_markdown_escapes_come_off_only_as_a_bracket_pair() -> None:
    assert unpaste("INFO 01-02 03:04:05 \\[x.py:7\\] a\\_b") == "INFO 01-02 03:04:05 [x.py:7] a_b"
    assert unpaste('    m = re.match(r"\\[", s)') == '    m = re.match(r"\\[", s)'
