"""SGLang runs told by their algorithm's name or in words (issue 11, session 22, SGLTEXT).

- An algorithm SGLang runs under a name of its own (``FROZEN_KV_MTP``, "Frozen-KV MTP") is its
  own family, never the MTP (NEXTN) inside its name: its [[fixed]] rows by era give the class,
  a condition over both where no release bounds the run.
- SGLang rewrites a launch's algorithm at start-up from the draft it loads ([[promote]] rows:
  NEXTN/EAGLE with a Gemma-4 assistant draft -> FROZEN_KV_MTP); a line telling that rewrite
  (its own log line, a sentence, an arrow) names the later algorithm as the run's, not a second
  family beside the flag it replaced.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spectrace.assemblers.launch import parse_launch_command
from spectrace.assemblers.launch_options import OptionTables
from spectrace.assemblers.sglang_eras import promotion_told
from spectrace.path_base import family_words
from tests.real_logs_helpers import PROBE, assert_no_path, assert_verdict, crash_path, roots, run

_TB = ["", *PROBE]
_FROZEN = "FrozenKVMTPWorker|FrozenKVMTPWorkerV2"


def _verdict(tmp_path: Path, lines: list[str]):
    """The path of the text's own crash, or of a probe appended where it shows none."""
    crashes = roots(run(tmp_path, lines))
    if crashes and crashes[0].worker_path is not None and (
        crashes[0].worker_path.value != "unknown" or crashes[0].worker_path.conditional
    ):
        return crashes[0].worker_path
    path = roots(run(tmp_path, [*lines, *_TB]))[-1].worker_path
    assert path is not None
    return path


_CUT_SCHEDULER = [
    "[2026-06-02 04:02:19] Scheduler hit an exception: Traceback (most recent call last):",
    '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 3990, in run_scheduler_process',
    "    scheduler.run_event_loop()",
    '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1501, in run_event_loop',
    "    dispatch_event_loop(self)",
]

NAMED = {
    "bare paste, env bullet and a docker launch in bash -c, cut traceback": [
        "## Environment",
        "- **Image**: `lmsysorg/sglang:latest`",
        "- **Speculative algorithm**: `FROZEN_KV_MTP`",
        "",
        "```bash",
        "docker run -d --gpus all --ipc host \\",
        "  lmsysorg/sglang:latest \\",
        '  bash -c "python3 -m sglang.launch_server \\',
        "    --model-path google/gemma-4-31B-it \\",
        "    --speculative-algorithm FROZEN_KV_MTP \\",
        "    --speculative-num-steps 3 \\",
        '    --port 30000"',
        "```",
        "",
        *_CUT_SCHEDULER,
    ],
    "index header, title in words, a crash": [
        "sgl-project/sglang · issue #70001 · open · Python",
        "# [Bug] Frozen-KV MTP run dies on the first batch with Gemma-4 on H100",
        "",
        "carol · description · 2026-07-01",
        "We serve gemma-4-26b-it with the Frozen-KV MTP speculative algorithm and the scheduler crashes:",
        "```",
        "Traceback (most recent call last):",
        '  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/managers/scheduler.py", line 2800, in event_loop_normal',
        "    result = self.run_batch(batch)",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
        "```",
    ],
    "web copy, sentence in backticks, no day": [
        "FROZEN_KV_MTP crash on B200 #70002",
        "Open",
        "dave opened this issue",
        "Running `--speculative-algorithm FROZEN_KV_MTP` (as the cookbook says) crashes the server after warmup.",
        "Traceback (most recent call last):",
        '  File "/opt/sglang/python/sglang/srt/managers/scheduler.py", line 2811, in event_loop_overlap',
        "    self.process_batch_result(tmp_batch, tmp_result)",
        "AssertionError",
    ],
    "Chinese report, wiki heading": [
        "# sgl-project/sglang#70003: [Bug] 使用 FROZEN_KV_MTP 时 scheduler 崩溃",
        "",
        "使用 FROZEN_KV_MTP 投机解码启动 Gemma-4 后，第一个请求就崩溃了：",
        "Traceback (most recent call last):",
        '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2790, in event_loop_normal',
        "    batch_result = self.run_batch(batch)",
        "TypeError: 'NoneType' object is not subscriptable",
    ],
}


