"""Texts that show no run get no path, in the shapes that slipped past session 20's document
denial (issue 11, session 21): a reference page whose only crash is the probe's traceback (its
header read as a failure told), a code reading with a blockquote (a quoted line read as a
thread's), a setup guide whose flags, hardware counts and "tested on" footer read as a failure,
a speed-up or a run, READMEs telling the reader which log line to look for, and a generated
digest of several threads' titles and summaries. The same texts holding a run of their own (a
traceback through the writer's tree, a measured result, "we ran", the server's stamped records)
keep their verdict. Our own texts; a probe traceback appended as measure.py does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, crash_path, probed_path, run


def _sglang(algorithm: str, extra: str = "") -> str:
    return (f"python -m sglang.launch_server --model-path /models/Orbit-8B --speculative-algorithm {algorithm} "
            f"--speculative-draft-model-path /models/Orbit-draft{extra}")


# ---- a reference page on one option: examples for several algorithms, sources ----

REFERENCES = {
    "ru": ["- `Draft attention backend X is not supported, falling back to triton` — значение проигнорировано.",
           "- `MTP topk > 1 currently supports triton and trtllm_mha backends, got X` — поставьте `--speculative-eagle-topk 1` для draft'а.",
           "- `TensorRT-LLM MHA only supports page_size of 16, 32, 64 or 128, changing page_size to 64` — побочный эффект.",
           "- Что смотреть: дамп `server_args=` и строку `Initialized draft runner. attention_backend=…`.", "",
           "## Примеры", "", "```bash", _sglang("EAGLE3", " --speculative-draft-attention-backend triton"), "```",
           "", "```bash", _sglang("DSPARK", " --speculative-draft-attention-backend trtllm_mha --page-size 64"),
           "```", "", "## Источники", "", "- `python/sglang/srt/server_args.py`"],
    "en": ["# `--speculative-draft-attention-backend`", "",
           "Picks the attention kernel of the draft model; the target keeps `--attention-backend`.", "",
           "## Examples", "", "```bash", _sglang("EAGLE3", " --speculative-draft-attention-backend fa3"), "```", "",
           "```bash", _sglang("DFLASH", " --speculative-draft-attention-backend triton"), "```", "",
           "## See also", "", "- `python/sglang/srt/server_args.py`"],
    "de": ["# Option `--speculative-draft-attention-backend`", "", "## Beispiele", "", "```bash",
           _sglang("EAGLE3", " --speculative-draft-attention-backend triton"), "```", "", "```bash",
           _sglang("NEXTN", " --speculative-draft-attention-backend fa3"), "```"],
    "zh": ["# 选项 `--speculative-draft-attention-backend`", "", "为 draft 模型单独选择注意力后端。", "", "## 示例", "",
           "```bash", _sglang("EAGLE3", " --speculative-draft-attention-backend triton"), "```", "", "## 参见", "",
           "- `python/sglang/srt/server_args.py`"],
}


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_a_reference_page_with_example_commands_gets_no_path(tmp_path: Path, name: str) -> None:
    assert_no_path(tmp_path, REFERENCES[name])


_SGLANG_FRAMES = ["Traceback (most recent call last):",
                  '  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/speculative/eagle_worker.py", line 412, '
                  "in forward_batch_generation",
                  "    logits_output, next_token_ids = self.verify(batch, spec_info)",
                  '  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/speculative/eagle_worker.py", line 690, '
                  "in verify",
                  "    res = spec_info.verify(batch, logits_output, self.token_to_kv_pool_allocator)",
                  "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip


def test_a_reference_page_pasting_a_crash_through_the_tree_keeps_its_path(tmp_path: Path) -> None:
    """The same page with a traceback through an installed package: the crash is a run."""
    lines = [*REFERENCES["en"][:8], "", "```", *_SGLANG_FRAMES, "```"]
    assert_verdict(crash_path(run(tmp_path, lines)), "v1", "EAGLEWorker")


# ---- a code reading: classes and `file.py:N` cited in prose, a blockquote above ----

READINGS = {
    "zh-nav": ["---", "source:", '  type: "源码解读"', '  project: "TensorRT-LLM"', "---", "",
               "> [← 返回概览](/reading/trtllm/1.3.0/00-overview)", "", "## 模块架构", "",
               "draft → verify → accept 循环（以 `DraftTargetOneModelWorker._forward_impl()` in `draft_target.py:143` 为例）：",
               "", "`get_spec_worker()` in `utils.py:482` 按 `spec_dec_mode` 创建对应 worker。"],
    "en-note": ["> **Note:** this page was written from the 1.3.0 sources, not from a run.", "",
                "## Architecture", "",
                "`Eagle3OneModelWorker.forward()` in `eagle3.py:210` drafts, then `sample_and_accept_draft_tokens()`",
                "in `interface.py:1631` verifies; the class is picked by `get_spec_worker()` (`utils.py:482`)."],
    "ja-quote": ["> この記事はソースコードを読んで書いたメモです。", "", "## 設計", "",
                 "`MTPWorker.forward()`（`mtp.py:388`）が draft を作り、`MTPSampler` が検証する。"],
}


@pytest.mark.parametrize("name", sorted(READINGS))
def test_a_code_reading_with_a_blockquote_gets_no_path(tmp_path: Path, name: str) -> None:
    assert_no_path(tmp_path, READINGS[name])


def test_a_code_reading_whose_writer_ran_it_keeps_its_path(tmp_path: Path) -> None:
    """The same reading with the writer's own run told below its blockquote shows the run."""
    lines = [*READINGS["en-note"], "",
             "We then ran `trtllm-serve acme/Orbit-8B --extra_llm_api_options spec.yaml` on 1.3.0 and it crashed "
             "at start:", "", "```yaml", "speculative_config:", "  decoding_type: Eagle3", "  max_draft_len: 3",
             "  eagle3_one_model: true", "```"]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "other", "Eagle3OneModelWorker")


