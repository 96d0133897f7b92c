"""Paste forms tools/real_logs/perturb.py found moving verdicts (session 34, helper PERTURB).

- A launch command a sentence holds, copied from a word processor, a blog or a chat app that
  curled its quotes (``--speculative-config ‘{“method”: “ngram”, ...}’``, ``I’m running ...``):
  the writer typed straight quotes, and the command is read as the shell would read those.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_verdict, probed_path
from spectrace.assemblers.launch import parse_launch_command
from spectrace.assemblers.launch_options import OptionTables

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