@pytest.mark.parametrize("name", NAMED)
def test_frozen_kv_mtp_named_is_its_own_family(tmp_path: Path, name: str) -> None:
    """A run naming FROZEN_KV_MTP gets its fixed rows' classes, never a NEXTN/EAGLE class."""
    path = _verdict(tmp_path, NAMED[name])
    assert_verdict(path, "unknown", _FROZEN)
    assert "EAGLEWorker" not in (path.conditional or "")


def test_frozen_kv_mtp_release_decides(tmp_path: Path) -> None:
    """With the release shown, the fixed row of that release decides: v1 up to 0.5.13, V2 after."""
    for release, value, cls in (("0.5.13", "v1", "FrozenKVMTPWorker"), ("0.5.15", "v2", "FrozenKVMTPWorkerV2")):
        lines = [f"sglang: {release}", *NAMED["index header, title in words, a crash"][1:]]
        assert_verdict(_verdict(tmp_path, lines), value, cls)


def test_frozen_kv_mtp_word() -> None:
    """Every spelling is the one family; its files and the word MTP alone are not."""
    for text in ("--speculative-algorithm FROZEN_KV_MTP", "with Frozen-KV MTP on", "frozen kv mtp crashes",
                 "`frozen_kv_mtp` speculative decoding"):  # fmt: skip
        assert family_words(text) == {"FROZEN_KV_MTP"}, text
    assert family_words("a frame in frozen_kv_mtp_utils.py") == set()
    assert family_words("MTP on Qwen3 crashes") == {"MTP"}


PROMOTED = {
    "SGLang's own start-up line, cut traceback": [
        "[2026-05-11 00:03:43] Detected Gemma4AssistantForCausalLM draft; promoting --speculative-algorithm NEXTN to FROZEN_KV_MTP.",
        *_CUT_SCHEDULER,
    ],
    "issue prose, the promotion told in backticks": [
        "sgl-project/sglang · issue #70004 · open · Python",
        "# [Bug] TypeError on the first request with the Gemma 4 assistant draft",
        "",
        "erin · description · 2026-05-20",
        "With gemma-4-31B-it and its assistant draft, sglang auto-promotes the algorithm from `NEXTN` to `FROZEN_KV_MTP`,",
        "and the scheduler crashes on the first request:",
        "Traceback (most recent call last):",
        '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2790, in event_loop_normal',
        "    batch_result = self.run_batch(batch)",
        "TypeError: 'NoneType' object is not subscriptable",
    ],
    "notes, an arrow": [
        "Gemma-4 MTP notes (SGLang)",
        "- we serve gemma-4-31B-it with NEXTN; the server logs NEXTN -> FROZEN_KV_MTP (assistant draft detected)",
        "- first request kills the scheduler:",
        "Traceback (most recent call last):",
        '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2790, in event_loop_normal',
        "    batch_result = self.run_batch(batch)",
        "RuntimeError: CUDA error: device-side assert triggered",
    ],
    "Chinese": [
        "# sgl-project/sglang#70005: [Bug] Gemma-4 assistant draft crashes on the first request (首个请求崩溃)",
        "我们用 NEXTN 部署 gemma-4-31B-it，日志显示 NEXTN 被自动升级为 FROZEN_KV_MTP，然后第一个请求就崩溃：",
        "Traceback (most recent call last):",
        '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2790, in event_loop_normal',
        "    batch_result = self.run_batch(batch)",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
    ],
}


@pytest.mark.parametrize("name", PROMOTED)
def test_promotion_told_names_the_later_algorithm(tmp_path: Path, name: str) -> None:
    """NEXTN promoted to FROZEN_KV_MTP: the run is FROZEN_KV_MTP's, not two families."""
    path = _verdict(tmp_path, PROMOTED[name])
    assert_verdict(path, "unknown", _FROZEN)
    assert "EAGLEWorker" not in (path.conditional or "")


def test_promotion_words() -> None:
    """The rewrite told in a line; the two names side by side without it, or in the other order, are not."""
    for text in ("promoting --speculative-algorithm NEXTN to FROZEN_KV_MTP.", "auto-promotes from NEXTN to FROZEN_KV_MTP",
                 "EAGLE → FROZEN_KV_MTP", "NEXTN 被自动升级为 FROZEN_KV_MTP"):  # fmt: skip
        rule = promotion_told(text)
        assert rule is not None and rule.to == "FROZEN_KV_MTP", text
    for text in ("NEXTN works, FROZEN_KV_MTP crashes", "FROZEN_KV_MTP -> NEXTN fallback", "promote NGRAM to DFLASH"):
        assert promotion_told(text) is None, text


