"""What puts a vLLM run on the model runner v2 though its text never says so in a sentence
(rounds 37 14 and 39 24): a title tagged for the runner (``[Model Runner V2]``, ``[MRV2]``,
beside other tags) is a PR or report about MRV2's code, whose runs went through it; and
``VLLM_USE_V2_MODEL_RUNNER=1`` on a command whose speculative JSON holds angle-bracket
placeholders (``"method": <method>``, ``"model": <draft_model>``) still puts the method the text
names on MRV2's speculator: a placeholder is no value (never the method "draft_model"). Near
misses: a tag trailing the title, the runner asked for in a feature title, a placeholder JSON with
no switch on a day before MRV2 was a default. Our own lines."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_verdict, crash_path, run

from spectrace.assemblers.vllm_runner import stated_runner
from spectrace.dialects.base import LogLine

_PROBE = ["", "Traceback (most recent call last):", '  File "probe.py", line 1, in <module>',
          "RuntimeError: probe"]  # fmt: skip
_TABLE = ["## Results, concurrency 32", "| metric | MTP 1 | MTP 4 |", "|---|---|---|",
          "| acceptance length | 1.81 | 3.02 |", "| output tok/s | 1510 | 2204 |"]  # fmt: skip


def _pr(title: str, day: str, *body: str) -> list[str]:
    return ["vllm-project/vllm · pull request #91001 · merged · Python", f"# {title}", "",
            f"dev-a · description · {day}", *body, *_PROBE]  # fmt: skip


def _line(text: str) -> LogLine:
    return LogLine(source="t", lineno=1, offset=0, text=text, raw=text, dialect="plain", stream="")


@pytest.mark.parametrize("title", [
    "# [Model Runner V2][Spec Decode] Add multi-layer MTP speculator",
    "# [Model Runner v2] Fix MTP draft positions",
    "# [Spec Decode][ModelRunnerV2] Faster MTP drafting",
    "# [V2 Model Runner] MTP with chunked prefill",
    "# [MRv2] MTP warmup fix",
])
def test_a_title_tag_states_the_runner(title: str) -> None:
    found = stated_runner([_line(title)])
    assert found is not None and found[0] == "v2", title


@pytest.mark.parametrize("title", [
    "# Fix MTP draft positions [Model Runner V2]",  # not a leading tag
    "# [Feature]: support ngram in the model runner v2",
])
def test_near_miss_titles_state_no_runner(title: str) -> None:
    assert stated_runner([_line(title)]) is None, title


def test_an_mrv2_tagged_pr_s_mtp_benchmark_is_mrv2_s_speculator(tmp_path: Path) -> None:
    """July 2026 (0.25) allows MRV2's EagleSpeculator (to 0.22.1) and MTPSpeculator (0.23 on):
    both, never the V1 EagleProposer; the same with no day."""
    lines = _pr("[Model Runner V2][Spec Decode] Add multi-layer MTP speculator", "2026-07-20",
                "Runs every MTP layer of the checkpoint instead of reusing layer 0.", *_TABLE)
    for i, text in enumerate((lines, [ln for ln in lines if "description ·" not in ln])):
        path = crash_path(run(tmp_path, text, name=f"{i}.log"))
        assert_verdict(path, "unknown", "EagleSpeculator|MTPSpeculator")
        assert "EagleProposer" not in (path.conditional or ""), path


@pytest.mark.parametrize("spec", [
    """'{"method": <method>, "model": <draft_model>, "num_speculative_tokens": 3}'""",
    """'{"method": "<method>", "model": "<path to draft>", "num_speculative_tokens": 3}'""",
])
def test_the_switch_with_placeholder_values_puts_the_named_method_on_mrv2(
    tmp_path: Path, spec: str
) -> None:
    """February 2026 (0.16): MTP on MRV2 was EagleSpeculator; no 'draft_model' method read."""
    lines = _pr("[Model Runner V2] Support GLM-4.7 MTP", "2026-02-27", "## Test Plan", "```",
                "VLLM_USE_V2_MODEL_RUNNER=1 vllm serve zai-org/GLM-4.7-FP8 -tp 8 \\",
                f"    --speculative-config {spec}", "```", "## Test Result", *_TABLE)  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert_verdict(path, "other", "EagleSpeculator")


def test_placeholders_without_the_switch_stay_on_the_v1_runner(tmp_path: Path) -> None:
    """No switch, a day before MRV2 was any default: MTP named in the title is the V1 class."""
    lines = _pr("[Spec Decode] Support GLM-4.7 MTP", "2026-02-27", "## Test Plan", "```",
                "vllm serve zai-org/GLM-4.7-FP8 -tp 8 \\",
                """    --speculative-config '{"method": <method>, "model": <draft_model>}'""",
                "```", "## Test Result", *_TABLE)  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert_verdict(path, "other", "EagleProposer")
