"""Another project's pull request that changes configuration and tells no result
(``not_run.CONFIG_CHANGE``, ``run_denied``): a benchmark lane's new recipe with MTP flags and an
image pin, a deployment repository retuning an engine's example configs because of a release, a
chart exposing speculative options. What it adds is what a run would use; nothing in it ran.
Told apart by its shape (a non-engine repository's PR, configuration as what it touches, no
result, sweep, failure, log or run of the writer's own in any post), not by a phrase, in each
way a thread is copied (index header, a repository line under the title, a browser's page
title). The same PRs with a result, a crash or a run told keep their verdict.
Our own texts, a probe traceback appended as measure.py does.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_verdict, crash_path, run

PROBE = ["", "Traceback (most recent call last):", '  File "probe.py", line 1, in <module>',
         "RuntimeError: spectrace probe"]  # fmt: skip
SGL_MTP = ("`--speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1 "
           "--speculative-num-draft-tokens 4`")  # fmt: skip
MTP_JSON = '{"method": "mtp", "num_speculative_tokens": 2}'


def saved(repo: str, title: str, day: str, *body: str) -> list[str]:
    """An index-saved thread: header, title, the description's byline."""
    return [f"{repo} · pull request #318 · open · Shell", f"# {title}", "", f"lin · description · {day}", *body]


def repo_line(repo: str, title: str, day: str, *body: str) -> list[str]:
    """A copy with the title first and the repository on the line below it."""
    return [title, f"{repo} pull request #58 · merged", "", f"tkim · description · {day}", *body]


def page(repo: str, title: str, day: str, *body: str) -> list[str]:
    """A browser's page title, then GitHub's "opened this pull request" line."""
    return [f"{title} by rocm-dev · Pull Request #92 · {repo}", f"rocm-dev opened this pull request on {day}", "",
            *body]  # fmt: skip


DENIED: dict[str, list[str]] = {
    "a benchmark lane's MTP recipe on MI300X with an image pin": saved(
        "perfbench/serving-recipes", "qwen3.5-fp8-mi300x-sglang-mtp: first Qwen3.5 MI300X MTP recipe", "2026-07-30",
        "## Summary", "", "Adds the `qwen3.5-fp8-mi300x-sglang-mtp` recipe: one script, one master-config entry.",
        "", f"**Speculative config**: `SGLANG_ENABLE_SPEC_V2=1`, {SGL_MTP}.", "",
        "**Image** `lmsysorg/sglang-rocm:v0.5.16-rocm720-mi30x-20260730`"),
    "example configs retuned because of a release, with a bot's summary": repo_line(
        "acme/deploy-examples", "fix: [TRTLLM + Eagle 3] make the one-model config the default", "2025-08-22",
        "#### Overview:", "", "The two-model eagle path became unstable in TensorRT-LLM 1.0.0rc6 and is not "
        "maintained upstream.", "", "#### Details:", "", "Remove the two-model config and set the one-model one "
        "as the default.", "", "## Summary by CodeRabbit", "", "- Refactor", "  - Retuned Llama 4 + Eagle "
        "configs: longer speculative drafts, one-model enabled by default.", "- Documentation",
        "  - Removed outdated OOM notes."),
    "a vLLM MTP serving config, copied from the web page": page(
        "amd-infer/model-recipes", "[Recipe] DeepSeek-V3.2 MI355X vLLM MTP config", "Jun 3, 2026",
        "This PR introduces a new serving config for DeepSeek-V3.2 on MI355X:", "", "```yaml",
        "image: rocm/vllm:v0.22.1_20260601", "args:", f"  speculative-config: '{MTP_JSON}'", "```", "",
        "Docs updated."),
    "TensorRT-LLM one-model examples switched, a YAML key named": repo_line(
        "cluster-tools/slurm-launch", "Switch TensorRT-LLM Qwen3 EAGLE3 examples to one-model", "2025-10-02",
        "Two-model Eagle is deprecated upstream since TensorRT-LLM 1.1.0rc2, so the examples use one model.", "",
        "- `examples/qwen3/eagle3_agg.yaml`: `speculative_config: {decoding_type: Eagle, max_draft_len: 3, "
        "eagle3_one_model: true}`"),
}  # fmt: skip


@pytest.mark.parametrize("name", list(DENIED))
def test_a_config_change_pr_of_another_project_gets_no_path(tmp_path: Path, name: str) -> None:
    path = crash_path(run(tmp_path, [*DENIED[name], *PROBE], name="report.md"))
    assert path.value == "unknown" and not path.conditional and path.worker_class is None, path


KEPT: dict[str, tuple[list[str], str, str]] = {
    "the recipe with its results": (saved(
        "perfbench/serving-recipes", "Add Kimi-K3 B200 SGLang MTP recipe", "2026-08-20",
        f"Adds the `kimi-k3-fp8-b200-sglang-mtp` recipe, same shape as the H200 one: {SGL_MTP}, image "
        "`lmsysorg/sglang:v0.5.17-cu130`.", "", "## Results", "",
        "Throughput at conc 64 went from 3120 to 4410 tok/s, accept length 2.9."), "unknown", "EAGLEWorkerV2"),
    "the recipe whose comment tells the sweep that ran": ([*saved(
        "perfbench/serving-recipes", "Add Kimi-K3 B200 SGLang MTP recipe", "2026-08-20",
        f"Adds the `kimi-k3-fp8-b200-sglang-mtp` recipe, same shape as the H200 one: {SGL_MTP}, image "
        "`lmsysorg/sglang:v0.5.17-cu130`."), "", "rev · comment · 2026-08-21",
        "The sweep passed on all B200 lanes: 1.38x at conc 64."], "unknown", "EAGLEWorkerV2"),
    "the writer's own run told in the PR": (repo_line(
        "acme/deploy-examples", "Add Llama 3.1 EAGLE3 example for vLLM", "2026-06-02",
        f"Adds `examples/llama-eagle3.yaml` with `--speculative-config '{{\"method\": \"eagle3\", \"model\": "
        "\"acme/eagle3-8b\", \"num_speculative_tokens\": 3}'`. I ran it on vLLM 0.11.0 on an H100."),
        "other", "EagleProposer"),
}  # fmt: skip


@pytest.mark.parametrize("name", list(KEPT))
def test_the_same_prs_with_a_run_still_decide(tmp_path: Path, name: str) -> None:
    lines, value, classes = KEPT[name]
    assert_verdict(crash_path(run(tmp_path, [*lines, *PROBE], name="report.md")), value, classes)


def test_an_engines_own_config_pr_is_not_read_as_another_projects(tmp_path: Path) -> None:
    """An SGLang PR changing SGLang's own CI config is the engine's (its own readers decide);
    this denial is for other projects' repositories only."""
    lines = saved("sgl-project/sglang", "[CI] switch the PD test to EAGLE3", "2026-03-31",
                  "Switches `test/srt/test_pd_eagle.py` to `--speculative-algorithm EAGLE3`.", "",
                  "gsm8k score 0.93 on the new config.")  # fmt: skip
    path = crash_path(run(tmp_path, [*lines, *PROBE], name="report.md"))
    assert path.value != "unknown" or path.conditional, path