NEAR = {
    "two runs, no rewrite told": [
        "sgl-project/sglang · issue #70006 · open · Python",
        "# [Bug] crash on the first request",
        "",
        "frank · description · 2026-06-20",
        "NEXTN on Qwen3-Next is fine for us; FROZEN_KV_MTP on gemma-4 crashes on the first request.",
        "NEXTN with DeepSeek-V3 crashes the same way.",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
    ],
}


def test_two_families_without_a_promotion_stay_open(tmp_path: Path) -> None:
    """NEXTN and FROZEN_KV_MTP told as two runs: no class of either alone."""
    path = _verdict(tmp_path, NEAR["two runs, no rewrite told"])
    assert path.worker_class is None and "Frozen" not in (path.conditional or ""), path


_V1_TB = [
    "Traceback (most recent call last):",
    '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2790, in event_loop_normal',
    "    batch_result = self.run_batch(batch)",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]
_EAGLE3 = ("--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
           "--speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B")  # fmt: skip

SCRIPTS = {
    "docker one line, setup step before the server": [
        f'docker run --gpus all lmsysorg/sglang:v0.5.4 bash -c "pip install -U transformers && python3 -m sglang.launch_server {_EAGLE3} --port 30000"',
        *_V1_TB,
    ],
    "docker over lines, script quoted over the continuation": [
        "docker run -d --gpus all --ipc host \\",
        "  lmsysorg/sglang:v0.5.4 \\",
        '  bash -c "pip install --upgrade transformers && python3 -m sglang.launch_server \\',
        "    --model-path meta-llama/Llama-3.1-8B-Instruct \\",
        "    --speculative-algorithm EAGLE3 \\",
        "    --speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B \\",
        '    --port 30000"',
        *_V1_TB,
    ],
    "sh -c in single quotes, commands after the server": [
        f"docker run lmsysorg/sglang:v0.5.4 sh -c 'cd /app; python3 -m sglang.launch_server {_EAGLE3}; sleep 5'",
        *_V1_TB,
    ],
    "compose command list": [
        "services:",
        "  sglang:",
        "    image: lmsysorg/sglang:v0.5.4",
        f'    command: ["bash", "-c", "pip install -U flashinfer && python3 -m sglang.launch_server {_EAGLE3}"]',
        *_V1_TB,
    ],
}


@pytest.mark.parametrize("name", SCRIPTS)
def test_server_inside_a_shell_script_argument(tmp_path: Path, name: str) -> None:
    """The server command inside ``bash -c "..."`` is the run's launch: EAGLE3 on 0.5.4's image
    with the normal (v1) event loop -> EAGLEWorker."""
    assert_verdict(crash_path(run(tmp_path, SCRIPTS[name])), "v1", "EAGLEWorker")


def test_script_without_a_server_reads_nothing() -> None:
    """A shell script with no server entry point stays one word; the vLLM one is vLLM's."""
    tables = OptionTables()
    assert parse_launch_command('docker run img bash -c "pip install x && echo done"', tables) is None
    vllm = parse_launch_command(
        "docker run img bash -c \"pip install -U x && vllm serve Qwen/Qwen3-8B --speculative-config '{\\\"method\\\": \\\"ngram\\\"}'\"",
        tables,
    )
    assert vllm is not None and vllm.engine == "vllm"


# --- texts that only instruct: a guide's commands under per-setup headings, nothing printed -------

_DECODE = ("python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3-0324 --tp-size 16 "
           "--disaggregation-mode decode --speculative-algorithm EAGLE --speculative-num-steps 2 "
           "--speculative-eagle-topk 1 --speculative-num-draft-tokens 3")  # fmt: skip
_BENCH = "python3 -m sglang.bench_one_batch_server --base-url http://10.0.0.1:8000 --batch-size 64"