# ---- a setup guide: hardware counts, flags, expected lines, a "tested on" footer ----

GUIDES = {
    "en-multinode": [
        "# Two-node setup guide (2x HGX H100, TP=16)", "", "## Prerequisites", "",
        "- 2x NVIDIA HGX H100 nodes", "- 400Gbps InfiniBand between the nodes", "", "## Step 2: Start the head node", "",
        "```bash", "python3 -m sglang.launch_server --model-path acme/Orbit-V3 --tp 16 --nnodes 2 --node-rank 0 \\",
        "  --dist-init-addr 10.0.0.1:50000 --dist-timeout 600 \\",
        "  --speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1 \\",
        "  --speculative-num-draft-tokens 4", "```", "", "## Step 3: Wait for loading", "", "You'll see:",
        "1. `Capture draft cuda graph end`", "2. `The server is fired up and ready to roll!`", "", "---", "",
        "*Tested on 2x HGX H100 with InfiniBand - March 2026*"],
    "en-vllm-guide": [
        "# Serving Orbit-30B with MTP", "", "## Requirements", "", "- 4x L40S", "- vLLM 0.19.1", "",
        "## Launch", "", "```bash", "vllm serve acme/Orbit-30B --tensor-parallel-size 4 --request-timeout 600 \\",
        "  --speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 2}'", "```", "",
        "Check the server log for `Detected MTP model` before sending traffic.", "",
        "Verified with vLLM 0.19.1 on 4x L40S."],
    "ja-guide": [
        "# Orbit-V3 マルチノード構築手順", "", "## 前提条件", "", "- 2x DGX H200", "", "## 起動", "", "```bash",
        "python3 -m sglang.launch_server --model-path acme/Orbit-V3 --tp 16 --dist-timeout 600 \\",
        "  --speculative-algorithm NEXTN --speculative-num-steps 2", "```", "",
        "ログに `Capture draft cuda graph end` と出れば起動完了です。"],
    "ru-guide": [
        "# Развёртывание Orbit-V3 на двух узлах", "", "## Требования", "", "- 2x DGX H100", "", "## Запуск", "",
        "```bash", "python3 -m sglang.launch_server --model-path acme/Orbit-V3 --tp 16 --dist-timeout 900 \\",
        "  --speculative-algorithm EAGLE --speculative-num-steps 3", "```", "",
        "Вы увидите строку `The server is fired up and ready to roll!`."],
}


@pytest.mark.parametrize("name", sorted(GUIDES))
def test_a_setup_guide_gets_no_path(tmp_path: Path, name: str) -> None:
    assert_no_path(tmp_path, GUIDES[name])


def test_a_setup_guide_with_a_measured_result_keeps_its_condition(tmp_path: Path) -> None:
    """A figure the guide's writer measured on its setup is a run (the tested-on footer with a
    result): the launch is that run's."""
    lines = [*GUIDES["en-multinode"][:-1], "*Tested on 2x HGX H100: 312 tok/s at batch 8, accept length 3.1*"]
    assert_verdict(probed_path(tmp_path, lines), "unknown", "EAGLEWorker|EAGLEWorkerV2")


