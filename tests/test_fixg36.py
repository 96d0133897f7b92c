"""Session 36 (FIXG): texts that show a run in shapes the run_forms gate (5442154) and the
sentence reading of a one-line paragraph (ab0ba9e) lost.

1. A writer's own setup listed beside their first-person reproduction or check ("I was able to
   confirm that ...", "We can confirm this", "我这边也确认了") names the engine's release and a
   speculative setting: a run of theirs (rules/paths/run_forms.toml, a form with ``near``). A
   how-to's requirements, a template's placeholders and a plan's "we will test on" are not.

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's class or condition, and the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path
from spectrace.assemblers.run_forms import first_form
from spectrace.dialects.base import LogLine

SETUP_FORM = "the writer's setup listed beside their reproduction"


def _held(lines: list[str]) -> list[LogLine]:
    return [LogLine("t.log", n, 0, raw, raw, "plain", "") for n, raw in enumerate(lines, 1)]


# --- 1. the writer's setup listed beside their reproduction ---

_BARE = ["vllm-project/vllm · issue #9001 · open · Python",
         "# Cache reuse with EAGLE3 drafts and structured output on repeated requests", "",
         "zora-k · comment · 2026-08-02",
         "I was able to confirm that this comes from the same allocator bug as #48800.", "",
         "Environment:", "", "vLLM v0.24.1 source build", "", "Llama-3.1-8B-Instruct", "", "1x RTX 4090", "",
         "EAGLE3 with 4 speculative tokens", "",
         "The patch from #48800 makes the repeats match again."]  # fmt: skip
_BULLETS = ["vllm-project/vllm · issue #51877 · open · Python", "# Prefix caching together with MTP and tool calling", "",
            "mika-t · comment · 2026-09-14",
            "- vLLM 0.25.0 (source build)", "- Qwen3-Next-80B-A3B, FP8", "- 2x H100", "- MTP, 2 speculative tokens", "",
            "We can confirm this on our side as well, same payloads."]  # fmt: skip
_CHINESE = ["vllm-project/vllm · issue #52010 · open · Python", "# 前缀缓存与 MTP 同时开启时的工具调用输出", "",
            "wang-l · comment · 2026-09-20", "我这边也确认了，和 #51877 是同一个问题。", "",
            "vLLM 0.26.0 源码编译", "", "Qwen3-32B", "", "MTP，2 个推测 token", "",
            "相同请求第二次返回的内容与第一次不同。"]  # fmt: skip


@pytest.mark.parametrize(("lines", "classes"), [
    (_BARE, "EagleProposer|EagleSpeculator"),  # a list whose bullets the copy dropped, below the sentence
    (_BULLETS, "EagleProposer|MTPSpeculator"),  # bullets above "We can confirm this"
    (_CHINESE, "EagleProposer|MTPSpeculator"),  # Chinese, bare lines
], ids=["bare-lines-below", "bullets-above", "chinese"])  # fmt: skip
def test_a_setup_list_beside_the_writers_check_shows_their_run(
    tmp_path: Path, lines: list[str], classes: str
) -> None:
    assert_verdict(probed_path(tmp_path, lines), "unknown", classes)


@pytest.mark.parametrize("lines", [
    ["We were able to confirm the bisect result.", "", "| item | value |", "|---|---|",
     "| sglang | 0.5.17 |", "| speculative | EAGLE3, 3 steps |"],
    ["Setup:", "TensorRT-LLM 1.2.0", "Medusa heads, 4 of them", "I can confirm the hang on this box."],
], ids=["table", "trtllm"])  # fmt: skip
def test_the_form_reads_a_table_or_another_engines_setup(lines: list[str]) -> None:
    assert (found := first_form(_held(lines))) is not None and found[1] == SETUP_FORM, found


@pytest.mark.parametrize("lines", [
    # a how-to's requirements: a release with "or later", the reader's run
    ["# Serving Orbit-27B with MTP", "", "## Requirements", "- vLLM 0.23.0 or later",
     "- a checkpoint that ships MTP weights", "- one GPU with 48 GB", "",
     "You can reproduce the numbers below with the bundled script."],
    # an issue template's fields, placeholders in place of a setup
    ["# [Bug]: <short title>", "", "## Environment", "- vLLM version: <version>",
     "- Speculative decoding: <method, e.g. MTP with 3 tokens>", "- GPU: <model>", "",
     "I was able to reproduce this on: [yes/no]"],
    # a plan: the setup it will test on
    ["# Validation plan for the MTP prefix-cache fix", "", "We will test on:", "- vLLM 0.23.0",
     "- MTP with 3 speculative tokens", "- RTX 5090", "", "and report back once the nightly is out."],
], ids=["requirements", "template", "plan"])  # fmt: skip
def test_a_setup_list_no_run_stands_behind_gets_no_path(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


@pytest.mark.parametrize("lines", [
    ["I was able to confirm the steps below work.", "- vLLM 0.23.0 or later", "- MTP weights in the checkpoint"],
    ["I was able to reproduce it.", "- vLLM version:", "- Speculative decoding: MTP"],
    ["We confirmed the fix.", "- vLLM 0.23.0", "- speculative decoding: disabled"],
    ["We will confirm it on:", "- vLLM 0.23.0", "- MTP with 3 speculative tokens"],
    ["I was able to confirm it.", "", "The run used vLLM 0.23.0 with MTP, as the reporter wrote."],
], ids=["requirement", "empty-field", "spec-off", "plan", "prose-not-a-list"])  # fmt: skip
def test_the_form_needs_a_setup_with_its_release_and_a_setting_on(lines: list[str]) -> None:
    found = first_form(_held(lines))
    assert found is None or found[1] != SETUP_FORM, found


# --- 2. two values an error sets side by side in code spans compare no run ---

def _recipe_pr(error_line: str) -> list[str]:
    return ["acme/dgx-recipes · pull request #41 · open · Shell", "# feat: Orbit-30B FP8 + MTP speculative decoding", "",
            "lee-h · description · 2026-06-02", "## Summary", "",
            "Adds an opt-in path to serve Orbit-30B-FP8 with MTP-2 speculative decoding on two GB10 boxes. Today the"
            " `orbit-30b-fp8` recipe cannot use MTP because the FP8 export drops the MTP layers; this PR restores them,"
            " fixes the layer list in the config, and keeps the drafter's block in BF16 so that it loads.", "",
            "Verified on two GB10 boxes, TP=2: mean acceptance length ~1.8 tokens/step.", "", "## Why", "",
            error_line]  # fmt: skip


@pytest.mark.parametrize("error_line", [
    "Even with the layers present, vLLM's MTP drafter builds its block with the FP8 quant config and cannot be told"
    " otherwise: the draft's quant config only covers target modules, so the exclusion list never reaches the MTP"
    " layers -> load error (`weight=(8192, 1024)` FP8-packed vs `loaded=",
    "Even with the layers present, vLLM's MTP drafter casts its block from the FP8 quant config, and the exclusion"
    " list never reaches the MTP layers of the draft, whatever the checkpoint says: the loader then fails with"
    " `dtype=float8_e4m3fn` in the drafter vs `dtype=bfloat16` in the shard.",
    "Even with the layers present, vLLM's MTP drafter keeps the FP8 quant config for its block, and the exclusion"
    " list never reaches the MTP layers of the draft model at all, in any of our configs: the shapes then differ,"
    " `(4096, 512)` packed vs `(4096, 1024)` on disk.",
], ids=["cut-assignment", "dtypes", "shapes"])  # fmt: skip
def test_an_errors_values_side_by_side_leave_the_runs_framework(tmp_path: Path, error_line: str) -> None:
    path = probed_path(tmp_path, _recipe_pr(error_line))
    assert (path.value, path.worker_class) == ("other", "EagleProposer"), path
    assert any("MTP-2" in e.text for e in path.evidence), path.evidence


@pytest.mark.parametrize("text", [
    "EAGLE3 drafts on vLLM `0.27.1` vs SGLang `0.5.9` on one box: vLLM accepts fewer.",
    "MTP on vLLM is slower than on SGLang for this model.",
], ids=["releases-in-code", "than"])  # fmt: skip
def test_a_comparison_of_engines_stays_a_comparison(text: str) -> None:
    from spectrace.path_run import compared_beside

    assert compared_beside(text)