GUIDES = {
    "issue digest entry": [
        "## Issue #N/A: Instructions for running Qwen3-235B with PD disaggregation and MTP",
        "",
        "**Link**: https://github.com/sgl-project/sglang/issues/80001",
        "**State**: open",
        "**Created**: 2025-07-20T08:00:00+00:00",
        "",
        "### Description",
        "",
        "## 1P + 2D, draft_token_num=3",
        "### Command for decode",
        "```",
        _DECODE,
        "```",
        "### Benchmark for decode",
        "```",
        "# slow down the decode nodes first",
        _BENCH,
        "```",
        "Note that MTP does not support overlap scheduling yet; we're working on it.",
    ],
    "index header, tagged how-to title": [
        "sgl-project/sglang · issue #80002 · open · Python",
        "# [Guide] How to deploy DeepSeek-V3 with EAGLE on two nodes",
        "",
        "alice · description · 2025-08-02",
        "## Node 0",
        "```bash",
        _DECODE + " --nnodes 2 --node-rank 0",
        "```",
        "## Node 1",
        "```bash",
        _DECODE + " --nnodes 2 --node-rank 1",
        "```",
    ],
    "web copy, recipe title": [
        "Recipe for serving GLM-4.5 with NEXTN on 8x H200 #80003",
        "Open",
        "bob opened this issue on Aug 5, 2025",
        "### Launch",
        "python3 -m sglang.launch_server --model-path zai-org/GLM-4.5 --tp 8 --speculative-algorithm NEXTN \\",
        "  --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4",
        "### Benchmark",
        "python3 -m sglang.bench_serving --backend sglang --num-prompts 200",
    ],
    "Chinese deployment guide": [
        "# DeepSeek-R1 MTP 部署指南",
        "",
        "## 启动命令（decode 节点）",
        "```",
        _DECODE,
        "```",
        "## 压测命令",
        "```",
        _BENCH,
        "```",
    ],
}


@pytest.mark.parametrize("name", GUIDES)
def test_guide_of_commands_shows_no_run(tmp_path: Path, name: str) -> None:
    """A guide's launch and benchmark commands, with nothing a process printed: no path."""
    assert_no_path(tmp_path, GUIDES[name])


GUIDES_RUN = {
    "the guide's command crashed for the writer": [
        *GUIDES["index header, tagged how-to title"][:8],
        "With this command the decode node crashes for us:",
        "Traceback (most recent call last):",
        '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2100, in event_loop_normal',
        "    result = self.run_batch(batch)",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
    ],
    "the guide's benchmark printed its figures": [
        *GUIDES["web copy, recipe title"],
        "Output throughput: 2412.5 tok/s, accept length 3.1",
    ],
}


@pytest.mark.parametrize("name", GUIDES_RUN)
def test_guide_with_output_still_shows_its_run(tmp_path: Path, name: str) -> None:
    """A guide whose command crashed or printed its figures shows a run: its class stays."""
    path = _verdict(tmp_path, GUIDES_RUN[name])
    assert path.worker_class is not None or path.conditional, path


# --- an issue digest's entry: its heading, its link field and its created day ------------------

DIGESTS = {
    "2025 entry, MTP profiled, title reports poor performance": (
        [
            "## Issue #N/A: DeepSeek-V3 MTP poor acceptance on H20",
            "",
            "**Link**: https://github.com/sgl-project/sglang/issues/80010",
            "**State**: closed",
            "**Created**: 2025-02-20T10:11:12+00:00",
            "**Comments**: 4",
            "",
            "### Description",
            "",
            "decoding with mtp profile (commit 1234abcd): verify takes 300 ms per step.",
        ],
        "v1", "EAGLEWorker",
    ),
    "2025 entry, EAGLE3 crash told in the title": (
        [
            "## Issue #N/A: [Bug] EAGLE3 crashes with cuda graph on H100",
            "**Link**: https://github.com/sgl-project/sglang/issues/80011",
            "**State**: open",
            "**Created**: 2025-06-02T01:02:03Z",
            "### Description",
            "The server dies on the first batch after enabling EAGLE3.",
        ],
        "v1", "EAGLEWorker",
    ),
    "notes bullets, created at with UTC": (
        [
            "- **Issue**: https://github.com/sgl-project/sglang/issues/80012",
            "- **Created at**: 2025-04-01 10:00 UTC",
            "- **Title**: NEXTN crash after warmup",
            "",
            "Running NEXTN on DeepSeek-R1 the scheduler crashes after warmup.",
        ],
        "v1", "EAGLEWorker",
    ),
    "2026 entry, DFLASH: the era's two classes": (
        [
            "## Issue #N/A: [Bug] DFLASH crash with FP8 KV cache",
            "**Link**: https://github.com/sgl-project/sglang/issues/80013",
            "**State**: open",
            "**Created**: 2026-08-01T00:00:00+00:00",
            "### Description",
            "DFLASH speculative decoding crashes on the first request with --kv-cache-dtype fp8_e4m3.",
        ],
        "unknown", "DFlashWorker|DFlashWorkerV2",
    ),
}


