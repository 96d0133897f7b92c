"""Session 37 (FIXH): bug threads and result notes whose run the linker set aside.

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's class or condition, and the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, crash_path, probed_path, run, store_thread
from spectrace.worker_path import WorkerPath

# --- a result note (headings, tables) whose run shows only by the speculative counters it measured,
# written with Markdown around the figures ("Mean acceptance length **2.41**", "drafts `7`") or in
# vLLM's own order ("Accepted 512 / Drafted 940 tokens"): the note reports a run, it is no page of
# instructions ---


def _note(title: str, stats: list[str]) -> list[str]:
    return [f"# {title}", "", "## Setup", "", "| item | value |", "| --- | --- |", "| GPU | 1x L40S |",
            "| vLLM | 0.11.0 |", "", "## Launch", "", "```",
            "vllm serve org/target-8b --port 8100 \\",
            "  --speculative-config '{\"method\": \"eagle3\", \"model\": \"org/target-8b-eagle3\", "
            "\"num_speculative_tokens\": 3}'", "```", "", "## Numbers", "", *stats]  # fmt: skip


@pytest.mark.parametrize("lines", [
    # bold figures inside a table cell
    _note("EAGLE3 baseline on the staging box", [
        "| metric | value |", "| --- | --- |",
        "| speculation | Mean acceptance length **2.41**, draft acceptance **47.0%** |"]),
    # vLLM's counters label first, in a bullet
    _note("Draft check before the upgrade", [
        "- spec stats: Accepted 512 / Drafted 940 tokens over the smoke set"]),
    # the three per-request counters as code spans in a results table
    _note("Prefix cache with drafting", [
        "| request | TTFT | spec decode |", "|---|---:|---:|",
        "| cold | `1.21s` | drafts `6`, draft tokens `18`, accepted `11` |",
        "| warm | `0.30s` | drafts `5`, draft tokens `15`, accepted `9` |"]),
], ids=["bold-cell", "label-first-counters", "code-span-counters"])  # fmt: skip
def test_a_note_measuring_its_drafts_with_markup_shows_its_run(tmp_path: Path, lines: list[str]) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "other", "EagleProposer")
    assert any("eagle3" in e.text for e in path.evidence), path.evidence  # the launch proves the method


def test_a_chinese_note_with_short_flags_and_bold_counters_gives_the_runner_condition(tmp_path: Path) -> None:
    lines = ["# 升级前基线记录：vLLM 0.27.1", "", "## 启动参数", "", "```",
             "vllm serve --model /data/models/demo-14b --port 9000 \\", "  --spec-method mtp --spec-tokens 2",
             "```", "", "## 实测数据", "", "| 项目 | 数值 |", "| --- | --- |",
             "| 投机统计 | Mean acceptance length **1.87**，Accepted 205 / Drafted 390 tokens |"]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "unknown", "EagleProposer|MTPSpeculator")
    assert any("--spec-method mtp" in e.text for e in path.evidence), path.evidence


@pytest.mark.parametrize("lines", [
    # a tutorial showing what the reader should see, the figures bold
    ["# Serving with EAGLE3", "", "This guide shows how to serve a model with an EAGLE3 drafter.", "",
     "## Launch", "", "```", "vllm serve org/target-8b --speculative-config '{\"method\": \"eagle3\", "
     "\"model\": \"org/target-8b-eagle3\", \"num_speculative_tokens\": 3}'", "```", "",
     "## Check", "", "You should see a line like this in the server log:", "",
     "| speculation | Mean acceptance length **2.4**, Accepted 480 / Drafted 900 tokens |"],
    # a plan's table of counters to reach, each a target
    ["# Upgrade plan", "", "## Launch", "", "```", "vllm serve org/target-8b --speculative-config "
     "'{\"method\": \"eagle3\", \"num_speculative_tokens\": 3}'", "```", "", "## Targets", "",
     "| metric | goal |", "|---|---|", "| counters | expected: drafts `6`, draft tokens `18`, accepted `12` or better |"],
], ids=["tutorial-expected", "plan-targets"])  # fmt: skip
def test_counters_a_page_expects_or_targets_show_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


# --- a bug thread where the writer says the server works once the speculative setting is deleted or
# commented out ("after delete --speculative_config '{...}' ,it works", "once I commented out the
# EAGLE3 flags everything works now"), or that it does not work with the method: the failing run had
# the method on ---

_TRACE = ["Traceback (most recent call last):", '  File "/usr/lib/python3.12/site-packages/app/main.py", line 9, '
          "in <module>", "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip


@pytest.mark.parametrize(("lines", "value", "cls", "said"), [
    # vLLM: the JSON config deleted, broken English, a plea after it
    (store_thread("vllm-project/vllm", "issue", 7001, "[Bug]: illegal memory access on 0.11.0", "2025-10-20", [
        "vllm 0.11.0, 8x H100, the server dies after the first request:", "", *_TRACE, "",
        "after delete --speculative-config '{\"method\":\"ngram\",\"num_speculative_tokens\":4,"
        "\"prompt_lookup_max\":4}' ,it works .please check it"]),
     "other", "NgramProposer", "after delete --speculative-config"),
    # SGLang: the flags commented out in the launch script
    (store_thread("sgl-project/sglang", "issue", 9100, "[Bug] decode crash with sglang 0.4.6", "2025-05-12", [
        "Running sglang 0.4.6 on 2x A100, the scheduler dies:", "", *_TRACE, "",
        "Once I commented out `--speculative-algorithm EAGLE3` and the draft path in the script, "
        "everything works now."]),
     "v1", "EAGLEWorker", "commented out"),
    # the method taken out of the YAML config, the server said to run
    (store_thread("vllm-project/vllm", "issue", 7002, "[Bug]: crash during warmup", "2025-10-21", [
        "vLLM 0.11.0 in Kubernetes; the pod crashloops:", "", *_TRACE, "",
        "When we took out the speculative_config block (method: ngram) from the values file the server "
        "runs again."]),
     "other", "NgramProposer", "took out the speculative_config"),
], ids=["vllm-deleted-json", "sglang-commented-out", "vllm-taken-out"])  # fmt: skip
def test_a_bug_thread_working_after_removing_the_method_keeps_the_method(
    tmp_path: Path, lines: list[str], value: str, cls: str, said: str
) -> None:
    path = crash_of(tmp_path, lines)
    assert_verdict(path, value, cls)
    told = next(n for n, line in enumerate(lines, 1) if said in line)  # the evidence is the removal's line
    assert any(e.lineno == told for e in path.evidence), path.evidence


@pytest.mark.parametrize("said", [
    "关闭 ngram 投机之后不报错了，服务可以正常使用。",
    "把 ngram 的 speculative_config 删掉后服务正常，应该是投机解码的问题。",
    "ngram を無効にすると正常に起動します。",
], ids=["zh-turned-off", "zh-deleted", "ja-disabled"])  # fmt: skip
def test_a_cjk_bug_thread_working_after_turning_the_method_off_keeps_it(tmp_path: Path, said: str) -> None:
    lines = store_thread("vllm-project/vllm", "issue", 7010, "[Bug]: 启动后第一个请求崩溃", "2025-10-25", [
        "环境：vllm 0.11.0，4 张 H100。", "", *_TRACE, "", said])
    path = crash_of(tmp_path, lines)
    assert_verdict(path, "other", "NgramProposer")


def test_cjk_removal_told_as_a_condition_keeps_the_method_off(tmp_path: Path) -> None:
    lines = ["# 投机解码常见问题", "", "## 启动失败", "",
             "如果关闭 ngram 之后不报错，可以先不用投机解码。", "", "## 速度变慢", "", "调小 num_speculative_tokens。"]
    assert_no_path(tmp_path, lines)


def test_does_not_work_with_the_method_names_the_failing_runs_method(tmp_path: Path) -> None:
    lines = store_thread("vllm-project/vllm", "issue", 7003, "[Bug]: server exits on startup", "2025-10-22", [
        "vllm 0.11.0 is not working with ngram drafting on our GH200:", "", *_TRACE])
    path = crash_of(tmp_path, lines)
    assert_verdict(path, "other", "NgramProposer")


@pytest.mark.parametrize("lines", [
    # a troubleshooting page's advice
    ["# Troubleshooting speculative decoding", "", "## Server crashes at start", "",
     "If the server crashes at start, delete the --speculative-config '{\"method\":\"ngram\"}' "
     "option and it works.", "", "## Slow decode", "", "Lower num_speculative_tokens."],
    # a maintainer asking the reporter to try it, in a thread with no speculative setting shown
    store_thread("vllm-project/vllm", "issue", 7004, "[Bug]: crash after upgrade", "2025-10-23", [
        "The server exits after loading:", "", *_TRACE, "", "maintainer · comment · 2025-10-23",
        "Could you check whether it works after you delete the speculative config "
        "'{\"method\":\"ngram\"}' from your launch?"]),
], ids=["troubleshooting-page", "maintainer-asks"])  # fmt: skip
def test_removal_told_as_advice_or_question_shows_no_method(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


# --- "no spec-backend rejection", "no spec-side OOM": a hyphened compound after a bare "spec" says
# nothing of a plain run, so it cuts no family word off from the run ---


@pytest.mark.parametrize("said", [
    "- `attention_backend: FLASH_ATTN` taken by the image, no spec-backend rejection.",
    "- Memory stayed flat: no spec-side OOM across the sweep.",
    "- Logs are clean, no spec-worker errors in any job.",
], ids=["backend", "side", "worker"])  # fmt: skip
def test_a_spec_compound_after_no_is_no_plain_run(tmp_path: Path, said: str) -> None:
    lines = store_thread("vllm-project/vllm", "issue", 7005, "[Bug]: EAGLE3 draft crash on 0.11.0", "2025-10-24", [
        "We run vllm 0.11.0 with EAGLE3 drafting (three draft tokens) on 4x H100.", said, "", *_TRACE])
    path = crash_of(tmp_path, lines)
    assert path.worker_class == "EagleProposer" or "EagleProposer" in (path.conditional or ""), path


def test_no_spec_decoding_still_says_the_run_is_plain(tmp_path: Path) -> None:
    lines = store_thread("vllm-project/vllm", "issue", 7006, "[Bug]: crash on 0.11.0", "2025-10-24", [
        "Earlier we ran vllm 0.11.0 with EAGLE3 drafting on 4x H100.",
        "The crash below is from the same host with no spec decoding at all.", "", *_TRACE])
    path = crash_of(tmp_path, lines)
    assert path.worker_class is None and not path.conditional, path


def crash_of(tmp_path: Path, lines: list[str]) -> WorkerPath:
    return crash_path(run(tmp_path, lines))
