"""Session 35 (FIXC): results templates, runs told by their knobs and their method in prose.

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's class or condition, and the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, crash_path, probed_path, run

# --- a results template: every result field left to fill, whatever commands it carries ---

_SERVE = ["```bash",
          "vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8000 \\",
          "  --speculative-config '{\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\","
          " \"num_speculative_tokens\": 3}'",
          "```"]  # fmt: skip


def _lines(text: str) -> list[str]:
    return text.strip("\n").split("\n")


# a final report whose numbers are to be filled in on the hardware: the environment and results
# cells left to measure, a baseline launch (each got the launch's path before session 35)
_EN_REPORT = r"""
# Llama-3.1-8B EAGLE-3 serving: final report

This report records the final setup. Every figure is filled in only after the benchmark ran on
the staging node; we measured nothing yet, so do not write numbers that were not measured.

## 1. Environment

| item | how to check | value |
|---|---|---|
| Driver | `nvidia-smi` | _to be measured_ |
| vLLM version | `vllm --version` | _to be measured_ |
| GPU | `nvidia-smi -L` | _to be measured_ |

## 2. Launch (baseline)

```bash
vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8000 \
  --speculative-config '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}'
```

## 3. Benchmark

| concurrency | output tok/s | TTFT p95 | acceptance |
|---|---|---|---|
| 1 | _to be measured_ | | |
| 8 | _to be measured_ | | |
"""
_ZH_REPORT = r"""
# Qwen3-32B EAGLE3 部署最终报告

本文档记录最终配置。所有数字必须在目标机器上实测后填写，不得填写未实测的数字。

## 1. 环境

| 项目 | 检查命令 | 记录 |
|---|---|---|
| 驱动 | `nvidia-smi` | 待填 |
| SGLang 版本 | `python -c "import sglang; print(sglang.__version__)"` | 待填 |
| 镜像 | `docker images` | 待填 |

## 2. 启动命令（基线）

```bash
python -m sglang.launch_server --model-path Qwen/Qwen3-32B --speculative-algorithm EAGLE3 \
  --speculative-draft-model-path Tengyunw/qwen3_32b_eagle3 --speculative-num-steps 3 \
  --speculative-eagle-topk 1 --speculative-num-draft-tokens 4 --tp 4
```

## 3. 压测结果

| 并发 | 吞吐 (tok/s) | TTFT | 平均接受长度 |
|---|---|---|---|
| 1 | 待填 | | |
| 16 | 待填 | | |
"""
_KO_REPORT = r"""
# DeepSeek-V3 MTP 서빙 최종 보고서

이 문서는 최종 구성을 기록한다. 모든 수치는 실제 장비에서 측정한 후에만 기입하며, 측정하지 않은 수치는 쓰지 않는다.

## 1. 환경

| 항목 | 확인 명령 | 기록 |
|---|---|---|
| 드라이버 | `nvidia-smi` | 측정 예정 |
| vLLM 버전 | `vllm --version` | 측정 예정 |

## 2. 실행 명령 (기준)

```bash
vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 \
  --speculative-config '{"method": "deepseek_mtp", "num_speculative_tokens": 1}'
```

## 3. 벤치마크

| 동시성 | 처리량 (tok/s) | TTFT p95 | 수락률 |
|---|---|---|---|
| 1 | 측정 예정 | | |
| 8 | 측정 예정 | | |
"""
# a record sheet of key: value fields with angle-bracketed blanks under a TensorRT-LLM config
_TRT_SHEET = r"""
# Eagle3 one-model on trtllm-serve: benchmark record

Record sheet for the launch below. Fill in each field after the benchmark finished; TTFT and
tok/s come from the benchmark's summary.

## Config

```yaml
speculative_config:
  decoding_type: Eagle
  max_draft_len: 3
  speculative_model_dir: /models/eagle3-draft
```

## Record

