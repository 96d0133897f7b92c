"""A recipe PR of another project that syncs or retunes script settings shows no run
(``not_run.CONFIG_CHANGE``) even where its bullets say a setting "drops the OSL term" or "drop
`timeout_iters`" (removing a setting, no drop of a metric) and its section headings are the
changed files' paths ("### `benchmarks/single_node/x_mtp.sh`", no results heading). A metric that
drops ("acceptance drops to 2.1") or a results heading still tell a run.
Our own texts, a probe traceback appended as measure.py does.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import PROBE, crash_path, run


def _path(tmp_path: Path, lines: list[str]):  # noqa: ANN202 - the WorkerPath of the probe
    return crash_path(run(tmp_path, [*lines, "", *PROBE]))


def _no_path(tmp_path: Path, lines: list[str]) -> None:
    path = _path(tmp_path, lines)
    assert path.worker_class is None and not path.conditional and path.value == "unknown", path


TRT_SYNC = ["acme-bench/InferenceY · pull request #1702 · merged · Python",
            "# Sync dsv4-fp4-b200-trt recipes with the aggregated frontier config", "",
            "dev-k · description · 2026-06-10", "## What",
            "Sync the frontier configs into the single-node TensorRT-LLM recipes; the MTP recipe carries the MTP settings.",
            "## Changes", "### `benchmarks/single_node/dsv4_fp4_b200_trt_mtp.sh` (MTP)",
            "- `attention_dp_config`: `batching_wait_iters` 0 → **30**, drop `timeout_iters`.",
            "- `max_num_tokens` drops the OSL term: **`ISL + 256`**.",
            "- `speculative_config` uses **`max_draft_len`**; default level **2 → 3**."]  # fmt: skip


def test_a_trt_recipe_sync_pr_is_no_run(tmp_path: Path) -> None:
    _no_path(tmp_path, TRT_SYNC)


def test_an_sglang_recipe_retune_in_citation_form_is_no_run(tmp_path: Path) -> None:
    lines = ["# Retune dsr1 sglang MTP recipe for H200", "acme-bench/InferenceY pull request #1750 · merged", "",
             "dev-l · description · 2026-07-01", "### `configs/dsr1_fp8_h200_sglang_mtp.yaml`",
             "- drops `--disable-radix-cache` and `--chunked-prefill-size`",
             "- `--speculative-num-steps` 2 → 3, `--speculative-num-draft-tokens` 3 → 4",
             "- `--speculative-algorithm EAGLE` unchanged"]  # fmt: skip
    _no_path(tmp_path, lines)


def test_a_vllm_sweep_config_bump_in_the_index_form_is_no_run(tmp_path: Path) -> None:
    lines = ["acme-bench/InferenceY · pull request #1801 · merged · Python", "# Update qwen3 vllm eagle3 sweep config",
             "", "dev-m · description · 2026-06-12", "### configs/qwen3_h100_vllm_eagle3.yaml",
             "- drop the unused `VLLM_ATTENTION_BACKEND` env",
             "- `--speculative-config '{\"method\": \"eagle3\", \"num_speculative_tokens\": 3}'` (was 2)"]  # fmt: skip
    _no_path(tmp_path, lines)


# near misses: a metric that drops, a results heading


def test_a_recipe_pr_whose_metric_drops_keeps_the_run(tmp_path: Path) -> None:
    lines = [*TRT_SYNC, "- Acceptance drops to 2.1 at level 3 on B200, so level 3 stays only for ISL 1k."]
    path = _path(tmp_path, lines)
    assert path.worker_class is not None or path.conditional, path


def test_a_recipe_pr_with_a_results_heading_keeps_the_run(tmp_path: Path) -> None:
    lines = [*TRT_SYNC, "## Results", "Frontier point at conc 64 matches the aggregated run within noise."]
    path = _path(tmp_path, lines)
    assert path.worker_class is not None or path.conditional, path
