"""Paste forms tools/real_logs/perturb.py found moving verdicts (session 34, helper PERTURB).

- A launch command a sentence holds, copied from a word processor, a blog or a chat app that
  curled its quotes (``--speculative-config ‘{“method”: “ngram”, ...}’``, ``I’m running ...``):
  the writer typed straight quotes, and the command is read as the shell would read those.
- A report pasted whole as a Markdown code block (every line indented four spaces): its
  hard-wrapped sentences are joined as the same sentences unindented are, so what a sentence
  says across its lines (a release beside the change it was built with) reads the same.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_verdict, probed_path
from spectrace.assemblers.launch import parse_launch_command
from spectrace.assemblers.launch_options import OptionTables
from spectrace.assemblers.prose_wrap import ProseWrap
from spectrace.dialects.base import LogLine

_NGRAM = ("{q}m running vLLM 0.10.1 with prompt-lookup speculation: vllm serve org/small-8b --speculative-config "
          "{o}{{{d}method{d}: {d}ngram{d}, {d}num_speculative_tokens{d}: 5, {d}prompt_lookup_max{d}: 3}}{c}.")
_STRAIGHT = {"q": "I'", "o": "'", "c": "'", "d": '"'}
_CURLED = {"q": "I\u2019", "o": "\u2018", "c": "\u2019", "d": "\u201c"}


def _curled(line: str) -> str:
    """Each second curled double quote a closing one, as an editor curls them."""
    out, opening = [], True
    for char in line:
        if char == "\u201c":
            out.append("\u201c" if opening else "\u201d")
            opening = not opening
        else:
            out.append(char)
    return "".join(out)


@pytest.mark.parametrize("quotes", [_STRAIGHT, _CURLED], ids=["straight", "curled"])
def test_a_launch_in_a_sentence_reads_its_json_with_either_quotes(quotes: dict[str, str]) -> None:
    command = parse_launch_command(_curled(_NGRAM.format(**quotes)), OptionTables())
    assert command is not None and command.engine == "vllm"
    assert command.flags.get("method") == "ngram" and command.flags.get("num_spec_tokens") == 5


@pytest.mark.parametrize("quotes", [_STRAIGHT, _CURLED], ids=["straight", "curled"])
def test_a_report_whose_quotes_an_editor_curled_names_the_ngram_proposer(tmp_path: Path, quotes: dict[str, str]) -> None:
    lines = [_curled(_NGRAM.format(**quotes)),
             "Throughput is a third lower than without speculation on our summarising workload. Is that expected?"]
    assert_verdict(probed_path(tmp_path, lines), "other", "NgramProposer")


# --- a report indented whole ------------

_PARAGRAPH = ["We build the engine from a nightly wheel that has the draft loader rewrite and the",
              "follow-up fix for quantized drafters, on four cards of one host."]


@pytest.mark.parametrize("indent", ["", "    ", "        "], ids=["plain", "indented-4", "indented-8"])
def test_an_indented_paragraph_wraps_like_a_plain_one(indent: str) -> None:
    wrap = ProseWrap()
    got = [wrap.feed(LogLine("a.md", n, 0, indent + t, indent + t, "plain", "")) for n, t in enumerate(_PARAGRAPH, 1)]
    assert [line.text.strip() for line in got[1]] == [" ".join(_PARAGRAPH)] * 2


def test_a_line_indented_under_a_plain_paragraph_still_is_not_its_continuation() -> None:
    wrap = ProseWrap()
    wrap.feed(LogLine("a.md", 1, 0, _PARAGRAPH[0], _PARAGRAPH[0], "plain", ""))
    assert wrap.feed(LogLine("a.md", 2, 0, "    " + _PARAGRAPH[1], "    " + _PARAGRAPH[1], "plain", "")) == []


_DFLASH = ["# [Bug]: the drafter dies with a dtype mismatch when quantized", "",
           "## Your current environment", "",
           "NVIDIA H100, driver 570.86, CUDA 12.8, torch",
           "2.9.0+cu128, vLLM `0.26.1rc1.dev1049+gf8e060271` — a nightly wheel with the merge",
           "of #52816.", "",
           "## Describe the bug", "", "The engine dies during startup profiling:", "", "```",
           "RuntimeError: Worker failed with error 'expected mat1 and mat2 to have the same dtype'", "```", "",
           "```bash", "vllm serve /models/target \\",
           "  --speculative-config '{\"method\":\"dflash\",\"model\":\"/models/qwen-dflash2-fp8\","
           "\"num_speculative_tokens\":7}'", "```"]  # fmt: skip


def test_a_report_indented_whole_gets_the_verdict_it_gets_unindented(tmp_path: Path) -> None:
    plain = probed_path(tmp_path, _DFLASH)
    indented = probed_path(tmp_path, [f"    {t}" if t else t for t in _DFLASH])
    assert plain.worker_class is not None
    assert (indented.value, indented.worker_class, indented.conditional) == (
        plain.value, plain.worker_class, plain.conditional)
