"""Session 34 (FIXF): runs shown by the writer's own measured gain, by an engine's own records
quoted in a pull request's repro, and texts whose shell commands are no other engine's.

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees: the worker path's class (or condition) and the line that proves it, or no path at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, probed_path
from spectrace.assemblers.launch_words import foreign_entry
from spectrace.assemblers.not_run import FOREIGN
from spectrace.assemblers.thread_title import guard as guard_title


def _pull(repo: str, number: int, title: str, day: str, body: list[str]) -> list[str]:
    """A pull request's description as the issue store saves it: header, title, author line."""
    return [f"{repo} · pull request #{number} · open · Python", f"# {title}", "",
            f"kmori · description · {day}", "", *body]  # fmt: skip


_DSPARK_BODY = ["## Summary", "",
                "The verify budget planner reads a flat cost table unless one is passed on the command",
                "line, so it verifies every drafted token. This change fills the table from the timings",
                "the graph runner already keeps, behind an opt-in environment switch.", ""]  # fmt: skip
_DSPARK_TITLE = "[Spec] Retune the DSpark verify budget from captured graphs"

# --- a pull request's own measured gain on named hardware binds it to its run -------------------


@pytest.mark.parametrize("measured", [
    ["- **Perf** (B200, ragged verify): Llama-3.1-8B tp2 **+9.1%** at concurrency 32, flat at 1"],
    ["| model | rig | clients | delta |", "|---|---|---|---|",
     "| Qwen3-8B | 8xH100 | c=16 | +12.7% |", "| Qwen3-8B | 8xH100 | c=64 | +4.2% |"],
    ["On 2x A100 at batch size 64 this lifts decode throughput by 11%."],
    ["性能（H20，并发 32）：吞吐提升 12.6%，TPOT 降低 9%"],
    ["H100・同時実行数 16 でスループットが 13% 向上しました。"],
], ids=["bold-bullet", "table-rows", "prose-by", "chinese", "japanese"])
def test_a_pull_requests_own_measured_gain_shows_its_run(tmp_path: Path, measured: list[str]) -> None:
    lines = _pull("sgl-project/sglang", 5121, _DSPARK_TITLE, "2026-09-02", [*_DSPARK_BODY, *measured])
    path = probed_path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("v2", "DSparkWorkerV2"), path
    assert any(e.lineno == 2 and "DSpark" in e.text for e in path.evidence), path.evidence


def test_a_vllm_pull_requests_gain_on_a_named_gpu_shows_its_run(tmp_path: Path) -> None:
    lines = _pull("vllm-project/vllm", 61234, "[Spec Decode] Keep the n-gram lookup index on the GPU", "2026-09-05",
                  ["## Purpose", "", "The prompt-lookup proposer rebuilt its index on the host every step.",
                   "This keeps it on the device.", "", "## Numbers", "",
                   "Goodput is 8% higher at qps=4 on one MI300X than on main."])  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert path.worker_class == "NgramProposer", path


def test_without_the_measured_line_the_same_pull_request_shows_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, _pull("sgl-project/sglang", 5121, _DSPARK_TITLE, "2026-09-02", _DSPARK_BODY))


@pytest.mark.parametrize("said", [
    "- **Perf**: we expect +10% at concurrency 16 on H200; numbers to follow",
    "The DSpark paper reports +14% at concurrency 8 on H100 for this kernel; no numbers of ours yet.",
    "- Goal: +15% throughput at concurrency 32 on H200 once the table is filled",
    "If the table is filled, throughput can improve by 20% at batch 8 on B200.",
    "目标：H20 并发 32 下吞吐提升 15%",
], ids=["expected", "paper", "goal", "if-can", "chinese-target"])
def test_a_gain_expected_planned_or_another_sources_shows_no_run(tmp_path: Path, said: str) -> None:
    assert_no_path(tmp_path, _pull("sgl-project/sglang", 5125, _DSPARK_TITLE, "2026-09-06", [*_DSPARK_BODY, said]))


def test_a_docs_pages_performance_claim_shows_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, [
        "# DSpark speculative decoding", "",
        "SGLang's DSpark drafts a block of tokens and verifies them in one pass of the target model.", "",
        "## Performance", "",
        "On H100, DSpark gives +20% output throughput at concurrency 16 over plain decoding."])  # fmt: skip


# --- an engine's pool-check report quoted in a pull request's motivation or a note's repro -------