@pytest.mark.parametrize("name", DIGESTS)
def test_digest_entry_day_and_tracker(tmp_path: Path, name: str) -> None:
    """The digest's link names the tracker and its created field the day: the era's class."""
    lines, value, classes = DIGESTS[name]
    assert_verdict(_verdict(tmp_path, lines), value, classes)


def test_created_field_reads_only_a_field() -> None:
    """A created field with its time, alone or bold among joined fields; not a sentence, not JSON."""
    from datetime import date

    from spectrace.assemblers.post_dates import post_date

    assert post_date("**Created**: 2025-03-13T03:44:18+00:00") == date(2025, 3, 13)
    assert post_date("**State**: closed **Created**: 2025-03-13T03:44:18+00:00") == date(2025, 3, 13)
    assert post_date("- Created at: 2025-04-01 10:00 UTC") == date(2025, 4, 1)
    assert post_date("- **创建时间**：2025-04-25T17:51:34Z") == date(2025, 4, 25)
    for text in ("The checkpoint was created: 2023-01-01T00:00:00Z by the trainer",
                 '"created_at": "2023-01-01T00:00:00Z",', "**Created**: 2025-03-13", "Created: last week"):
        assert post_date(text) is None, text


# --- a pull request proposing a worker of its own: its tables ran the new code ---------------

NEW_WORKERS = {
    "index header, benchmark table": [
        "sgl-project/sglang · pull request #80020 · open · Python",
        "# feat: tree-structured MTP drafting for GLM",
        "",
        "carol · description · 2025-10-02",
        "This PR introduces a new TreeMTP worker that drafts a token tree from the MTP layers.",
        "",
        "| dataset | MTP | TreeMTP |",
        "|---|---|---|",
        "| MT-Bench accept len | 2.9 | 3.4 |",
    ],
    "web copy, first version of a worker": [
        "Add lookahead MTP drafting #80021",
        "Open",
        "dave wants to merge 3 commits into main from dave:lookahead-mtp",
        "dave commented on Sep 3, 2025",
        "Introduce the first version of the Lookahead-MTP worker for NEXTN checkpoints.",
        "",
        "Evaluated on our 2-layer MTP model:",
        "- ~12% throughput improvement compared to NEXTN",
        "- accept length 3.0 vs 2.6",
    ],
    "citation form, EAGLE comparison": [
        "# ChainEagle: chained EAGLE heads",
        "sgl-project/sglang pull request #80022 · open",
        "gina · description · 2025-09-15",
        "We introduce a new speculative worker (ChainEagle) that chains EAGLE heads.",
        "",
        "| Model | EAGLE | ChainEagle |",
        "|---|---|---|",
        "| Llama-3.1-8B speedup | 1.9x | 2.3x |",
    ],
    "Chinese description": [
        "sgl-project/sglang · pull request #80023 · open · Python",
        "# [Feature] 多层 MTP 投机解码",
        "",
        "erin · description · 2025-11-20",
        "本 PR 新增多层 MTP worker。",
        "",
        "| 数据集 | MTP | 多层 MTP |",
        "|---|---|---|",
        "| ShareGPT accept len | 2.8 | 3.3 |",
    ],
}


@pytest.mark.parametrize("name", NEW_WORKERS)
def test_pull_request_introducing_a_worker_shows_no_class(tmp_path: Path, name: str) -> None:
    """The figures of a PR that introduces its own worker are that new code's: no release's class."""
    assert_no_path(tmp_path, NEW_WORKERS[name])


