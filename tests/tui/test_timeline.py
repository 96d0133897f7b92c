"""Several rank files become one timeline ordered by their (year-less) stamps."""

from __future__ import annotations

from pathlib import Path

from tui_helpers import SAMPLES, SIZE, pilot, screen_lines, wait_for

from spectrace.dialects.detect import LineParser
from spectrace.line_index import LineIndex
from spectrace.tui.app import SpectraceApp
from spectrace.tui.timeline import FilteredSource, MergedSource, filter_rows, merge_order, stamp_key


def _indexes(paths: list[Path]) -> list[LineIndex]:
    indexes = [LineIndex(p) for p in paths]
    for index in indexes:
        index.build()
    return indexes


def test_vllm_rank_files_interleave_by_time(vllm_ranks: list[Path]) -> None:
    indexes = _indexes(vllm_ranks)
    order = merge_order(indexes)
    assert order is not None
    merged = MergedSource(indexes, order)
    steps = [merged.text(row)[0].split("] ")[-1] for row in range(merged.count)]
    assert steps[:4] == [
        "step 0 on rank 0",
        "step 0 on rank 1",
        "step 1 on rank 0",
        "step 1 on rank 1",
    ]
    assert merged.row_of(1, 2) == 5 and merged.locate(5) == (1, 2)


def test_unstamped_lines_stay_with_the_line_before(tmp_path: Path) -> None:
    a, b = tmp_path / "a.log", tmp_path / "b.log"
    a.write_text(
        "INFO 10-05 12:00:01.000 [x.py:1] a first\n  continuation of a\nINFO 10-05 12:00:05.000 [x.py:1] a last\n"
    )
    b.write_text("INFO 10-05 12:00:03.000 [x.py:1] b middle\n")
    indexes = _indexes([a, b])
    merged = MergedSource(indexes, merge_order(indexes) or [])
    texts = [merged.text(row)[0] for row in range(merged.count)]
    assert [t.split()[-1] for t in texts] == ["first", "a", "middle", "last"]


def test_filtered_rows_map_back_to_the_nearest_kept_line(vllm_ranks: list[Path]) -> None:
    indexes = _indexes(vllm_ranks)
    merged = MergedSource(indexes, merge_order(indexes) or [])
    rows = filter_rows(merged, lambda text, row: "rank 1" in text)
    assert rows is not None
    view = FilteredSource(merged, rows)
    assert view.count == 6 and view.locate(0) == (1, 0)
    assert view.row_of(0, 3) == 3  # a hidden rank-0 line lands on the next rank-1 line


@pilot
async def test_app_merges_a_directory_of_rank_files(vllm_ranks: list[Path]) -> None:
    app = SpectraceApp(vllm_ranks)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.base, MergedSource))
        await wait_for(pilot, lambda: app.log_view.source.count == 12)
        lines = screen_lines(app)
        assert lines[0].startswith(
            "worker_tp0       1 (Worker_TP0 pid=4100) INFO 10-05 12:00:00.005"
        )
        assert lines[1].startswith(
            "worker_tp1       1 (Worker_TP1 pid=4101) INFO 10-05 12:00:01.105"
        )
        assert "2 files merged: 12 lines" in str(app.query_one("#status").render())


def _core_key(ts) -> int:  # type: ignore[no-untyped-def]
    return (
        (((ts.month * 32 + ts.day) * 24 + ts.hour) * 60 + ts.minute) * 60 + ts.second
    ) * 10**6 + ts.microsecond


def test_merge_stamps_agree_with_the_dialect_parser_on_every_sample() -> None:
    """The merge's one-regex stamp scanner must read the same time as spectrace.dialects."""
    checked = 0
    for path in sorted(SAMPLES.glob("*/*")):
        if path.suffix in (".json", ".py") or path.is_dir():
            continue
        index = LineIndex(path)
        index.build()
        parser, partial = LineParser(str(path)), False
        for line in range(index.line_count):
            text = index.line(line)[0]
            core = parser.parse(text.encode(), line + 1, 0).ts
            joined, partial = partial, " stderr P " in text or " stdout P " in text
            if core is None or partial or joined:  # CRI partial records are joined by the parser
                continue
            assert stamp_key(text) == _core_key(core), f"{path}:{line + 1}: {text[:100]}"
            checked += 1
    assert checked > 2000


def test_torchrun_rank_files_merge_in_time_order() -> None:
    """c10 stamps (E519 05:58:22) and Python logging stamps (2026-05-19 05:48:21,337) interleave."""
    indexes = _indexes(sorted((SAMPLES / "nccl_watchdog").glob("rank*.log")))
    merged = MergedSource(indexes, merge_order(indexes) or [])
    keys = [
        k for k in (stamp_key(merged.text(row)[0]) for row in range(merged.count)) if k is not None
    ]
    assert len(keys) > 50 and keys == sorted(keys)
    files = [merged.locate(row)[0] for row in range(merged.count)]
    assert files[0] != files[-1]
