"""Session 34 (FIXB): path evidence a text gives, and records a text only cites.

Each test writes its own lines in the shape of the text class it covers; each asserts what a
user sees (the worker path's class or condition, and the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path, roots, run
from spectrace.assemblers.pyconfig import record_told_apart

# --- an engine record a survey, a caveat or a how-to quotes is no run's record -------------------

_REPR = "`SpeculativeConfig(method='draft_model', ...)`"


def _survey(heading: str, caveat: str) -> list[str]:
    """A survey of an engine's docs: a table of what the docs cover, then a section of caveats,
    each a quotation under its link; the last quotes a known error."""
    return ["# Drafting heads in three docs sites: what each one covers", "",
            "Gathered 2026-09-03 from the public pages; no engine was started.", "",
            "| # | Topic | Config | Page |", "|---|---|---|---|",
            '| 1 | MTP heads | `{"method":"mtp","num_speculative_tokens":2}` | https://docs.example.net/spec/mtp |',
            '| 2 | small drafts | `{"method":"draft_model","model":"org/mini-draft"}` | https://docs.example.net/spec/d |',
            "", heading, "",
            "1. **Assistant heads, older builds**: https://docs.example.net/spec/mtp",
            f'   > "{caveat}"', "",
            "2. **Int4 heads**: https://docs.example.net/spec/quant",
            '   > "Older builds that load an int4 head stop with',
            "   >     `KeyError: 'head_vocab'`.",
            '   >     The fix is scheduled."']  # fmt: skip


@pytest.mark.parametrize(("heading", "caveat"), [
    ("## Caveats", f"If an older build prints {_REPR} for an assistant head, it treats the head as a "
                   "plain draft model; use a build with head support."),
    ("## Gotchas", f"Should the server show {_REPR} for an assistant head, the head is loaded as a plain draft."),
    ("## Known issues", f"Expect {_REPR} from builds that predate head support; upgrade to read the head."),
    ("## 注意事项", f"如果旧版本打印 {_REPR}，说明助手头被当作普通草稿模型加载，请升级。"),
    ("## 注意点", f"もしログに {_REPR} と出たら、アシスタントヘッドが通常のドラフトとして読まれています。"),
], ids=["if-caveats", "should-gotchas", "expect-known-issues", "chinese-if", "japanese-if"])
def test_a_record_a_docs_caveat_supposes_gives_no_path(tmp_path: Path, heading: str, caveat: str) -> None:
    assert_no_path(tmp_path, _survey(heading, caveat))


def test_a_how_to_promising_the_record_gives_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, [
        "# Serve a small model with its MTP head", "",
        "1. Install: `pip install -U vllm`", "2. Start it:", "",
        "```bash", "vllm serve org/mini-7b --speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 2}'",
        "```", "",
        "3. Once the head loads you will see `SpeculativeConfig(method='mtp', model='org/mini-7b', "
        "num_spec_tokens=2)` in the server's log."])  # fmt: skip


@pytest.mark.parametrize("said", [
    f"Our server log prints {_REPR} at start-up, then the engine dies:",
    f"Why does my server print {_REPR} for the assistant head? It then dies:",
    f"The log shows {_REPR} right before it dies:",
], ids=["ours", "my-question", "third-person-report"])
def test_the_writers_own_record_in_inline_code_stays_the_runs(tmp_path: Path, said: str) -> None:
    (crash,) = roots(run(tmp_path, [
        "# assistant head dies at start-up", "", "vLLM 0.20.0 on one L4.", said, "",
        "```", "Traceback (most recent call last):",
        '  File "/usr/lib/python3/site-packages/vllm/v1/engine/core.py", line 88, in __init__',
        "KeyError: 'head_vocab'", "```"]))  # fmt: skip
    path = crash.worker_path
    assert path is not None
    assert_verdict(path, "other", "DraftModelProposer")
    assert any("SpeculativeConfig(" in e.text for e in path.evidence), path.evidence


@pytest.mark.parametrize(("line", "apart"), [
    (f"If an older build prints {_REPR}, the head was read as a draft.", True),
    (f"The docs say builds print {_REPR} here.", True),
    (f"When I start it the log prints {_REPR} and dies.", False),
    (f"config: {_REPR}", False),
    ("`INFO 01-02 10:00:00 [core.py:1] speculative_config=SpeculativeConfig(method='eagle3')`", False),
], ids=["if", "docs", "first-person", "label", "record-in-code"])
def test_which_sentences_set_a_quoted_record_apart(line: str, apart: bool) -> None:
    assert record_told_apart(line) is apart
