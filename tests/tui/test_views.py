"""The rank toggle: its fast SGLang path reads the same rank as the dialect parser; ranks in natural order."""

from __future__ import annotations

from pathlib import Path

from tui_helpers import SAMPLES

from spectrace.dialects.sglang import SGLangDialect
from spectrace.line_index import LineIndex
from spectrace.tui.ranks import SGLANG_RANK, ranks_seen


def test_fast_rank_agrees_with_the_sglang_dialect_on_every_sample() -> None:
    dialect, checked = SGLangDialect(), 0
    for path in sorted(SAMPLES.glob("*/*")):
        if path.suffix in (".json", ".py") or path.is_dir():
            continue
        index = LineIndex(path)
        index.build()
        for line in range(index.line_count):
            text = index.line(line)[0]
            header, fast = dialect.parse(text), SGLANG_RANK.match(text)
            assert (header is None) == (fast is None), f"{path}:{line + 1}: {text[:100]}"
            if header is not None and fast is not None:
                assert header.rank == (fast.group(1).strip() or None)
                checked += 1
    assert checked > 1000


def test_ranks_are_offered_in_natural_order(tmp_path: Path) -> None:
    log = tmp_path / "dp.log"
    tags = ("DP1 TP10", "DP1 TP2", "DP0 TP3", "DP10 TP0", "DP0 TP11")
    log.write_text("".join(f"[2026-03-06 11:00:02 {tag}] Decode batch\n" for tag in tags))
    index = LineIndex(log)
    index.build()
    assert [r.name for r in ranks_seen([index], None)] == [
        "DP0 TP3", "DP0 TP11", "DP1 TP2", "DP1 TP10", "DP10 TP0"
    ]  # fmt: skip
