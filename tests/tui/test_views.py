"""The rank toggle's fast SGLang path reads the same rank as the dialect parser."""

from __future__ import annotations

from tui_helpers import SAMPLES

from spectrace.dialects.sglang import SGLangDialect
from spectrace.line_index import LineIndex
from spectrace.tui.views import SGLANG_RANK


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