_CHECK = ["pool memory leak detected!",
          "[full] total=90112, available=90040, evictable=64, protected=0",
          "[swa]  total=45056, available=44990, evictable=32, protected=0"]  # fmt: skip


def test_a_pull_request_quoting_the_pool_check_shows_its_repro_run(tmp_path: Path) -> None:
    lines = _pull("sgl-project/sglang", 5201, "Keep SWA slots on the tree under NEXTN", "2026-08-20",
                  ["## Motivation", "",
                   "Since out-of-window freeing became the default, a hybrid sliding-window model served",
                   "with NEXTN trips the scheduler's pool check and every rank exits:", "",
                   "```", *_CHECK, "```", "",
                   "The fix keeps the slots on the tree until the draft's key units match.", "",
                   "## Repro", "", "4xH100, a hybrid SWA checkpoint, `--page-size 32`, NEXTN with 3 steps"])  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("v2", "EAGLEWorkerV2"), path
    assert any("NEXTN" in e.text for e in path.evidence), path.evidence


def test_the_older_one_line_pool_check_in_a_pull_request_shows_its_run(tmp_path: Path) -> None:
    lines = _pull("sgl-project/sglang", 5240, "Return draft slots on retract with EAGLE3", "2026-09-01",
                  ["## Motivation", "",
                   "When a request is retracted while its EAGLE3 draft holds extra slots, those slots are",
                   "never returned. After a retract storm the idle check stops the server:", "",
                   "    token_to_kv_pool_allocator memory leak detected! available_size=8120, protected_size=0, "
                   "self.max_total_num_tokens=8192", "",
                   "## Modifications", "", "Free the draft's slots in the retract path too."])  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("v2", "EAGLEWorkerV2"), path


def test_a_notes_reproduction_rig_and_pool_lines_show_the_run(tmp_path: Path) -> None:
    path = probed_path(tmp_path, [
        "# Notes: slot leak under drafting", "", "## Reproduction", "",
        "2x H200, hybrid SWA target, EAGLE3 draft, sglang 0.5.16", "",
        "The run stops within minutes; its last lines:", "", *_CHECK[1:]])  # fmt: skip
    assert (path.value, path.worker_class) == ("v2", "EAGLEWorkerV2"), path
    assert any(e.lineno == 5 for e in path.evidence), path.evidence


def test_a_how_to_showing_the_pool_checks_output_shows_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, [
        "# Debugging pool leaks in the scheduler", "",
        "SGLang's scheduler checks its pools when it goes idle. With EAGLE3, DFlash or DSpark drafting,",
        "the draft's slots are counted in the same pools.", "", "## What the check prints", "",
        "Example output:", "", "```", "pool memory leak detected!",
        "[full] total=<N>, available=<N>, evictable=<N>, protected=<N>", "```", "",
        "If you see it, collect the server log and open an issue with your launch command."])  # fmt: skip


def test_a_fix_pull_request_reasoning_about_the_leak_without_a_record_shows_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, _pull("sgl-project/sglang", 5230, "Skip out-of-window slot freeing for the EAGLE family",
                                   "2026-08-22", [
        "## Motivation", "",
        "The new-leaf split mixes raw-token lengths with bigram key units under EAGLE, so the split",
        "position can go negative and the leaf keeps slots already returned to the allocator.", "",
        "This turns the new default off for EAGLE until the units agree; DSpark and DFlash keep it."]))  # fmt: skip


# --- a sentence's "the serve ..." and a runbook's shell tools are no other engine's command -------

@pytest.mark.parametrize("text", [
    "   the serve health check runs `docker exec <c> kill -0 <pid>`, which needs a kill binary;",
    "its serve log stops after the health probe `curl -sf localhost:30000/health` passed twice;",
    "`make serve` starts the container, and its log holds only the lines below;",
    "each serve process is started by `systemctl start llm.service`;",
], ids=["the-serve", "its-serve", "make-serve", "each-serve"])
def test_words_before_serve_that_start_no_engine_are_no_foreign_command(text: str) -> None:
    assert not foreign_entry(text), text


@pytest.mark.parametrize("text", ["`tokenspeed serve org/target-8b --speculative-algorithm EAGLE3`",
                                  "ft serve org/target-8b --speculative-num-steps 3"])
def test_another_engines_serve_stays_foreign(text: str) -> None:
    assert foreign_entry(text), text


