"""A thread on vllm-ascend's own tracker is the plugin's run: a ``--speculative-config`` a
commenter pastes there runs the plugin's proposer, not vLLM's CUDA ``EagleProposer`` (a copied
plugin issue page was decided EagleProposer). Every copy form of the head; a vLLM thread that
only cites a plugin issue stays vLLM's. Our own lines; a probe crash at the end."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.real_logs_helpers import probed_path

_BODY = ["", "alice commented on Jun 4, 2026", "Same error here with MTP:",
         """--speculative-config '{"num_speculative_tokens": 1, "method": "mtp"}'"""]


@pytest.mark.parametrize("head", [
    ["https://github.com/vllm-project/vllm-ascend/issues/10005", "",
     "[Bug]: DeepSeek model fails to start #10005"],
    ["vllm-project/vllm-ascend · issue #10005 · open", "# [Bug]: DeepSeek model fails to start"],
    ["[Bug]: DeepSeek model fails to start · Issue #10005 · vllm-project/vllm-ascend"],
])  # fmt: skip
def test_a_config_pasted_on_the_plugins_tracker_runs_the_plugins_proposer(
    tmp_path: Path, head: list[str]
) -> None:
    path = probed_path(tmp_path, [*head, *_BODY])
    named = path.worker_class or path.conditional or ""
    assert "EagleProposer" not in named.replace("AscendEagleProposer", ""), path
    assert "AscendEagleProposer" in named or "MtpProposer" in named, path


def test_a_vllm_thread_citing_a_plugin_issue_stays_vllms(tmp_path: Path) -> None:
    lines = ["vllm-project/vllm · issue #40001 · open", "# [Bug]: MTP fails to start", "",
             "alice · description · 2026-06-04", "Looks like vllm-project/vllm-ascend#10005 but on H100:",
             """--speculative-config '{"num_speculative_tokens": 1, "method": "mtp"}'"""]
    assert probed_path(tmp_path, lines).worker_class == "EagleProposer"
