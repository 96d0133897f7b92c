"""vllm-ascend on its model runner v2: the plugin's MRV2 speculator, not its V1 runner's proposer.

vllm-ascend's classes for a method change by the plugin's release (``EagleProposer``, then
``AscendEagleProposer``); all of them are its V1 runner's. A text that puts the run on the model
runner v2 (``VLLM_USE_V2_MODEL_RUNNER=1``) ran the plugin's own ``init_speculator``
(rules/paths/vllm_runner.toml ``[[ascend]]``): ``AscendEagleSpeculator`` for eagle/eagle3 (and mtp
before ``AscendMTPSpeculator``). Every line here is written by us in the real shapes."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_verdict, crash_path, run
from test_never_wrong_threads import ASCEND_REPO, thread

CRASH = ["Traceback (most recent call last):", '  File "check.py", line 30, in <module>',
         "RuntimeError: output mismatch"]  # fmt: skip


def _script(method: str) -> list[str]:
    return ["```python", 'os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "1"', "llm = LLM(",
            '    model="/data/Qwen3-8B",', "    speculative_config={",
            f'        "method": "{method}", "model": "/data/draft-8B", "num_speculative_tokens": 2,',
            "    },", ")", "```"]  # fmt: skip


def test_eagle_on_ascend_mrv2_by_day_is_the_plugin_speculator(tmp_path: Path) -> None:
    lines = thread(ASCEND_REPO, "[Feature] MRV2: support eagle in graph mode", "2026-05-20",
                   "Tested with:", *_script("eagle"), *CRASH)  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines, "thread.md")), "other", "AscendEagleSpeculator")


def test_mtp_on_ascend_mrv2_names_the_class_of_its_releases(tmp_path: Path) -> None:
    early = thread(ASCEND_REPO, "[Bugfix] MRV2 mtp accept rate", "2026-06-20",
                   "Test script:", *_script("mtp"), *CRASH)  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, early, "a.md")), "other", "AscendEagleSpeculator")
    late = thread(ASCEND_REPO, "[Bugfix] MRV2 mtp accept rate", "2026-10-01",
                  "Test script:", *_script("mtp"), *CRASH)  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, late, "b.md")), "unknown",
                   "AscendEagleSpeculator|AscendMTPSpeculator")


def test_ascend_mrv2_without_a_plugin_speculator_keeps_the_v1_condition(tmp_path: Path) -> None:
    # suffix decoding: the plugin's MRV2 builds nothing of its own for it; never an MRV2 class
    lines = thread(ASCEND_REPO, "[Bug] suffix decoding slow", "2026-05-20",
                   "Script:", *_script("suffix"), *CRASH)  # fmt: skip
    path = crash_path(run(tmp_path, lines, "thread.md"))
    assert "Speculator" not in (path.worker_class or "") + (path.conditional or ""), path