def test_a_setup_guide_whose_writer_hit_a_crash_keeps_its_path(tmp_path: Path) -> None:
    lines = [*GUIDES["en-multinode"][:15], "", "We ran it and the head node died during capture:", "", "```",
             *_SGLANG_FRAMES, "```"]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "v1", "EAGLEWorker")


# ---- a README telling the reader which log line to look for ----

_SUFFIX_SERVE = ["vllm serve ./checkpoints/orbit-asr --port 19300 \\",
                 "    --speculative-config '{\"method\":\"suffix\",\"num_speculative_tokens\":16}'"]  # fmt: skip
_MTP_LINE = "Detected MTP model. Sharing target model lm_head weights with the draft model."

READMES = {
    "en-look-for-inline": [
        "**This is a server-side setting.** Restart the endpoint with stock vLLM's suffix speculation:", "",
        "```bash", *_SUFFIX_SERVE, "```", "",
        "Nothing here needs changing. Confirm it took by looking for `SpeculativeConfig(method='suffix', …)`",
        "in the server log."],
    "en-look-for-block": [
        "```bash", "docker run --rm -v $PWD:/p:ro <image> bash -lc 'python /p/patch_lmhead.py; exec vllm serve ...'",
        "```", "", "**Does it apply to you?** Look for this in your server log:", "", "```", _MTP_LINE, "```", "",
        "If you see it, yes. If your build gives the draft its own head, the patch is a no-op."],
    "zh": ["## 使用", "", "```bash", *_SUFFIX_SERVE, "```", "", "启动后日志中会出现 `SpeculativeConfig(method='suffix'`，即为生效。"],
    "ko": ["## 적용 여부", "", "```bash", *_SUFFIX_SERVE, "```", "",
           "로그에 `SpeculativeConfig(method='suffix'` 가 보이면 적용된 것입니다."],
}


@pytest.mark.parametrize("name", sorted(READMES))
def test_a_readme_naming_the_log_line_to_look_for_gets_no_path(tmp_path: Path, name: str) -> None:
    assert_no_path(tmp_path, READMES[name])


def test_a_readme_followed_by_the_servers_own_records_keeps_its_path(tmp_path: Path) -> None:
    """The server's stamped records below the README's words are what it printed: a run."""
    lines = [*READMES["en-look-for-inline"], "",
             "INFO 09-02 10:11:12 [core.py:75] Initializing a V1 LLM engine (v0.19.1) with config: "
             "model='./checkpoints/orbit-asr', speculative_config=SpeculativeConfig(method='suffix', "
             "num_spec_tokens=16)"]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "other", "SuffixDecodingProposer")


# ---- a digest of several threads: titles and summaries, each another thread's ----

DIGESTS = {
    "zh": [
        "# acme/orbit-serve — 动态追踪", "", "> 生成时间: 2026-08-18 10:01 CST", "", "## AI 总结", "",
        "### 🐛 Issue", "1. **NPU 算子运行报错 (#4456)**：运行多模态测试时上游算子调用失败。",
        "2. **M-RoPE 模型投机解码失败 (#4453)**：使用 draft model 投机解码时报错 `NotImplementedError`。", "",
        "### 🔧 Pull Request", "* **修复 MTP 共享索引 (#4451)**：修复 MTP 未使用共享索引的问题。",
        "* **修复 shared-expert 崩溃 (#4450)**：移除不匹配的 kwargs。", "",
        "### #4453 — [[Bug]: draft model speculative decoding fails for M-RoPE models]"
        "(https://github.com/acme/orbit-serve/issues/4453)",
        "- **摘要**: When using `--speculative-config '{\"method\": \"draft_model\"}'` with an M-RoPE model it fails "
        "with `NotImplementedError: Speculative Decoding with draft models does not support M-RoPE yet`."],
    "en": [
        "# Weekly roundup: acme/orbit-serve (2026-W33)", "",
        "- #30001 [Bug] EAGLE3 draft crashes with an illegal memory access on H20",
        "- #30002 [Perf] MTP acceptance drops after the 0.19 upgrade",
        "- #30005 [Bug] ngram proposer hangs when the prompt is shorter than the window",
        "- #30007 [Feature] DFlash drafter support for Orbit-V3"],
    "table": [
        "| # | title | state |", "|---|---|---|",
        "| [#2210](https://github.com/acme/orbit-serve/pull/2210) | Fix EAGLE draft KV leak | merged |",
        "| [#2214](https://github.com/acme/orbit-serve/issues/2214) | MTP crash with FP8 KV cache | open |",
        "| [#2219](https://github.com/acme/orbit-serve/issues/2219) | Suffix decoding wrong output | open |"],
}


