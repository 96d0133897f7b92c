"""Session 35 (FIXD): paste shapes crash threads carry, read as the run they show.

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's class or condition, and the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, crash_path, probed_path, run
from spectrace.assemblers.launch_span import LaunchSpan
from spectrace.assemblers.prose_wrap import ProseWrap
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


# --- a report indented whole (pasted as a Markdown code block): its wrapped sentences still join ---

def _indented(lines: list[str], indent: str = "    ") -> list[str]:
    return [f"{indent}{t}" if t else t for t in lines]


_PATCHED_BUILD = ["# [Bug]: the quantized drafter crashes the engine at start", "",
                  "Our setup is two H200 cards, CUDA 12.9 and vLLM 0.26.1, rebuilt for this rig with the",
                  "drafter fix of #50001 cherry-picked on top.", "",
                  "```bash", "vllm serve /models/target \\",
                  "  --speculative-config '{\"method\": \"dflash\", \"model\": \"/models/q3-dflash2-fp8\", "
                  "\"num_speculative_tokens\": 6}'", "```"]  # fmt: skip
_NIGHTLY = ["# [Bug]: DFlash drafter dies during profiling", "",
            "We run vLLM `0.26.1rc2.dev310+gabc1234`, a nightly build that already carries",
            "the merge of #50002, on a single GB200 node.", "",
            "```bash", "vllm serve /models/target \\",
            "  --speculative-config '{\"method\": \"dflash\", \"model\": \"/srv/drafts/dflash2-small\"}'", "```"]  # fmt: skip


@pytest.mark.parametrize("lines", [_PATCHED_BUILD, _NIGHTLY], ids=["cherry-picked", "nightly"])
@pytest.mark.parametrize("indent", ["    ", "        ", "\t"], ids=["indent-4", "indent-8", "tab"])
def test_a_report_indented_whole_gets_the_verdict_it_gets_unindented(
    tmp_path: Path, lines: list[str], indent: str
) -> None:
    plain = probed_path(tmp_path, lines)
    assert plain.worker_class == "DFlash2Speculator", plain
    indented = probed_path(tmp_path, _indented(lines, indent))
    assert (indented.value, indented.worker_class, indented.conditional) == (
        plain.value, plain.worker_class, plain.conditional)


def test_an_indented_traceback_frame_never_joins_its_code_line_as_a_sentence() -> None:
    """A frame line and the code under it, both indented whole: no sentence is made of them."""
    wrap = ProseWrap()
    frame = '      File "/opt/venv/lib/python3.12/site-packages/vllm/spec_decode/some_module.py", line 12, in <module>'
    assert wrap.feed(LogLine("a.md", 1, 0, frame, frame, "plain", "")) == []
    code = "        from vllm.spec_decode.some_module import SomeClass"
    assert wrap.feed(LogLine("a.md", 2, 0, code, code, "plain", "")) == []


def test_a_line_indented_under_a_plain_paragraph_is_no_continuation() -> None:
    wrap = ProseWrap()
    upper = "We build the engine from a nightly wheel that has the draft loader rewrite and the"
    wrap.feed(LogLine("a.md", 1, 0, upper, upper, "plain", ""))
    lower = "    follow-up fix for quantized drafters, on four cards of one host."
    assert wrap.feed(LogLine("a.md", 2, 0, lower, lower, "plain", "")) == []


# --- pytest's failure report pasted indented whole: its '>' mark is no quote mark ---

_CHECK = ["    def check_outputs(base_ids, spec_ids):",
          "        for i, (baseline_token_ids, spec_token_ids) in enumerate(zip(base_ids, spec_ids)):",
          ">           assert baseline_token_ids == spec_token_ids",
          "E           AssertionError: assert [17, 4051, ...] == [17, 4051, ...]",
          "E             At index 3 diff: 220 != 9"]  # fmt: skip
_CI_HEAD = ["acme/vllm-fork · issue #31 · open · Python", "# [CI Failure]: the MLP speculator e2e job fails on the nightly", "",
            "ci-bot · description · 2024-09-02", "The job's output:", ""]  # fmt: skip


@pytest.mark.parametrize("indent", ["    ", "  ", "\t"], ids=["code-block", "list-item", "tab"])
def test_pytests_failing_mark_indented_whole_still_names_the_v0_harness(tmp_path: Path, indent: str) -> None:
    lines = [*_CI_HEAD, *(f"{indent}{t}" for t in _CHECK)]
    path = crash_path(run(tmp_path, lines))
    assert_verdict(path, "other", "SpecDecodeWorker")
    assert any(0 < e.lineno <= len(lines) and "assert baseline_token_ids" in lines[e.lineno - 1] for e in path.evidence)


def test_an_indented_pytest_mark_is_no_quote_and_an_indented_reply_quote_still_is() -> None:
    from spectrace.dialects.paste import quoted, unpaste

    assert not quoted("    >           assert baseline_token_ids == spec_token_ids")
    assert unpaste("    >       assert out.shape == (2, 8)") == "    >       assert out.shape == (2, 8)"
    assert quoted("  > We run EAGLE3 on two nodes")
    assert unpaste("  > assert baseline_token_ids == spec_token_ids") == "  assert baseline_token_ids == spec_token_ids"


def test_a_guide_quoting_the_harness_check_indented_gets_no_path(tmp_path: Path) -> None:
    """A write-up that explains the harness, its check quoted in a reply's mark: no run of it."""
    assert_no_path(tmp_path, [
        "## How the speculative e2e suite compares outputs", "",
        "The harness runs the same prompts twice, once without a draft, and then checks each pair:", "",
        "    > assert baseline_token_ids == spec_token_ids", "",
        "so any difference in greedy output fails the test. You can run it locally with pytest.",
    ])
