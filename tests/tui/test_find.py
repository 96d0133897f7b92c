"""Search, filter and rank lines over raw chunks agree with a plain line-by-line reading."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from tui_helpers import interleaved_seed

from spectrace.line_index import LineIndex
from spectrace.tui.dialogs import line_parts
from spectrace.tui.find import PatternTimeout, compile_query, required_literal, scan_lines
from spectrace.tui.linestyle import plain
from spectrace.tui.ranks import crash_owners, lines_of, ranks_seen
from spectrace.tui.widgets.incident_detail import short_path, unescaped

LINES = [
    "[2026-02-27 21:00:18 TP0] Prefill batch, #new-seq: 1, #new-token: 512",
    "[2026-02-27 21:00:18 TP1] Decode batch, #running-req: 10, gen throughput (token/s): 311.2",
    "\x1b[32m[2026-02-27 21:00:19 TP2] prefill BATCH in green\x1b[0m",
    '  File "/usr/lib/python3/dist-packages/sglang/srt/managers/scheduler.py", line 3',
    "RuntimeError: The size of tensor a (160) must match the size of tensor b (2)",
    "progress 10%\rprefill batch redrawn",
    "Ünïcödé prefill batch line",
    "",
]


def _index(tmp_path: Path, lines: list[str], repeat: int = 1) -> LineIndex:
    log = tmp_path / "x.log"
    log.write_text("\n".join(lines * repeat) + "\n", encoding="utf-8")
    index = LineIndex(log, chunk=4096)
    index.build()
    return index


def _found(index: LineIndex, text: str, regex: bool) -> list[int]:
    query = compile_query(text, use_regex=regex)
    assert not isinstance(query, str)
    return [n for step in scan_lines(index, query, 0, index.line_count) for n in step.hits]


@pytest.mark.parametrize(
    ("text", "regex"),
    [
        ("prefill batch", False),  # caseless, through escapes and a redraw
        ("zz-absent-zz", False),
        ("ünïcödé", False),  # non-ASCII: no byte-level case folding, still found
        (r"tensor a \(\d+\)", True),  # a literal prefix, then the pattern on candidates
        (r"\d{3}\.\d", True),  # no literal at all: the pattern over whole chunks
        (r"^\s+File", True),
        (r"(?i)DECODE", True),
    ],
)
def test_scan_agrees_with_reading_every_line(tmp_path: Path, text: str, regex: bool) -> None:
    index = _index(tmp_path, LINES, repeat=300)  # several 4 KiB chunks
    query = compile_query(text, use_regex=regex)
    assert not isinstance(query, str)
    expected = [n for n in range(index.line_count) if query.pattern.search(plain(index.line(n)[0]))]
    assert _found(index, text, regex) == expected


def test_a_literal_is_required_only_where_every_match_holds_it() -> None:
    assert required_literal(r"Prefill batch, #new-seq: \d+") == "Prefill batch, #new-seq: "
    assert required_literal(r"(foo|bar)baz") == "baz"
    assert required_literal(r"a+b") == "b"
    assert required_literal(r"\d{5}") == ""


def test_a_catastrophic_pattern_times_out_instead_of_hanging(tmp_path: Path) -> None:
    """``regex`` already defuses ``(a+)+$``; ``(a|aa)+$`` still backtracks exponentially."""
    index = _index(tmp_path, ["a" * 40 + "!"])
    assert _found(index, r"(a+)+$", True) == []
    with pytest.raises(PatternTimeout):
        _found(index, r"(a|aa)+$", True)


def test_a_bad_regex_is_one_line() -> None:
    said = compile_query("(unclosed", use_regex=True)
    assert isinstance(said, str) and said.startswith("bad regex") and "\n" not in said


def test_tp7_keeps_its_traceback_through_other_ranks_lines(tmp_path: Path) -> None:
    from spectrace import pipeline

    crashes: list = []
    log = interleaved_seed(tmp_path)
    pipeline.analyse([str(log)], on_crash=crashes.append)
    index = LineIndex(log)
    index.build()
    ranks = {r.name: r for r in ranks_seen([index], None)}
    assert sorted(ranks) == [f"TP{n}" for n in range(8)]  # each rank once
    owners = crash_owners(index, crashes)

    def lines(rank: str) -> set[int]:
        return {n + 1 for _, _, found in lines_of(index, ranks[rank], owners) for n in found}

    tp7, tp4 = lines("TP7"), lines("TP4")
    assert {973, 974, 999 - 1, 1000} <= tp7 and 999 not in tp7
    assert 999 in tp4 and 1000 not in tp4 and 974 not in tp4


def test_frames_lose_their_install_prefix_and_messages_their_escaped_newlines() -> None:
    for path, short in [
        ("/usr/lib/python3/dist-packages/torch/nn/module.py", "…/torch/nn/module.py"),
        (
            "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py",
            "…/sglang/srt/managers/scheduler.py",
        ),
        ("/vllm-workspace/vllm/v1/engine/core.py", "…/vllm/v1/engine/core.py"),
        ("/app/tensorrt_llm/executor/worker.py", "…/tensorrt_llm/executor/worker.py"),
        ("/home/me/project/run.py", "/home/me/project/run.py"),
    ]:
        assert short_path(path) == short
    assert unescaped(r"[TensorRT-LLM][ERROR] Assertion failed\n1  0x7f sym\n") == (
        "[TensorRT-LLM][ERROR] Assertion failed\n1  0x7f sym"
    )


def test_the_whole_line_view_splits_a_dump_and_a_flattened_paste() -> None:
    dump = (
        "[2026-02-27 20:48:47] server_args=ServerArgs(model_path='/m', tp_size=8, "
        + ", ".join(f"flag_{n}={n}" for n in range(300))
        + ", disable_overlap_schedule=True)"
    )
    assert len(dump) > 4000
    heading, rows = line_parts(dump.encode())
    assert heading.endswith("ServerArgs: 303 fields")
    assert "disable_overlap_schedule=True" in rows and "tp_size=8" in rows
    header = "(EngineCore_DP0 pid=142) ERROR 11-04 18:03:00 [core.py:708]"
    flat = f'{header} Traceback (most recent call last): {header}   File "x.py", line 3, in f {header} ValueError: boom'
    heading, rows = line_parts(flat.encode())
    assert heading.startswith("3 lines") and rows[-1].endswith("ValueError: boom")


def test_the_key_actions_do_not_import_the_app() -> None:
    """Issue 16 item 9: data flows one way; the mixins know a Protocol, not SpectraceApp."""
    folder = Path(__file__).parents[2] / "spectrace" / "tui"
    for name in ("actions.py", "follow.py", "searching.py", "selection.py", "host.py"):
        tree = ast.parse((folder / name).read_text())
        imported = {
            node.module
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module
        }
        assert "spectrace.tui.app" not in imported, name
    assert re.search(r"class SpectraceApp\(.*SearchActions", (folder / "app.py").read_text())