@pytest.mark.parametrize("name", sorted(DIGESTS))
def test_a_digest_of_several_threads_gets_no_path(tmp_path: Path, name: str) -> None:
    assert_no_path(tmp_path, DIGESTS[name])


def test_a_report_listing_related_threads_keeps_its_run(tmp_path: Path) -> None:
    """A report of the writer's own run that lists related threads is no digest."""
    lines = ["I ran Orbit-8B with `--speculative-algorithm EAGLE3` on sglang 0.5.2 and the server crashed:", "",
             "```", *_SGLANG_FRAMES, "```", "", "Related:", "- #30001 EAGLE3 draft crash on H20",
             "- #30004 same crash with topk 4", "- #30011 illegal memory access in verify"]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "v1", "EAGLEWorker")


def test_a_two_item_list_is_no_digest(tmp_path: Path) -> None:
    """Two threads cited beside a run told in words: the run's words still give its path."""
    lines = ["Orbit-8B, sglang 0.5.2, `--speculative-algorithm EAGLE3`: the scheduler crashed at warmup.", "",
             "- looks like #30001", "- maybe also #30004"]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert path.worker_class is not None or path.conditional, path


# ---- a plan or how-to: priority-ranked items, "how to enable" captions ----

_NGRAM_FLAGS = ["```bash", "--speculative-algorithm NGRAM", "--speculative-ngram-max-trie-depth 18",
                "--speculative-ngram-match-type BFS", "```"]  # fmt: skip

PLANS = {
    "zh": ["### P0-a：EAGLE tree 扫参（零训练，先做）", "", "当前 `topk=1` 是最弱配置，建议扫 topk 4/8。", "",
           "### P0-b：NGRAM（零训练）", "", "多轮编辑里大段复刻，NGRAM 的主场。", "", "启用方式（无 draft model）：", "",
           *_NGRAM_FLAGS, "", "**约束**：需关 overlap scheduler，与 EAGLE 二选一。"],
    "en": ["## P1: try NGRAM on the rollout workers", "", "Multi-turn edits copy large spans; ngram should shine there.",
           "", "How to enable (no draft model needed):", "", *_NGRAM_FLAGS, "",
           "## P2: EAGLE tree sweep", "", "topk 4 and 8 with 16/32 draft tokens."],
    "ja": ["## NGRAM 投機デコード", "", "有効にするには次のフラグを渡す：", "", *_NGRAM_FLAGS],
    "ru": ["## NGRAM для rollout", "", "Как включить:", "", *_NGRAM_FLAGS],
}


@pytest.mark.parametrize("name", sorted(PLANS))
def test_a_plan_or_how_to_enable_page_gets_no_path(tmp_path: Path, name: str) -> None:
    assert_no_path(tmp_path, PLANS[name])


def test_a_plan_with_a_measured_result_keeps_its_path(tmp_path: Path) -> None:
    """The plan's writer measured the method: the flags are that run's."""
    lines = [*PLANS["zh"], "", "我们实测 NGRAM 在第 2 轮 accept length 3.2，吞吐 182 tok/s。"]
    path = probed_path(tmp_path, lines)
    assert path.worker_class is not None or path.conditional, path


# ---- a config quoted from a blog or a guide: no run of the writer's ----

_EAGLE3_YAML = ["```yaml", "enable_attention_dp: false", "speculative_config:", "  decoding_type: Eagle3",
                "  max_draft_len: 3", "  speculative_model_dir: /config/models/eagle", "  eagle3_one_model: true",
                "```"]  # fmt: skip
_MTP_YAML = ["```yaml", "speculative_config:", "  decoding_type: MTP", "  max_draft_len: 3", "```"]

QUOTED_CONFIGS = {
    "blog-publishes": [
        "### The other min-latency record: 8x B200", "",
        "**[verified]** `blog06` publishes the complete config for the record. It is worth reading for which",
        "knobs they turn *off*:", "", *_EAGLE3_YAML],
    "guide-yaml": ["The deployment guide's YAML, for reference:", "", *_MTP_YAML],
    "zh-blog": ["官方博客给出的完整配置如下：", "", *_EAGLE3_YAML],
    "guide-start-with": [
        *_MTP_YAML, "", "Start the two-rank aggregate server with:", "", "```bash",
        "trtllm-serve /path/to/Orbit-Next --config orbit-mtp3.yaml --host 0.0.0.0 --port 8000", "```"],
}


