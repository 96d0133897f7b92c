"""SGLang runs told in prose that the linker left unknown (issue 11, session 25, SRUN), against
texts in the same words that show no run.

- A sentence may open with inline-code flags and go on in Chinese or Japanese ("`--speculative-
  algorithm DSPARK` 下，并发到 4 后：" over the crash block): it is prose quoting the run's flag, not a
  bare flag line that starts a command and swallows the sentence.
- One of SGLang's server fields written whole as inline code ("日志打印 TP=8、
  `speculative_algorithm='DSPARK'`") is the server's own repr of it: vLLM prints ``method=``,
  TensorRT-LLM ``decoding_type``. A question, a suggestion or a clause setting it apart sets none.
- A clause comparing against another framework without a family word ("setup was heavier than
  vLLM") names the framework compared against, not the run's; "SGLang with MTP is faster than
  vLLM" still names two.
- A `docker run` continuation line of short options ("  -e SPEC_ALGORITHM=dspark -e X=6 \\") is a
  command's line, not a removed line of a diff.
Every line below is our own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import PROBE, assert_no_path, assert_verdict, probed_path, roots, run

from spectrace.assemblers.config import draft_loaded
from spectrace.assemblers.launch_span import code_flags
from spectrace.assemblers.sections import diff_line
from spectrace.dialects.base import LogLine


def _line(text: str) -> LogLine:
    return LogLine("t.md", 1, 0, text, text, "plain", "")


# ---- a sentence opening with inline-code flags, in a CJK language ------------------------------

@pytest.mark.parametrize(("text", "flags"), [
    ("`--speculative-algorithm DSPARK` 下，高并发请求会触发硬件异常：", "--speculative-algorithm DSPARK"),
    ("`--speculative-algorithm NEXTN` で起動すると、最初の検証ステップで落ちる。", "--speculative-algorithm NEXTN"),
    ("`--speculative-algorithm EAGLE3` 사용 시 서버가 멈춘다.", "--speculative-algorithm EAGLE3"),
    ("`--speculative-algorithm EAGLE3` 建议配合 `--speculative-num-steps 3` 使用。", ""),  # a suggestion
    ("`--speculative-algorithm EAGLE3` 参数用于开启投机解码。", ""),  # a document's note on the option
    ("`--tp 2` `--speculative-algorithm EAGLE`", None),  # still a flag line in code marks
])  # fmt: skip
def test_flags_opening_a_cjk_sentence(text: str, flags: str | None) -> None:
    assert code_flags(_line(text)) == flags


GFX_REPORT = [
    "# 问题报告：MI308 上 Qwen3.9-Coder + DSpark 并发崩溃",
    "",
    "我方把 Qwen3.9-Coder + DSpark 跑通，单流解码从 20 tok/s 提升到 41 tok/s，",
    "比原生产配置（3 月版 + EAGLE MTP，29 tok/s）快 40%。",
    "",
    "## 现象",
    "",
    "`--speculative-algorithm DSPARK` 下，temperature > 0 的请求并发到 4 以后：",
    "",
    "```",
    "Callback: Queue 0x7f00 aborting with error : HSA_STATUS_ERROR_EXCEPTION:",
    "An HSAIL operation resulted in a hardware exception. code: 0x1016",
    "```",
    "",
]


def test_a_cjk_report_quoting_the_flag_over_its_crash_is_that_algorithms_run(tmp_path: Path) -> None:
    # the EAGLE MTP of the older production config is compared against; the crash's own
    # sentence quotes the DSPARK flag
    for crash in roots(run(tmp_path, GFX_REPORT)):  # the hardware exception (and its abort)
        assert crash.worker_path is not None
        assert_verdict(crash.worker_path, "v2", "DSparkWorkerV2")


@pytest.mark.parametrize("sentence", [
    "`--speculative-algorithm DSPARK` 建议配合 `--speculative-dspark-block-size 3` 使用。",
    "`--speculative-algorithm EAGLE3` 参数用于开启投机解码，`--speculative-num-steps` 控制草稿步数。",
])  # fmt: skip
def test_a_cjk_runbook_line_on_the_flag_shows_no_run(tmp_path: Path, sentence: str) -> None:
    assert_no_path(tmp_path, ["# DSpark 部署手册", "", "## 参数说明", "", sentence, ""])


# ---- a server field quoted whole as inline code ------------------------------------------------

PROGRESS = [
    "### 2026-08-02T10:00:00Z — 第三次检查",
    "",
    "- 服务进程在前台启动，端口与模型目录校验通过。",
    "- 模型类为 `Qwen4ForCausalLM`，权重里带着 draft 头；",
    "  日志打印 `speculative_algorithm='DSPARK'`，张量并行为 4，draft 块大小 6。",
    "  还在加载权重，没有开始接请求。",
    "",
]


def test_a_progress_log_telling_the_printed_field_is_that_algorithms_run(tmp_path: Path) -> None:
    # no "sglang" anywhere: the field's own repr names the server
    assert_verdict(probed_path(tmp_path, PROGRESS), "v2", "DSparkWorkerV2")


def test_an_english_note_telling_the_printed_field(tmp_path: Path) -> None:
    lines = ["## Run 3", "", "The server log printed `speculative_algorithm='DSPARK'` and block size 4; it",
             "became ready after 20 minutes.", ""]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "v2", "DSparkWorkerV2")


@pytest.mark.parametrize("sentence", [
    "Should we set `speculative_algorithm='DSPARK'` for this checkpoint?",
    # what a check requires or a reader should see, how the server behaves, code read
    "3. 日志证明 `speculative_algorithm='DSPARK'`；",
    "Expect in `.sglang.log`: `speculative_algorithm='DFLASH'` and the pinned draft.",
    "- `.sglang.log` shows `speculative_algorithm='DFLASH'` (success criterion).",
    "The resolved `server_args` must include `speculative_algorithm='DSPARK'`.",
    "SGLang records it internally as `speculative_algorithm='EAGLE'` with the same checkpoint as draft.",
    "The standing boot form runs `disable_overlap_schedule=True` with `speculative_algorithm='EAGLE'`.",
    "确认 server_args 包含 `speculative_algorithm='DSPARK'`。",
    "You could try `speculative_algorithm='DSPARK'` instead of the draft model.",
    "Please don't use `speculative_algorithm='DSPARK'` with DP attention.",
])  # fmt: skip
def test_the_field_asked_about_or_suggested_shows_no_run(tmp_path: Path, sentence: str) -> None:
    assert_no_path(tmp_path, ["## Question", "", sentence, ""])


# ---- a clause comparing against another framework ----------------------------------------------

FORK_LOG = [
    "# One workstation GPU, one hybrid-attention model: what we tried",
    "",
    "## vLLM nightly: works once a kernel patch is applied",
    "",
    "Plain decoding without speculation, greedy smoke test: about 100 tok/s once warm.",
    "",
    "## SGLang (patched fork): MTP works, lower speed",
    "",
    ("The model's page points to SGLang with `--speculative-algorithm NEXTN`. Upstream still has an open "
     "MTP issue for this architecture, hence the fork. Setup was heavier than vLLM:"),
    "the static memory fraction had to come down to `--mem-fraction-static 0.82` so the draft KV pool fits.",
    "",
    "In the end SGLang served NEXTN MTP at 49 tok/s with accept_len 1.02.",
    "",
]


def test_a_fork_section_comparing_setup_effort_is_sglangs_run(tmp_path: Path) -> None:
    # no release, no day: the condition over both NEXTN workers
    assert_verdict(probed_path(tmp_path, FORK_LOG), "unknown", "EAGLEWorkerV2|EAGLEWorker")


def test_a_family_compared_across_frameworks_names_two(tmp_path: Path) -> None:
    lines = ["# Qwen3.9 MTP notes", "", "Our run: SGLang with MTP is 30% faster than vLLM with MTP at 57 tok/s.", ""]
    (crash,) = roots(run(tmp_path, [*lines, *PROBE]))
    path = crash.worker_path
    assert path is not None and path.worker_class is None and not path.conditional, path


# ---- a docker continuation line of short options ----------------------------------------------

@pytest.mark.parametrize(("text", "diff"), [
    ("  -e SPEC_ALGORITHM=dspark -e DSPARK_BLOCK_SIZE=6 \\", False),
    ("  -v /ssd/model:/model \\", False),
    ("  -e TP_SIZE=8 --ipc=host \\", False),
    ("-    code = 1", True),
    ("-import os", True),
    ("-e X", True),  # no continuation: a removed line
    ("-  --speculative-algorithm EAGLE \\", True),
])  # fmt: skip
def test_short_option_lines_are_no_diff(text: str, diff: bool) -> None:
    assert diff_line(text) is diff


# ---- SGLang's load line of a draft model shows the run ------------------------------------------

FIX_PR = [
    "sgl-project/sglang · pull request #48001 · open · Python",
    "# Fix MTP draft lm_head sharing after the KV pool is sized",
    "",
    "dev-q · description · 2026-08-20",
    "## Problem",
    "",
    "The MTP draft model keeps its own `lm_head` until `init_lm_head()` runs, which happens after the",
    "KV budget was computed from free memory, so the freed memory stays idle:",
    "",
    "```",
]
LOADS = [
    "Load weight end ... type=Qwen3_5ForConditionalGeneration, mem usage=28.40 GB",
    "Load weight end ... type=Qwen3_5ForCausalLMMTP, mem usage=5.20 GB   <- includes the duplicate head",
    "KV Cache VA upper bound ... #tokens: 270K",
]


def test_a_fix_pr_quoting_its_runs_draft_load_line_is_that_run(tmp_path: Path) -> None:
    # August 2026: only the v2 NEXTN worker exists
    lines = [*FIX_PR, *LOADS, "```", "", "## Solution", "", "Move `init_lm_head()` into the worker's `__init__`.", ""]
    assert_verdict(probed_path(tmp_path, lines), "v2", "EAGLEWorkerV2")


def test_the_same_fix_pr_without_its_log_shows_no_run(tmp_path: Path) -> None:
    lines = [*FIX_PR[:-2], "## Solution", "", "Move `init_lm_head()` into the worker's `__init__`.", ""]
    assert_no_path(tmp_path, lines)


def test_a_target_models_load_line_shows_no_draft(tmp_path: Path) -> None:
    lines = [*FIX_PR, LOADS[0], LOADS[2], "```", ""]
    path = probed_path(tmp_path, lines)
    assert path.worker_class is None


def test_a_bare_server_log_loading_a_nextn_draft(tmp_path: Path) -> None:
    # no algorithm anywhere: the draft class names NEXTN; the release is the era table's question
    lines = ["[2026-03-02 10:00:01 TP0] Load weight end. elapsed=12.10 s, type=DeepseekV3ForCausalLM, avail mem=20.10 GB, mem usage=60.20 GB.",
             "[2026-03-02 10:00:09 TP0] Load weight end. elapsed=2.30 s, type=DeepseekV3ForCausalLMNextN, avail mem=18.00 GB, mem usage=2.10 GB."]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert "EAGLEWorker" in (path.worker_class or path.conditional or ""), path


def test_an_expected_load_line_in_a_runbook_shows_no_run(tmp_path: Path) -> None:
    lines = ["# MTP bring-up runbook", "", "Start the server with the MTP draft. Example output:", "", "```",
             "Load weight end. type=Qwen3_5ForCausalLMMTP, mem usage=5.20 GB", "```", ""]  # fmt: skip
    assert_no_path(tmp_path, lines)


# ---- a title naming two frameworks, the family line one of them ---------------------------------

RECIPES = [
    "example-org/local-registry · pull request #71 · merged · Python",
    "# Add Qwen3.9-Coder recipes: 2x H200 (vLLM 0.31) and 4x DGX Spark (SGLang TP4)",
    "",
    "maint · comment · 2026-09-19",
]


def test_a_recipe_comment_whose_family_line_names_one_framework(tmp_path: Path) -> None:
    lines = [*RECIPES, "Added `qwen39-coder-dgxspark-sglang-tp4`: Qwen3.9-Coder on four DGX Sparks (SGLang, DSpark "
             "block 3, 256k context). `make trust` marks it validated.", "",
             "| 4x DGX Spark, medians of 3 | |", "|---|---|", "| Decode, C1 / C4 | 41.2 / 90.3 tok/s |", ""]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "v2", "DSparkWorkerV2")


def test_the_family_line_naming_both_frameworks_decides_nothing(tmp_path: Path) -> None:
    lines = [*RECIPES, "Added both recipes with DSpark block 3 (vLLM and SGLang). `make trust` marks them validated.", "",
             "| Decode, C1 | 41.2 tok/s |", ""]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert path.worker_class is None and not path.conditional, path


@pytest.mark.parametrize(("text", "loaded"), [
    ("Load weight end ... type=Qwen3_5ForCausalLMMTP, mem usage=5.18 GB", "Qwen3_5ForCausalLMMTP"),
    ("[2026-03-02 10:00:09 TP0] Load weight end. elapsed=2.30 s, type=DeepseekV3ForCausalLMNextN, avail mem=1 GB",
     "DeepseekV3ForCausalLMNextN"),
    ("(decode pid=33) [2026-03-02 10:00:09 TP3] Load weight end. type=LlamaForCausalLMEagle3, dtype=bf16",
     "LlamaForCausalLMEagle3"),
    ("[2026-03-02 10:00:01 TP0] Load weight end. type=DeepseekV3ForCausalLM, dtype=bf16", None),  # the target
    ("[2026-03-02 10:00:01 TP0] Load weight end. type=LlamaModel, dtype=bf16", None),  # an inner class's name
    ('    # want "Load weight end ... type=DeepseekV3ForCausalLMNextN quant=quark"', None),  # a runbook's expectation
    ("grep 'Load weight end.*type=LlamaForCausalLMEagle3' server.log", None),  # a search
    ('- After the fix the draft LOADS ("Load weight end type=DeepseekV3ForCausalLMNextN")', None),  # told
])  # fmt: skip
def test_a_draft_models_load_record(text: str, loaded: str | None) -> None:
    found = draft_loaded(text)
    assert (found[0] if found else None) == loaded


def test_a_comparing_word_outside_the_frameworks_clause_keeps_the_line_whole(tmp_path: Path) -> None:
    # a deployment PR changing a default: "instead" and the vLLM link sit in different clauses
    # (the link's colon splits them); the line still names vLLM beside another run's word
    lines = ["example-org/gpu-composes · pull request #72 · merged · Python",
             "# Hybrid model: prefix caching OFF by default (MTP x prefix-cache corruption)", "",
             "maint · description · 2026-07-15", "## What", "",
             "Disable prefix caching by default (keep MTP) across the shipped MTP composes (vLLM).", "",
             "- **Fix (upstream):** [vllm#48001](https://github.com/vllm-project/vllm/pull/48001) — "
             "the cache-hit lookup takes an EAGLE block-drop argument and never uses it, so the final lookahead block "
             "keeps stale state instead of being recomputed.", ""]  # fmt: skip
    assert_no_path(tmp_path, lines)
