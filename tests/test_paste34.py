"""Paste forms tools/real_logs/perturb.py found moving verdicts (session 34, helper PERTURB).

- A launch command a sentence holds, copied from a word processor, a blog or a chat app that
  curled its quotes (``--speculative-config ‘{“method”: “ngram”, ...}’``, ``I’m running ...``):
  the writer typed straight quotes, and the command is read as the shell would read those.
- A fix pull request with an environment report (nvidia-smi, collect_env) in its description:
  a GPU driver, PyTorch, CUDA or Python version is no release of the engine the fix ran on,
  so the description still tells no run of its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path
from spectrace.assemblers.launch import parse_launch_command
from spectrace.assemblers.launch_options import OptionTables
from spectrace.assemblers.run_prose import fix_evidence

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


_FIX_PR = ["sgl-project/sglang · pull request #40123 · open · Python",
           "# [Fix] Keep the DSpark draft's budget pins when positions are ragged", "",
           "alice · description · 2026-09-10", "## Motivation", "",
           "The DSpark drafter ignored the budget pins the profiler set, so the draft budget was recomputed"
           " from scratch on every step and ragged position tensors hit the wrong branch.", "",
           "## Modifications", "", "- read the pins before the budget is rebuilt",
           "- pass ragged positions through the same path as dense ones"]  # fmt: skip
_SMI = ["GPUs:", "", "```", "$ nvidia-smi",
        "| NVIDIA-SMI 560.35.03              Driver Version: 560.35.03      CUDA Version: 12.6     |",
        "|   0  NVIDIA H200                    On  |   00000000:1B:00.0 Off |                    0 |", "```"]
_ENV = ["```", "PyTorch version: 2.7.1+cu126", "CUDA runtime version: 12.6.85",
        "Nvidia driver version: 560.35.03", "Python version: 3.12.11 (main) (64-bit runtime)", "```"]


@pytest.mark.parametrize("extra", [[], _SMI, _ENV], ids=["alone", "nvidia-smi", "collect-env"])
def test_a_fix_pull_requests_environment_report_is_no_run_of_its_own(tmp_path: Path, extra: list[str]) -> None:
    assert_no_path(tmp_path, [*_FIX_PR, "", *extra])


@pytest.mark.parametrize(("line", "shows"), [
    ("Driver Version: 560.35.03", False), ("PyTorch version: 2.7.1+cu126", False),
    ("CUDA runtime version: 12.6.85", False), ("Python version: 3.12.11", False),
    ("SGLang version: 0.5.17", True), ("Version: 0.5.17", True), ("tested on the nightly 0.5.18 wheel", True),
], ids=["driver", "pytorch", "cuda-runtime", "python", "engine", "pip-show", "wheel"])
def test_only_the_engines_release_is_a_fix_prs_own(line: str, shows: bool) -> None:
    assert fix_evidence(line) is shows
