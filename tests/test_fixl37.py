"""Session 37 (FIXL): a verdict that stopped at a gate or at the SGLang era join although the text
shows its run and names its family and framework.

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's class or condition, and the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path, store_thread

# --- A page or a wish naming a failure shows no run (the near misses of session 37's relaxation A,
# which was reverted: it let a one-line general statement name its framework) ---


@pytest.mark.parametrize("lines", [
    # a checklist page naming the same failure as what a reader may meet
    ["# Serving MTP on vLLM: a checklist", "",
     "This page lists what to check before turning on MTP with pipeline parallel on vLLM.",
     "- An illegal memory access at start-up usually means the block tables were sized for one stage.",
     "- Garbage output with no crash can come from a stale prefix cache."],
    # a feature request on a fork naming the engine and the method, no run
    store_thread("lab-forks/vllm-hybrid", "issue", 13, "Feature: MTP with pipeline parallel on vLLM", "2026-08-03", [
        "It would be nice to support MTP drafts under PP=2 on vLLM.",
        "Upstream may already have a patch for the block tables."]),
], ids=["checklist-page", "feature-request"])  # fmt: skip
def test_a_page_or_wish_naming_the_failure_shows_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


# --- C: a text telling of runs with several SGLang families (a figure line of one, another line
# naming the other; or each on a line of its own report): the run is one of them, a condition
# over each family's class, never one alone, never a bare unknown ---


@pytest.mark.parametrize(("lines", "classes"), [
    # an issue: the figure from before a regression, the fallback now served
    (store_thread("sgl-project/sglang", "issue", 9120, "[Bug] spec decoding regressed after the driver update",
                  "2026-03-04", [
        "Before the update, NEXTN gave 71 tok/s single stream with an accept length of 2.9 on this box.",
        "Since the driver update the server stops answering after a few requests when NEXTN is on.",
        "For now we fall back to NGRAM speculative decoding, which keeps serving but much slower."]),
     "EAGLEWorker|NGRAMWorker"),
    # a team page: a results table of one arm, notes on another family from the same pod
    (["## Serving results (our H100 pod)", "",
      "| Target | Method | Baseline | With spec | Speedup |", "|---|---|---:|---:|---:|",
      "| qwen3-32b | EAGLE3 head, steps 3 / topk 2 / draft 6 | 61 tok/s | 104 tok/s | 1.70x |", "",
      "Notes from the same pod, SGLang 0.5.x:",
      "- DFlash needs `--dtype bfloat16` and a smaller context on 24 GB cards, else the draft graphs OOM.",
      "- EAGLE3 with a wider ladder (topk 8) OOMed the draft graphs here."],
     "EAGLEWorker|DFlashWorker"),
    # a Chinese issue: the measured family before the upgrade, a fallback family after
    (store_thread("sgl-project/sglang", "issue", 9300, "[Bug] 升级后投机解码卡住", "2026-02-11", [
        "升级前用 EAGLE3 测得 accept length 3.2，吞吐 95 tok/s。",
        "升级之后开启 EAGLE3 服务会在几个请求后卡死。",
        "目前临时改用 NGRAM 投机解码，可以继续服务。"]),
     "EAGLEWorker|NGRAMWorker"),
], ids=["regression-fallback", "results-table-notes", "zh-fallback"])  # fmt: skip
def test_runs_of_several_families_told_apart_give_a_condition_over_each(
    tmp_path: Path, lines: list[str], classes: str
) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "unknown", classes)
    assert path.evidence, path


@pytest.mark.parametrize("lines", [
    # a docs page comparing two families for the reader
    ["# Choosing a speculative method on SGLang", "",
     "Use EAGLE3 when a trained draft head exists; it typically reaches 2x on chat traffic.",
     "Use NGRAM when no draft exists; start the server with `--speculative-algorithm NGRAM`.", "",
     "## Steps", "", "1. Pick the method.", "2. Run the server with its flags."],
    # a feature request naming two families, no run
    store_thread("sgl-project/sglang", "issue", 9400, "[Feature] let NGRAM fall back to EAGLE3 at high batch",
                 "2026-04-02", [
        "It would help if the server could switch from NGRAM to EAGLE3 when the batch grows.",
        "Has anyone tried this?"]),
], ids=["docs-choice", "feature-request"])  # fmt: skip
def test_two_families_on_a_page_or_in_a_wish_show_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


# --- B: a page of sections whose tables hold its run's measured figures (speed-up, tok/s, TPOT,
# accept length in a run's units, two rows or more), telling its reader no step to run: a results
# report, not instructions; its inline flags are the run's ---


@pytest.mark.parametrize(("lines", "flag_line"), [
    # an English experiment page: speed-up / accept length pairs per tree
    (["# Run 4: the same draft head on SGLang (H100)", "",
      "SGLang 0.5.8, `--speculative-algorithm EAGLE3`. Target and draft as in run 3.",
      "- FlashInfer attention, CUDA graphs on, no radix cache.",
      "- Speed-up is against the plain SGLang server on the same prompts.", "", "## Greedy", "",
      "| benchmark | authors' code | SGLang 6/8/48 | SGLang 4/4/16 |", "|---|---|---|---|",
      "| MT-bench | 3.10x / 5.90 | 2.71x / 5.62 | 2.40x / 4.71 |",
      "| HumanEval | 3.52x / 6.31 | 3.05x / 6.02 | 2.66x / 4.93 |",
      "| GSM8K | 3.30x / 6.05 | 2.90x / 5.77 | 2.51x / 4.80 |"],
     3),
    # a Chinese rollout summary: throughput and TPOT against the baseline
    (["# NEXTN 上线评测小结", "", "更新时间：2026-01-20", "",
      "服务：SGLang 0.5.6，`--speculative-algorithm NEXTN`，TP4，两卡组。", "", "## 结果", "",
      "| 指标 | 基线 | NEXTN | 变化 |", "|---|---:|---:|---:|",
      "| 输出吞吐 | 80.1 tok/s | 121.4 tok/s | 1.52x |", "| TPOT p50 | 5.10 ms | 3.62 ms | 1.41x |",
      "| 平均接受长度 | — | 2.61 | — |"],
     5),
    # a German results page
    (["# Ergebnisse: EAGLE-3 auf SGLang", "",
      "Version: SGLang 0.5.7, Start mit `--speculative-algorithm EAGLE3 --speculative-num-steps 3`.", "",
      "## Messungen", "", "| Datensatz | ohne Spekulation | mit EAGLE-3 | Beschleunigung |", "|---|---|---|---|",
      "| MT-bench | 92.3 tok/s | 171.0 tok/s | 1.85x |", "| GSM8K | 95.1 tok/s | 182.6 tok/s | 1.92x |"],
     3),
], ids=["en-experiment", "zh-rollout", "de-results"])  # fmt: skip
def test_a_results_page_of_measured_tables_shows_its_run(tmp_path: Path, lines: list[str], flag_line: int) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "v1", "EAGLEWorker")  # the inline algorithm flag, on its release's era
    assert [e.lineno for e in path.evidence] == [flag_line], path.evidence


_TABLE = ["| benchmark | baseline | EAGLE3 |", "|---|---|---|", "| MT-bench | 90.1 tok/s | 170.2 tok/s |",
          "| GSM8K | 93.0 tok/s | 181.4 tok/s |"]


@pytest.mark.parametrize("lines", [
    # a tutorial: steps for the reader, then a results table
    ["# Tutorial: EAGLE3 on SGLang", "", "Install SGLang 0.5.8 and run the server with `--speculative-algorithm EAGLE3`.",
     "", "## Steps", "", "1. Run the following command to start the server.", "2. Send the benchmark prompts.", "",
     "## Results", "", *_TABLE],
    # a page whose note calls its figures illustrative
    ["# EAGLE3 on SGLang: what to expect", "", "SGLang 0.5.8 with `--speculative-algorithm EAGLE3`.", "",
     "## Benchmarks", "", "Numbers are illustrative; measure on your own traffic.", "", *_TABLE],
    # a page of settings: one value a row
    ["# EAGLE3 serving settings", "", "SGLang 0.5.8 with `--speculative-algorithm EAGLE3`.", "", "## Settings", "",
     "| setting | value |", "|---|---|", "| mem fraction | 0.80 |", "| draft tokens | 16 |", "| max running requests | 64 |"],
    # a model card: a speed-up table over its usage block
    ["---", "license: apache-2.0", "---", "", "# Llama-3.1-8B-Instruct-EAGLE3", "",
     "An EAGLE3 draft head for Llama-3.1-8B-Instruct, trained on 400K chat samples.", "", "## Performance", "",
     "| benchmark | speedup | accept length |", "|---|---|---|", "| MT-bench | 2.81x | 4.12 |", "| HumanEval | 3.05x | 4.60 |",
     "", "## Usage", "", "```bash",
     "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3",
     "```"],
    # a draft's card with a how-to section and no command
    ["# Qwen3-8B-EAGLE3 draft", "", "A draft head for Qwen3-8B, for SGLang 0.5.8 (`--speculative-algorithm EAGLE3`).",
     "", "## Speed", "", *_TABLE, "", "## How to use", "", "Point `--speculative-draft-model-path` at this repository."],
], ids=["tutorial", "illustrative", "settings", "model-card", "draft-card"])  # fmt: skip
def test_a_guide_card_or_settings_table_shows_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)