- Output throughput (tok/s): <fill>
- Mean acceptance length: <fill>
- TTFT p99: <fill>
- TensorRT-LLM version: <fill>
"""


@pytest.mark.parametrize("text", [_EN_REPORT, _ZH_REPORT, _KO_REPORT, _TRT_SHEET],
                         ids=["english", "chinese-sglang", "korean-vllm", "trtllm-fields"])
def test_a_results_template_gives_no_path(tmp_path: Path, text: str) -> None:
    assert_no_path(tmp_path, _lines(text))


def test_a_sheet_with_one_row_filled_shows_its_run(tmp_path: Path) -> None:
    # the same sheet with the first row measured: a partly filled record of a run
    path = probed_path(tmp_path, [
        "# Llama-3.1-8B EAGLE-3 rollout: benchmark record", "", "## Launch", "", *_SERVE, "",
        "## Results (measured 2026-03-02)", "",
        "| concurrency | output tok/s | TTFT p50 | acceptance rate |", "|---|---|---|---|",
        "| 1 | 182.4 | 41 ms | 0.62 |", "| 8 | TBD | TBD | TBD |", "| 32 | TBD | | |"])  # fmt: skip
    assert_verdict(path, "other", "EagleProposer")
    assert any("speculative-config" in e.text for e in path.evidence), path.evidence


def test_a_crash_report_with_blank_cells_keeps_its_run(tmp_path: Path) -> None:
    # a report on a sheet to fill in, whose crash runs through the engine's proposer: still a run
    path = crash_path(run(tmp_path, [
        "Fill in the metric cells after the run.", "", "Launch:", *_SERVE, "", "| metric | value |", "|---|---|",
        "| acceptance | _to be measured_ |", "| tok/s | _to be measured_ |", "| TTFT | _to be measured_ |", "",
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3/site-packages/vllm/v1/spec_decode/eagle.py", line 210, in propose',
        "    logits = self.model.compute_logits(hidden)",
        "RuntimeError: CUDA error: an illegal memory access was encountered"]))  # fmt: skip
    assert path.worker_class == "EagleProposer", path
    assert any("spec_decode/eagle.py" in e.text for e in path.evidence), path.evidence


# --- vLLM's speculative key pair written inline in prose (method=..., num_speculative_tokens=...) ---


@pytest.mark.parametrize(("lines", "value", "classes", "said"), [
    # a bug thread: the keys inside a sentence's parenthesis, the release in the environment
    (["### Your current environment", "", "vLLM 0.11.0, one H100 80GB, CUDA 12.8", "",
      "### 🐛 Describe the bug", "",
      "The server dies on the first long request when speculation is on (method=eagle3,",
      "num_speculative_tokens=3, draft yuhuili/EAGLE3-LLaMA3.1-Instruct-8B). Without speculation it is fine."],
     "other", "EagleProposer", "method=eagle3"),
    # a Chinese measurement note: the keys as code spans, a title that names no method
    (["# 在 A100 上测 vLLM 投机解码的收益", "", "实验设置:Llama-3.1-8B-Instruct,单卡 A100,vLLM 0.10.2。", "",
      "投机配置为 `method=ngram`、`num_speculative_tokens=4`、`prompt_lookup_max=4`。", "",
      "我们测了 1、4、16 三个并发,接受率约 41%,单请求吞吐从 96 tok/s 提到 131 tok/s。"],
     "other", "NgramProposer", "method=ngram"),
    # Japanese, key: value
    (["## 検証メモ", "",
      "vLLM 0.12.0 で Qwen3-8B を 1 枚の L40S に載せ、speculative の設定は method: suffix, num_speculative_tokens: 8 にした。",
      "", "実行した結果、平均受理長は 2.4、スループットは 1.6 倍になった。"],
     "other", "SuffixDecodingProposer", "method: suffix"),
    # an English README of a study: no release, the draft-model method putting vLLM on its V1 runner
    (["# Draft-model speculation on one RTX 4090: is it worth it?", "",
      "## Setup", "",
      "Target Qwen3-8B-AWQ, draft Qwen3-0.6B. Speculation: `method=draft_model`, `num_speculative_tokens=4`.",
      "Turning it on forces vLLM back to the V1 model runner (`VLLM_USE_V2_MODEL_RUNNER=0`).", "",
      "## Results", "", "We measured an acceptance of 38% at every concurrency; mean acceptance length 2.5."],
     "other", "DraftModelProposer", "method=draft_model"),
], ids=["bug-thread", "chinese-note", "japanese-memo", "readme-draft-model"])  # fmt: skip
def test_vllms_key_pair_written_inline_decides(
    tmp_path: Path, lines: list[str], value: str, classes: str, said: str
) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, value, classes)
    assert any(said in e.text and "written inline" in e.reason for e in path.evidence), path.evidence


@pytest.mark.parametrize("lines", [
    # a docs page telling the reader which keys to set
    ["# Speculative decoding in vLLM", "", "## Enabling n-gram speculation", "",
     "To enable it, set `method=ngram` and `num_speculative_tokens=4` in the speculative config of vLLM.",
     "You can also pass `prompt_lookup_max=4`.", "", "## Tuning", "",
     "Larger values of num_speculative_tokens help only when the acceptance is high."],
    # a plan
    ["# Next steps for the latency study", "",
     "We will try vLLM with `method=eagle3`, `num_speculative_tokens=3` on the staging node next week,",
     "and compare it against the plain server."],
    # a question
    ["Should I set method=eagle3 and num_speculative_tokens=3 for vLLM on a single L4, or is ngram better?"],
], ids=["docs", "plan", "question"])  # fmt: skip
def test_the_key_pair_in_a_doc_plan_or_question_gives_no_path(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


# --- a run's own draft and accept counters, in a results table too ("drafts 427 / accepted 341") ---

# a Chinese results summary: the counters in a table cell, a release and a launch above
_ZH_COUNTED = r"""
# Qwen3-Next-80B MTP 结果汇总

