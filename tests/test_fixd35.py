"""Session 35 (FIXD): paste shapes crash threads carry, read as the run they show.

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's class or condition, and the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path
from spectrace.assemblers.launch_span import LaunchSpan
from spectrace.dialects.base import LogLine


def _spaced(lines: list[str]) -> list[str]:
    """A web view's copy: a blank line after every line."""
    return [x for line in lines for x in (line, "")]


# --- a launch command whose copy put a blank line after every line (no ``\`` to carry it) ---

_SGLANG_FLAGS = ["sgl-project/sglang · issue #90101 · open · Python", "# [Bug] DFLASH/DSPARK draft pool runs out of memory under DP attention", "",
                 "kai-r · description · 2026-08-30",
                 "Decode side of our PD setup:", "```",
                 "--tp-size 8 --dp-size 8 --enable-dp-attention",
                 "--kv-cache-dtype fp8_e4m3",
                 "--disaggregation-mode decode",
                 "--speculative-algorithm DSPARK",
                 "```"]  # fmt: skip
_VLLM_SERVE = ["Crash log below, the serve command first:", "```bash",
               "vllm serve Qwen/Qwen3-32B",
               "--tensor-parallel-size 4",
               "--speculative-config '{\"method\": \"ngram\", \"num_speculative_tokens\": 4, \"prompt_lookup_max\": 3}'",
               "```", "vLLM 0.27.1 on 4x L40S."]  # fmt: skip
_SGLANG_LAUNCH = ["sgl-project/sglang · issue #90102 · open · Python", "# [Bug] illegal memory access after warmup", "",
                  "ming-z · description · 2026-09-02",
                  "```",
                  "python3 -m sglang.launch_server --model-path /models/glm",
                  "--tp 4 --mem-fraction-static 0.8",
                  "--speculative-algorithm EAGLE3 --speculative-draft-model-path /models/glm-eagle3",
                  "--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4",
                  "```",
                  "sglang 0.5.17"]  # fmt: skip


@pytest.mark.parametrize(("lines", "value", "classes", "said"), [
    (_SGLANG_FLAGS, "v2", "DSparkWorkerV2", "--speculative-algorithm DSPARK"),
    (_VLLM_SERVE, "other", "NgramProposer", "--speculative-config"),
    (_SGLANG_LAUNCH, "v2", "EAGLEWorkerV2", "--speculative-algorithm EAGLE3"),
], ids=["sglang-bare-flags", "vllm-serve-flag-lines", "sglang-launch-flag-lines"])  # fmt: skip
def test_a_double_spaced_launch_reads_as_the_same_command(
    tmp_path: Path, lines: list[str], value: str, classes: str, said: str
) -> None:
    for text in (lines, _spaced(lines)):  # as pasted, and as a web view copies it
        path = probed_path(tmp_path, text)
        assert_verdict(path, value, classes)
        assert any(0 < e.lineno <= len(text) and said in text[e.lineno - 1] for e in path.evidence), path.evidence


def test_a_double_spaced_how_to_with_flag_lines_gets_no_path(tmp_path: Path) -> None:
    """A guide's flags, double-spaced as a web view copies them: still the reader's run."""
    assert_no_path(tmp_path, _spaced([
        "# How to turn on EAGLE-3 in SGLang", "",
        "In this guide you add a draft model to your server. Add these flags to your launch command:",
        "```", "--speculative-algorithm EAGLE3", "--speculative-num-steps 3", "--speculative-eagle-topk 1", "```",
        "Then check the accept length in the server's log.",
    ]))


def _feed(texts: list[str]) -> list[bool]:
    span, out = LaunchSpan(), []
    for n, text in enumerate(texts, 1):
        line = LogLine("t.log", n, 0, text, text, "plain", "")
        out.append(span.feed(line) if span.open else span.start(line))
    return out


def test_a_blank_joins_flag_lines_only_in_a_double_spaced_copy() -> None:
    # double-spaced: every line of the command has a blank after it
    assert _feed(["--tp 8", "", "--speculative-algorithm NEXTN", "", "--mem-fraction-static 0.8"]) == [True] * 5
    # two flag lines in a row, then a blank: a second block of flags is another command
    assert _feed(["--tp 8", "--dp 8", "", "--speculative-algorithm NEXTN"]) == [True, True, False, True]
    # a blank, then prose or a Markdown bullet: the command ended at the blank
    assert _feed(["--tp 8", "", "- the server dies"]) == [True, True, False]
    assert _feed(["vllm serve m", "", "It crashed on start."]) == [True, True, False]
