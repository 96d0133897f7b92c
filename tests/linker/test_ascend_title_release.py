"""vllm-ascend runs with a model-named MTP method and the plugin release only in the title
(session 17, PLUG; the shape of round 40 12).

vLLM accepts ``deepseek_mtp`` (and the other model spellings) on every release and folds it
into ``mtp`` before the plugin's dispatch sees it, so past the plugin's last ``deepseek_mtp``
branch (v0.11.0) it runs what ``mtp`` runs: ``MtpProposer`` to v0.15.0rc1,
``AscendEagleProposer`` from v0.16.0rc1. A release the thread's title names is the report's
release. Our own lines, as different users paste the plugin's threads (an index header, a
browser's page title, an issue form's first line), and near misses whose title names no one
release of the run.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from packaging.version import Version

from spectrace.assemblers.vllm_plugins import ascend_proposer
from tests.real_logs_helpers import assert_verdict, crash_path, run

_PROBE = [
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.11/site-packages/torch/distributed/c10d.py", line 88, in barrier',
    "RuntimeError: HCCL timeout",
]


def _serve(method: str = "deepseek_mtp") -> list[str]:
    return [
        "vllm serve /models/GLM-5.2-w8a8 \\",
        "  --tensor-parallel-size 8 --data-parallel-size 2 \\",
        "  --max-model-len 131072 \\",
        f"  --speculative-config '{{\"num_speculative_tokens\": 1, \"method\": \"{method}\"}}' \\",
        "  --quantization ascend",
        "",
        *_PROBE,
    ]


def _indexed(title: str, *body: str, method: str = "deepseek_mtp") -> list[str]:
    """The index's saved header, its labels and the title; no post day."""
    return ["vllm-project/vllm-ascend · issue #70412 · closed · Python", "labels: bug, mtp",
            f"# {title}", "", "[turn 0 by someone]", *body, *_serve(method)]  # fmt: skip


def _page(title: str, *body: str) -> list[str]:
    """A browser's copy: the page title names the tracker."""
    return [f"{title} · Issue #70413 · vllm-project/vllm-ascend", "", *body, *_serve()]


def _form(title: str, *body: str) -> list[str]:
    """An issue form's text pasted alone: its first line is the title."""
    return [title, "", "### Your current environment", "NPU: Atlas 800I A3", *body, *_serve()]


@pytest.mark.parametrize(
    "lines",
    [
        _indexed("[Bug]: 0.23.0rc1 GLM5.2 PD分离 D实例推理中mtp接收率偶发为0"),
        _indexed("[Bug]: MTP acceptance drops to zero on v0.18.0rc1 with GLM-5.2 (PD, DP=2)"),
        _page("[Bug]: GLM-5.2 w8a8 decode node hangs after an hour, vllm-ascend v0.20.2rc1"),
        _form("[Bug]: v0.17.0rc1 DeepSeek-V3.2 MTP output garbled under high concurrency"),
        _indexed("[Performance]: 0.23.0 GLM5.2 MTP TPOT is high under 64 concurrency", method="glm4_moe_mtp"),
        _indexed("[Bug]: MTP acceptance slower than expected on 0.21.0rc1"),
    ],
)  # fmt: skip
def test_a_release_in_the_title_decides_the_mtp_class_past_the_model_spelling(
    tmp_path: Path, lines: list[str]
) -> None:
    """At base the run was read as the plugin's pre-0.12 ``deepseek_mtp`` branch
    (``MtpProposer``) whatever its release."""
    path = crash_path(run(tmp_path, lines))
    assert (path.value, path.worker_class) == ("other", "AscendEagleProposer"), path
    assert "builds AscendEagleProposer" in path.evidence[0].reason


def test_an_old_release_in_the_title_keeps_the_old_class(tmp_path: Path) -> None:
    lines = _indexed("[Bug]: 0.13.0rc1 DeepSeek-R1 w8a8 deepseek_mtp hang at warm-up")
    path = crash_path(run(tmp_path, lines))
    assert (path.value, path.worker_class) == ("other", "MtpProposer"), path


def test_no_release_anywhere_is_the_condition_on_the_release(tmp_path: Path) -> None:
    """No release, no day: ``deepseek_mtp`` ran either class (at base: ``MtpProposer``)."""
    path = crash_path(run(tmp_path, _indexed("[Bug]: GLM5.2 PD decode hangs with MTP")))
    assert_verdict(path, "unknown", "MtpProposer|AscendEagleProposer")


@pytest.mark.parametrize(
    "title",
    [
        "[Bug]: MTP fine on 0.11.0 but the decode node hangs on 0.13.0rc1",  # two releases
        "[Bug]: MTP decode hang with torch_npu 2.7.1",  # another package's version
        "[Bug]: MTP acceptance zero, fixed in 0.18.0rc1?",  # the fix's release
        "[Bug]: MTP acceptance regressed since 0.16.0rc1",  # where a regression began
        "[Performance]: MTP slower than on 0.13.0rc1",  # the release compared with
    ],
)
def test_a_title_naming_no_one_release_of_the_run_leaves_the_condition(
    tmp_path: Path, title: str
) -> None:
    path = crash_path(run(tmp_path, _indexed(title)))
    assert_verdict(path, "unknown", "MtpProposer|AscendEagleProposer")


def test_a_release_heading_in_the_body_naming_another_release_leaves_the_condition(
    tmp_path: Path,
) -> None:
    """The title says 0.18.0rc1, a heading over the script 0.13.0rc1: neither is the run's."""
    lines = _indexed("[Bug]: MTP acceptance zero on 0.18.0rc1", "**0.13.0rc1**", "")
    assert_verdict(crash_path(run(tmp_path, lines)), "unknown", "MtpProposer|AscendEagleProposer")


def test_the_model_spelling_spans_both_classes_and_a_day_bounds_it() -> None:
    """``deepseek_mtp`` with no release names both classes; a day before v0.16.0rc1 leaves
    the old one (every release out then ran ``MtpProposer``)."""
    worker, _why, condition = ascend_proposer("deepseek_mtp")
    assert worker is None and condition is not None
    assert "MtpProposer on vllm-ascend v0.10.2rc1-v0.15.0rc1" in condition
    assert "AscendEagleProposer on vllm-ascend v0.16.0rc1" in condition
    assert ascend_proposer("deepseek_mtp", None, Version("0.13.0"))[0] == "MtpProposer"
    assert ascend_proposer("qwen3_next_mtp", "0.14.0rc1")[0] == "MtpProposer"