运行时:vLLM 0.10.2,4×H100。

## 1. 启动

```bash
vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct -tp 4 \
  --speculative-config '{"method": "qwen3_next_mtp", "num_speculative_tokens": 2}'
```

## 2. 结果

| 项目 | 值 |
|---|---|
| MTP | drafts 512 / accepted 401,接受率 78.3% |
| 速度 | 142.5 tok/s |
"""
# an English sweep page: "1915 drafts / 898 accepted" in a table's rows
_EN_COUNTED = r"""
# Llama-3.1-8B EAGLE-3 sweep

## Setup

```bash
vllm serve meta-llama/Llama-3.1-8B-Instruct \
  --speculative-config '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}'
```

## Numbers

| k | counters | acceptance |
|---|---|---|
| 3 | 1915 drafts / 898 accepted | 46.9% |
| 5 | 2210 drafts / 780 accepted | 35.3% |
"""


@pytest.mark.parametrize(("text", "said"), [
    (_ZH_COUNTED, "qwen3_next_mtp"),
    (_EN_COUNTED, "eagle3"),
    # a bullet in prose: accepted M of N drafted
    ("\n".join(["# EAGLE-3 on vLLM 0.10.2: notes", "", "## Launch", "", "```bash",
                "vllm serve meta-llama/Llama-3.1-8B-Instruct \\",
                "  --speculative-config '{\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", "
                "\"num_speculative_tokens\": 3}'", "```", "", "## Counters", "",
                "- accepted 341 of 427 drafted over the validation set"]), "eagle3"),
], ids=["chinese-table", "english-table", "prose-bullet"])  # fmt: skip
def test_draft_and_accept_counts_show_the_run(tmp_path: Path, text: str, said: str) -> None:
    path = probed_path(tmp_path, _lines(text))
    assert_verdict(path, "other", "EagleProposer")
    assert any(said in e.text for e in path.evidence), path.evidence


# a page explaining the counters: an example's figures and a table of what each counter means
_COUNTERS_EXPLAINED = r"""
# Reading speculative decoding metrics in vLLM

## Counters

The metrics endpoint reports two counters, e.g. drafts 100 / accepted 80 for a short run.

## Launch

```bash
vllm serve meta-llama/Llama-3.1-8B-Instruct \
  --speculative-config '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}'
```

| counter | meaning |
|---|---|
| drafts | proposals made |
| accepted | proposals kept |
"""


def test_counters_explained_by_a_page_give_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, _lines(_COUNTERS_EXPLAINED))
