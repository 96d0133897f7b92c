"""Session 36 (ABL): an SGLang text that keeps naming one speculative family and names another in
passing (a root-cause line about the other family's code, a title naming the base a draft grew
from) tells a run of the family it keeps naming (``path_era._kept_naming``).

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's class, and the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path, store_thread


def _thread(kind: str, number: int, title: str, day: str, body: list[str]) -> list[str]:
    return store_thread("sgl-project/sglang", kind, number, title, day, body, author="rowan")


# --- one family on three lines or more, another on one line: the run is the first one's ---


@pytest.mark.parametrize(("lines", "value", "cls", "said"), [
    # a fix PR that ran NGRAM, quoting the decode record; its root cause names the EAGLE check
    (_thread("pull request", 5120, "fix acceptance stats in responses", "2025-12-02", [
        "## Motivation", "",
        "Serving with NGRAM speculative decoding, the decode log showed the right numbers but the",
        "responses carried zeros.", "",
        "- server: `accept len: 3.20, accept rate: 0.64`", "- response: zeros", "",
        "## Root cause", "",
        "The output processor only counted tokens on the EAGLE branch of the batch result.",
        "The NGRAM branch never updated the per-request counter.", "",
        "## Change", "", "- count NGRAM accepted tokens per request"]),
     "other", "NGRAMWorker", "Serving with NGRAM"),
    # a bug report on a DSpark run whose title also names the DFlash base it derives from
    (_thread("issue", 5301, "[Bug] DSpark (DFlash-derived) draft leaks KV slots at page size 1",
             "2026-08-10", [
        "### Describe the bug", "",
        "With DSPARK speculative decoding at gamma 16 the free KV slot count drops on every request.",
        "We observed 4096 slots before the run and 3810 after 200 requests.",
        "The leak grows with the DSPARK block size we set (8 leaks less than 16).",
        "Turning DSPARK off keeps the count flat."]),
     "v2", "DSparkWorkerV2", "DSpark (DFlash-derived)"),
    # the same fix written in Chinese: the motivation and the cause name NGRAM, one line the EAGLE branch
    (["sgl-project/sglang · pull request #5410 · open · Python", "# 修复投机解码请求的接受统计", "",
      "lin · description · 2026-01-10", "## 动机", "",
      "使用 NGRAM 投机解码时，服务端日志里的数字是对的，但客户端拿到的接受长度为 0。", "",
      "- 服务端: `accept len: 2.60, accept rate: 0.52`", "- 客户端: 0", "", "## 原因", "",
      "输出处理只在 EAGLE 分支里累计接受的 token。", "NGRAM 分支没有更新每个请求的计数，",
      "所以 NGRAM 请求的统计一直是 0。"],
     "other", "NGRAMWorker", "使用 NGRAM"),
], ids=["fix-pr-root-cause", "bug-title-base", "chinese-fix-pr"])  # fmt: skip
def test_the_family_a_text_keeps_naming_is_the_runs(
    tmp_path: Path, lines: list[str], value: str, cls: str, said: str
) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, value, cls)
    assert any(said in e.text for e in path.evidence), path.evidence


# --- near misses: two families named about as often, or a page that shows no run ---


@pytest.mark.parametrize("lines", [
    # runs told apart: each family on two lines, no line saying which one this report ran
    _thread("issue", 5500, "speculative decoding accept length is low", "2025-12-01", [
        "We compared NGRAM speculative decoding with an EAGLE3 draft on the same prompts.",
        "NGRAM gave accept len 1.40 on chat traffic.",
        "EAGLE3 gave accept len 2.10 on the same traffic.",
        "Both NGRAM and EAGLE3 runs used one H100.",
        "Which one should we keep?"]),
    # three lines to two: not twice as many (a fix PR whose cause names both paths' code)
    _thread("pull request", 5510, "fix acceptance stats in responses", "2025-12-03", [
        "## Motivation", "",
        "Serving with NGRAM speculative decoding, responses carried zeros.", "",
        "- server: `accept len: 3.00, accept rate: 0.60`", "- response: zeros", "",
        "## Root cause", "",
        "The output processor only counted tokens on the EAGLE branch.",
        "The EAGLE branch also skips requests that finish early.",
        "The NGRAM branch never updated the per-request counter.",
        "The NGRAM counter is now filled."]),
], ids=["told-apart", "three-to-two"])  # fmt: skip
def test_families_named_about_as_often_decide_nothing(tmp_path: Path, lines: list[str]) -> None:
    path = probed_path(tmp_path, lines)
    assert path.value == "unknown" and path.worker_class is None, path


@pytest.mark.parametrize("lines", [
    # a docs page: NGRAM in its sections, EAGLE named once; no run of the writer's
    ["# N-gram speculative decoding in SGLang", "",
     "## Overview", "", "NGRAM speculative decoding drafts tokens from the prompt itself.", "",
     "## Launch", "", "Start the server with NGRAM as the speculative algorithm.", "",
     "## Tuning", "", "Raise the NGRAM draft token count for repetitive prompts.",
     "EAGLE needs a trained draft model instead."],
    # a feature request: wants NGRAM improvements, mentions EAGLE once
    _thread("issue", 5600, "[Feature] adaptive n-gram window", "2026-01-05", [
        "### Motivation", "",
        "NGRAM speculative decoding could pick its window per request.",
        "An adaptive NGRAM window would help long prompts.",
        "The NGRAM matcher already stores the suffixes it needs.",
        "EAGLE does not need this."]),
], ids=["docs-page", "feature-request"])  # fmt: skip
def test_a_text_that_keeps_naming_a_family_but_shows_no_run_gets_no_path(
    tmp_path: Path, lines: list[str]
) -> None:
    assert_no_path(tmp_path, lines)
