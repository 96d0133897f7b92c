"""A ``vllm serve`` cut before its speculative options, under a section naming the draft it ran
(issue 11, round 35): a pull request's test plan ("QwQ model and [QwQ-EAGLE model](...)") or a
report's reproduce heading lists the target and the draft checkpoint, then the command is cut
before ``--speculative-config``. The method the draft's name marks is the cut options'. Never
from a draft the section sets apart, from two drafts of different methods, across a heading,
or from the served model's own name (a quantized target's ``-mtp`` names its MTP layers). Every case is our own text, with other models, methods and releases."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import crash_path, run
from test_never_wrong import PROBE_CRASH, VLLM_REPO, thread


def _cut(model: str) -> list[str]:
    return ["```", f"VLLM_USE_V1=1 vllm serve {model} \\", "  --tensor-parallel-size 4 \\",
            "  --max-model-len 16384 \\", ""]  # fmt: skip


CASES = {
    "a PR's test plan naming an EAGLE-3 draft by link": (thread(
        VLLM_REPO, "[V1][Spec Decode] Tree attention for the draft", "2025-08-20",
        "## Test Plan", "Llama-3.1-70B and [the EAGLE-3 head](https://huggingface.co/org/EAGLE3-LLaMA3.1-Instruct-70B)",
        "4*H100", *_cut("meta-llama/Llama-3.1-70B-Instruct"), kind="pull request"), "EagleProposer"),
    "a report's reproduce heading naming an EAGLE draft": (thread(
        VLLM_REPO, "[Bug]: accept length collapses after 2k tokens", "2025-06-02",
        "### Reproduce", "Target Qwen/Qwen2.5-14B-Instruct, draft org/Qwen2.5-14B-Instruct-EAGLE",
        *_cut("Qwen/Qwen2.5-14B-Instruct")), "EagleProposer"),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_sections_draft_is_the_cut_commands_method(tmp_path: Path, name: str) -> None:
    lines, cls = CASES[name]
    path = crash_path(run(tmp_path, [*lines, *PROBE_CRASH], name="thread.md"))
    assert (path.value, path.worker_class) == ("other", cls), path


def test_a_dflash_draft_in_a_2026_section_names_dflash(tmp_path: Path) -> None:
    lines = thread(VLLM_REPO, "[Bug]: OOM at warm-up on B200", "2026-05-11",
                   "## Steps", "Qwen3-32B with z-lab/Qwen3-32B-DFlash-b16 on one B200",
                   *_cut("Qwen/Qwen3-32B"))  # fmt: skip
    path = crash_path(run(tmp_path, [*lines, *PROBE_CRASH], name="thread.md"))
    said = path.worker_class or path.conditional or ""
    assert "DFlash" in said and "Eagle" not in said, path


NEVER = {
    "two drafts of different methods": thread(
        VLLM_REPO, "[Bug]: slow start-up", "2025-08-20", "## Test Plan",
        "org/Llama-3.1-8B-EAGLE3 and org/Llama-3.1-8B-Medusa heads were compared",
        *_cut("meta-llama/Llama-3.1-8B-Instruct")),
    "a draft the section sets apart": thread(
        VLLM_REPO, "[Bug]: slow start-up", "2025-08-20", "## Test Plan",
        "We did not load org/Llama-3.1-8B-EAGLE3 here.", *_cut("meta-llama/Llama-3.1-8B-Instruct")),
    "a draft under another heading": thread(
        VLLM_REPO, "[Bug]: slow start-up", "2025-08-20", "## Background",
        "Earlier runs used org/Llama-3.1-8B-EAGLE3.", "## Test Plan",
        *_cut("meta-llama/Llama-3.1-8B-Instruct")),
    "the target's own MTP checkpoint set as the model path": thread(
        VLLM_REPO, "[Bug]: precision loss at long outputs", "2026-03-02", "v0.17.0:",
        "```", "export HCCL_BUFFSIZE=1024", "model_path=/mnt/weights/DeepSeek-V3.2-w8a8-mtp", "",
        "vllm serve $model_path \\", "  --tensor-parallel-size 8 \\", ""),
    "the served model named in the section and in the command": thread(
        VLLM_REPO, "[Bug]: slow start-up", "2025-08-20", "## Test Plan",
        "Served org/GLM-4.5-Air-MTP on 4*H100", *_cut("org/GLM-4.5-Air-MTP")),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(NEVER))
def test_no_method_from_a_draft_the_section_does_not_run(tmp_path: Path, name: str) -> None:
    path = crash_path(run(tmp_path, [*NEVER[name], *PROBE_CRASH], name="thread.md"))
    assert path.worker_class is None and not path.conditional, path