def _fix_notes(note: list[str]) -> list[str]:
    return _pull("sgl-project/sglang", 5302, "[Bugfix] Fix the EAGLE3 scheduler crash on the first request",
                 "2026-08-11", ["What I had to work around before it even started:", "", *note,
                                "2. the draft checkpoint path had to be absolute.", "",
                                "Then the first request kills the scheduler."])  # fmt: skip


@pytest.mark.parametrize("note", [
    ["1. **health check false negative** on the slim image:",
     "   the serve health check runs `docker exec <c> kill -0 <pid>`, which needs a kill binary;"],
    ["1. `make serve` starts the container, and its log holds only the lines below;"],
    ["1. **empty logs**: the launcher hides the container's own errors, so",
     "   its serve log stops after the health probe `curl -sf localhost:30000/health` passed twice;"],
], ids=["docker-kill", "make-serve", "curl-probe"])
def test_a_fix_list_with_shell_commands_is_not_said_to_run_another_engine(tmp_path: Path, note: list[str]) -> None:
    path = probed_path(tmp_path, _fix_notes(note))
    assert not any(FOREIGN in said for said in path.missing), path.missing


def test_another_engines_launch_still_sets_the_text_apart(tmp_path: Path) -> None:
    lines = ["# Trying EAGLE3 on TokenSpeed", "",
             "`tokenspeed serve org/target-8b --speculative-algorithm EAGLE3 --speculative-num-steps 3`", "",
             "It dies at the first request with `RuntimeError: CUDA error: an illegal memory access`."]  # fmt: skip
    assert_no_path(tmp_path, lines)
    assert any(FOREIGN in said for said in probed_path(tmp_path, lines).missing)


# --- a title disabling a kernel or feature of the run names the method it ran with --------------

def _web_issue(title: str, repo: str, number: int, day: str, body: list[str]) -> list[str]:
    """An issue as a web copy saves it: title with its number, URL, state, opening line."""
    return [f"{title} #{number}", f"https://github.com/{repo}/issues/{number}", "Open", f"opened on {day}", "",
            *body]  # fmt: skip


def test_a_2024_vllm_title_disabling_a_kernel_with_a_draft_model_names_v0s_draft_worker(tmp_path: Path) -> None:
    lines = _web_issue("[Bug]: Disabling Marlin via --quantization gptq fails for the draft model",
                       "vllm-project/vllm", 9120, "Oct 2, 2024",
                       ["### 🐛 Describe the bug", "",
                        "The target honours `--quantization gptq` but the draft model still loads with the marlin kernel.",
                        "", "```",
                        "INFO 10-02 09:12:40 gptq_marlin.py:112] Detected that the model can run with gptq_marlin, "
                        "but quantization=gptq was given, so forcing gptq.",
                        "```"])  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("other", "MultiStepWorker"), path
    assert any(e.lineno == 1 for e in path.evidence), path.evidence


def test_a_title_disabling_cuda_graphs_with_mtp_keeps_mtp(tmp_path: Path) -> None:
    lines = _web_issue("[Bug]: Disabling CUDA graphs with MTP crashes the engine core", "vllm-project/vllm", 61877,
                       "Sep 8, 2026", ["### 🐛 Describe the bug", "",
                                       "With `--enforce-eager` the first request brings the engine core down."])  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert path.value == "unknown" and path.conditional, path
    assert "EagleProposer" in path.conditional and "MTPSpeculator" in path.conditional, path.conditional


def test_a_title_turning_off_the_radix_cache_with_eagle3_keeps_eagle3(tmp_path: Path) -> None:
    lines = _web_issue("[Bug] Turning off the radix cache with EAGLE3 hangs the scheduler", "sgl-project/sglang", 5333,
                       "Sep 9, 2026",
                       ["With `--disable-radix-cache` the scheduler stops answering after a few requests."])  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert path.conditional and "EAGLEWorkerV2" in path.conditional, path


@pytest.mark.parametrize("title", ["[Bug]: Crash at start-up with speculative decoding disabled",
                                   "[Bug]: Crash at start-up after disabling the draft model for a test",
                                   "[Bug]: Crash at start-up after disabling MTP"])
def test_a_title_disabling_the_method_itself_still_sets_it_apart(tmp_path: Path, title: str) -> None:
    assert guard_title(title) is not None, title
    assert_no_path(tmp_path, _web_issue(title, "vllm-project/vllm", 9122, "Oct 3, 2024",
                                        ["### 🐛 Describe the bug", "", "The engine crashes at start-up."]))