def test_fix_in_an_existing_worker_keeps_its_run(tmp_path: Path) -> None:
    """A fix PR touching an existing worker, its branch's figures told: the era's class as before."""
    lines = [
        "sgl-project/sglang · pull request #80024 · merged · Python",
        "# [Fix] EAGLE hangs with topk > 1",
        "",
        "frank · description · 2025-06-10",
        "This adds a check in the EAGLE worker before the draft extend.",
        "With the fix, EAGLE on Llama-3.1-8B runs again: accept length 3.1, 1.8x speedup.",
    ]
    assert_verdict(_verdict(tmp_path, lines), "v1", "EAGLEWorker")


# --- an issue dump in its own language: a bulleted, bold, labelled link and created field ------

DUMPS = {
    "Chinese dump": [
        "# Issue #80030: [Bug] EAGLE3 crash on the first request",
        "",
        "## 基本信息",
        "",
        "- **编号**: #80030",
        "- **状态**: closed",
        "- **链接**: https://github.com/sgl-project/sglang/issues/80030",
        "- **创建时间**: 2025-03-20T10:00:00Z",
        "",
        "## 问题描述",
        "",
        "EAGLE3 speculative decoding crashes on the first request after warmup.",
    ],
    "Japanese dump, full-width colons": [
        "# Issue #80031: [Bug] NEXTN decode crash",
        "- **リンク**：https://github.com/sgl-project/sglang/issues/80031",
        "- **作成日時**：2025-05-02T01:00:00Z",
        "",
        "NEXTN speculative decoding crashes in decode with DeepSeek-V3.",
    ],
}


@pytest.mark.parametrize("name", DUMPS)
def test_dump_in_its_own_language_names_tracker_and_day(tmp_path: Path, name: str) -> None:
    """The dump's link names SGLang's tracker and its created field the day (v1-only era)."""
    assert_verdict(_verdict(tmp_path, DUMPS[name]), "v1", "EAGLEWorker")


# --- an issue body flattened onto its heading's line: the heading's own words set it apart -------

_SG_LAUNCH = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm "
              "EAGLE --speculative-draft-model-path lmsys/sglang-EAGLE-LLaMA3-Instruct-8B")  # fmt: skip

FLATTENED_BODIES = {
    "vLLM proposal body, a closing word about suggestions": (
        [
            "### Proposal to improve performance I want to speed up Qwen3-32B on two L40S cards. So I tried"
            " speculative decoding with a small draft, running: ``` python -m vllm.entrypoints.openai.api_server"
            " --model /models/Qwen3-32B -tp 2 --speculative_config '{\"model\": \"/models/Qwen3-0.6B\","
            " \"num_speculative_tokens\": 3}' ``` It is slower than without it. Any other suggestions are welcome.",
        ],
        "unknown", "MultiStepWorker|DraftModelProposer",
    ),
    "SGLang motivation body, suggestions asked at its end": (
        [
            "### Motivation I want faster decoding for Llama-3.1-8B, so I serve it with EAGLE on sglang 0.4.6: ``` "
            + _SG_LAUNCH + " ``` The speed-up is only 1.1x. I would appreciate any suggestions.",
        ],
        "v1", "EAGLEWorker",
    ),
    "two headings, the second over the environment": (
        [
            "### Describe the bug EAGLE dies on warmup; suggestions welcome. ### Reproduction ``` "
            + _SG_LAUNCH + " ``` ### Environment H100, CUDA 12.4",
        ],
        "unknown", "EAGLEWorker|EAGLEWorkerV2",
    ),
}


@pytest.mark.parametrize("name", FLATTENED_BODIES)
def test_flattened_body_is_read_past_its_heading(tmp_path: Path, name: str) -> None:
    """A suggestion word in a flattened body's sentences does not set its run's launch apart."""
    lines, value, classes = FLATTENED_BODIES[name]
    assert_verdict(_verdict(tmp_path, lines), value, classes)


def test_flattened_suggestion_heading_stays_apart(tmp_path: Path) -> None:
    """A flattened line whose heading is a suggestion ("### Suggested fix ```...```") is still
    no run's: its NGRAM launch names nothing, here or after another heading."""
    ngram = "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --speculative-algorithm NGRAM"
    for line in (f"### Suggested fix ``` {ngram} ```",
                 f"### Describe the bug the server hangs. ### Suggested workaround ``` {ngram} ```"):  # fmt: skip
        path = _verdict(tmp_path, [line])
        assert "NGRAM" not in str(path.worker_class) and "NGRAM" not in (path.conditional or ""), path
