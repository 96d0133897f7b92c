"""rich's boxed traceback (typer, rich's handler, many CLIs) is one crash with its frames
(file, line, function, the failing source line) and its exception, wide or narrow (a folded
path), with or without locals boxes, chained, or pasted with its top border cut away. The
text is rendered here by rich itself from exceptions raised by this module's own code."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from rich.traceback import Traceback

from spectrace.pipeline import analyse


class ArenaFull(RuntimeError):
    pass


def _grow(sizes: list[int], n: int) -> int:
    return sizes[n]


def _step(budget: int) -> int:
    arena = [1, 2]
    return _grow(arena, budget)


def _reserve() -> None:
    try:
        _step(7)
    except IndexError as err:
        raise ArenaFull("kv arena cannot grow past 2 blocks") from err


def rendered(width: int, *, locals_: bool = False, chained: bool = False) -> list[str]:
    try:
        _reserve() if chained else _step(7)
    except Exception:
        out = io.StringIO()
        console = Console(file=out, width=width, color_system=None, force_terminal=False)
        console.print(Traceback(show_locals=locals_, width=width))
        return out.getvalue().splitlines()
    raise AssertionError("the code above raises")


def roots(tmp_path: Path, lines: list[str]) -> list:
    path = tmp_path / "cli.log"
    path.write_text("\n".join(["$ tool run --fast", *lines, "$ echo done"]) + "\n", "utf-8")
    return [i for i in analyse([str(path)]).incidents if i.root_cause]


def where(inc) -> list[tuple[str, int | None, str]]:
    return [(Path(f.file).name, f.line, f.function) for f in inc.frames]


def test_a_wide_panel_with_locals_is_one_crash_with_its_frames(tmp_path: Path) -> None:
    lines = rendered(110, locals_=True)
    assert any(line.lstrip("│ ").startswith("╭") and "locals" in line for line in lines)
    (inc,) = roots(tmp_path, lines)
    assert (inc.exception_type, inc.message) == ("IndexError", "list index out of range")
    here = Path(__file__).name
    assert [w[0] for w in where(inc)] == [here] * 3
    assert [w[2] for w in where(inc)] == ["rendered", "_step", "_grow"]
    assert inc.frames[-1].code == "return sizes[n]"


@pytest.mark.parametrize("width", [32, 36, 40, 44])  # the fold falls elsewhere in the path
def test_a_narrow_panel_folds_its_path_and_is_read_whole(tmp_path: Path, width: int) -> None:
    lines = rendered(width)
    folded = f"{__file__}:{_grow.__code__.co_firstlineno + 1} in _grow"
    assert not any(folded in line for line in lines)  # the frame's heading spans lines
    (inc,) = roots(tmp_path, lines)
    assert inc.exception_type == "IndexError"
    assert [w[2] for w in where(inc)] == ["rendered", "_step", "_grow"]
    assert inc.frames[-1].file == __file__


def test_chained_panels_are_one_crash_named_by_the_last(tmp_path: Path) -> None:
    (inc,) = roots(tmp_path, rendered(100, chained=True))
    assert inc.exception_type.endswith("ArenaFull")
    assert [link.exception_type for link in inc.chain][0] == "IndexError"


def test_a_paste_cut_below_the_top_border_keeps_its_frames(tmp_path: Path) -> None:
    lines = rendered(100, locals_=True)
    (inc,) = roots(tmp_path, lines[1:])
    assert inc.exception_type == "IndexError"
    assert [w[2] for w in where(inc)] == ["rendered", "_step", "_grow"]


def test_a_paste_cut_inside_the_first_heading_and_the_locals_keeps_what_it_has(
    tmp_path: Path,
) -> None:
    lines = rendered(36, locals_=True)
    first = next(n for n, line in enumerate(lines) if "❱" in line)
    end = next(n for n, line in enumerate(lines) if "locals" in line and n > first)
    (inc,) = roots(tmp_path, lines[2 : end + 2])  # from the heading's second piece to a local
    assert inc.exception_type == "Traceback"  # its exception line was cut away
    assert where(inc)[-1][1:] == (where(roots(tmp_path, lines)[0])[0][1], "rendered")


def test_a_file_missing_where_it_ran_is_named_by_its_function(tmp_path: Path) -> None:
    lines = [
        "╭───────────── Traceback (most recent call last) ─────────────╮",
        "│ in load_shards:41                                           │",
        "│                                                             │",
        "│ in main:12                                                  │",
        "╰─────────────────────────────────────────────────────────────╯",
        "FileNotFoundError: shard 3 of 4 is missing",
    ]
    (inc,) = roots(tmp_path, lines)
    assert inc.exception_type == "FileNotFoundError"
    assert [(f.function, f.line) for f in inc.frames] == [("load_shards", 41), ("main", 12)]


def test_boxes_and_pointers_that_are_no_traceback_make_no_crash(tmp_path: Path) -> None:
    table = [
        "┏━━━━━━━━━━━━━━━━━┳━━━━━━━┓",
        "┃ where           ┃ calls ┃",
        "┡━━━━━━━━━━━━━━━━━╇━━━━━━━┩",
        "│ app.py:12 in go │ 4     │",
        "│ ❱ 13 │ next     │ 1     │",
        "└─────────────────┴───────┘",
        "❱ 3 │ steps left",
    ]
    assert roots(tmp_path, table) == []


def test_a_panel_cut_before_its_bottom_never_swallows_the_log_after_it(tmp_path: Path) -> None:
    lines = rendered(100)
    bottom = next(n for n, line in enumerate(lines) if line.startswith("╰"))
    later = [
        "2026-03-01 10:00:00 [INFO] server restarted",
        "Traceback (most recent call last):",
        '  File "/srv/app/main.py", line 3, in <module>',
        "KeyError: 'shard'",
    ]
    found = roots(tmp_path, [*lines[:bottom], *later])
    assert "KeyError" in [i.exception_type for i in found]
    cut = roots(tmp_path, [*lines[:bottom], "ValueError: budget must be positive"])
    assert [i.exception_type for i in cut] == ["ValueError"]
    assert [w[2] for w in where(cut[0])] == ["rendered", "_step", "_grow"]