@pytest.mark.parametrize("name", sorted(QUOTED_CONFIGS))
def test_a_config_quoted_from_a_blog_or_guide_gets_no_path(tmp_path: Path, name: str) -> None:
    assert_no_path(tmp_path, QUOTED_CONFIGS[name])


def test_a_config_the_writer_published_and_ran_keeps_its_path(tmp_path: Path) -> None:
    """The writer's own config ("we published the config we ran") over its crash is the run's."""
    lines = ["We published the complete config we ran on 1.2.1; the server crashed at load:", "", *_MTP_YAML, "",
             "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB."]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class is not None or path.conditional, path


# ---- a program's source: a serve script, a launcher, a shell script; no output of its own ----

SOURCES = {
    "py-switch-off": [
        "from __future__ import annotations", "", "import modal", "", "from common.registry import get", "",
        "SPEC = get(\"orbit-31b\")", "",
        "# MTP / speculative decoding is currently UNAVAILABLE for Orbit-31B on vLLM 0.19.1: every",
        "# published checkpoint is multimodal and the spec-decode path raises `NotImplementedError:",
        "# Speculative Decoding with draft models does not support multimodal models yet`",
        "# (vllm/v1/spec_decode/eagle.py). Flip back to True once upstream lands the fix.",
        "ENABLE_MTP = False", "", "app = modal.App(\"orbit-31b-solo\")"],
    "py-launcher": [
        "#!/usr/bin/env python3", "import json", "import subprocess", "", "MODEL = \"/models/Orbit-8B\"",
        "SPEC = {\"method\": \"eagle3\", \"model\": \"/models/Orbit-8B-eagle3\", \"num_speculative_tokens\": 3}", "",
        "cmd = [\"vllm\", \"serve\", MODEL, \"--speculative-config\", json.dumps(SPEC)]",
        "subprocess.run(cmd, check=True)"],
    "sh-script": [
        "#!/usr/bin/env bash", "set -euo pipefail", "", "MODEL=${MODEL:-acme/Orbit-V3}", "",
        "python3 -m sglang.launch_server --model-path \"$MODEL\" --tp 8 \\",
        "  --speculative-algorithm EAGLE3 --speculative-draft-model-path acme/Orbit-V3-eagle3 \\",
        "  --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4"],
}


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_a_programs_source_with_no_output_gets_no_path(tmp_path: Path, name: str) -> None:
    assert_no_path(tmp_path, SOURCES[name])


def test_a_script_followed_by_its_crash_keeps_its_path(tmp_path: Path) -> None:
    """The shell script's run: the traceback through the installed package below it."""
    lines = [*SOURCES["sh-script"], "", *_SGLANG_FRAMES]
    assert_verdict(crash_path(run(tmp_path, lines)), "v1", "EAGLEWorker")


def test_a_script_followed_by_the_servers_records_keeps_its_path(tmp_path: Path) -> None:
    lines = [*SOURCES["py-launcher"], "",
             "INFO 09-02 10:11:12 [core.py:75] Initializing a V1 LLM engine (v0.19.1) with config: "
             "model='/models/Orbit-8B', speculative_config=SpeculativeConfig(method='eagle3', "
             "model='/models/Orbit-8B-eagle3', num_spec_tokens=3)"]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "other", "EagleProposer")


def test_a_script_whose_comment_tells_its_crash_keeps_its_path(tmp_path: Path) -> None:
    """A comment telling the writer's failure ("this crashes with ...") shows the run."""
    lines = [*SOURCES["sh-script"], "", "# this crashes at cuda graph capture on 0.5.2 (illegal memory access)"]
    path = probed_path(tmp_path, lines)
    assert path.worker_class is not None or path.conditional, path


def test_an_issues_repro_script_is_the_reporters_run(tmp_path: Path) -> None:
    """A shebang script inside an issue (its tracker head) is the reporter's launch, no source file."""
    lines = ["vllm-project/vllm · issue #41234 · open", "# [Bug]: precision loss with MTP and 4 speculative tokens",
             "", "```", "#!/bin/bash", "export OMP_NUM_THREADS=4", "", "vllm serve /models/Orbit-V4-Flash \\",
             "  --tensor-parallel-size 8 \\",
             "  --speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 4}'", "```"]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert path.worker_class is not None or path.conditional, path
