"""A roadmap, tracker or parity checklist marks each item's status in words ("[Ongoing]",
"[WIP]", "[In progress]", "[done]", "[Planned]") beside open and checked boxes: every item is
the state of work on a method, not a run (``not_run._status_lists``: the items become GOAL
lines), and a checked bare name there ("- [x] Multi-token-prediction") is a feature landed. A
test plan's checked run ("- [x] Ran ... on H100: no leak") stays the run's, whatever status words
sit beside it. Our own texts, a probe traceback appended as measure.py does.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_verdict, crash_path, run

PROBE = ["", "Traceback (most recent call last):", '  File "probe.py", line 1, in <module>',
         "RuntimeError: spectrace probe"]  # fmt: skip

ROADMAPS: dict[str, list[str]] = {
    "a call for contributions on TensorRT-LLM's tracker": [
        "NVIDIA/TensorRT-LLM · issue #5120 · open · Python",
        "# [Call for contributions] Feature parity between backends - speculative decoding algorithms", "",
        "juno · description · 2025-04-20", "- [ ] Draft model", "- [ ] Lookahead decoding",
        "- [Ongoing] Eagle-3 @dev-x", "- [ ] Medusa", "- [x] Multi-token-prediction", "",
        "karl · comment · 2026-08-06", "Closing this issue as completed. Thanks!"],
    "a numbered status list on vLLM's tracker": [
        "vllm-project/vllm · issue #61200 · open", "# Spec decode methods on model runner v2", "",
        "wg-lead · description · 2026-09-02", "1. [done] EAGLE / EAGLE3", "2. [ongoing] MTP (multi-module)",
        "3. [todo] Draft model", "4. [todo] N-gram (GPU)"],
    "a bare copied list with WIP and Planned boxes": [
        "Speculative decoding algorithms on the NPU backend", "", "* [x] EAGLE3", "* [WIP] MTP (DeepSeek-V4) @npu-dev",
        "* [ ] NGRAM", "* [Planned] multi-layer EAGLE"],
}  # fmt: skip


@pytest.mark.parametrize("name", list(ROADMAPS))
def test_a_status_checklist_names_no_run(tmp_path: Path, name: str) -> None:
    path = crash_path(run(tmp_path, [*ROADMAPS[name], *PROBE], name="report.md"))
    assert path.value == "unknown" and not path.conditional and path.worker_class is None, path


def test_a_test_plans_checked_run_beside_a_wip_box_keeps_its_run(tmp_path: Path) -> None:
    lines = ["sgl-project/sglang · pull request #39001 · open · Python", "# Fix draft KV leak in NGRAM verify", "",
             "dev-a · description · 2026-09-10", "Fixes a leak of draft KV slots when NGRAM verify rejects every token.",
             "", "## Test plan", "- [x] Ran `python -m sglang.launch_server --model Qwen/Qwen3-8B "
             "--speculative-algorithm NGRAM` on H100 for 2 h: no leak, 0 OOM", "- [ ] Unit test for the allocator",
             "- [WIP] nightly CI"]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, [*lines, *PROBE], name="report.md")), "other", "NGRAMWorker")
