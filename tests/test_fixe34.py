"""Session 34 (FIXE): a whole command beside "it works without the speculative flags", a
method named in a title once a frame through SGLang's tree places the run, family words in
prose where the text names the engine.

Each test writes its own lines in the shape of the text class it covers."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import PROBE, assert_no_path, assert_verdict, crash_path, probed_path, roots, run

from spectrace.worker_path import WorkerPath

_SCHED_CRASH = [
    "```",
    "Traceback (most recent call last):",
    '  File "/opt/venv/lib/python3.11/site-packages/sglang/srt/managers/scheduler.py", line 2210, '
    "in run_scheduler_process",
    "    scheduler.event_loop_overlap()",
    "RuntimeError: CUDA error: device-side assert triggered",
    "```",
]


# --- a whole command shown beside "the same command minus the speculative flags works" ---------


def _dspark_report(said: str) -> list[str]:
    return [
        "fleetops/serving · issue #412 · open · Python",
        "# [Bug] DSpark drafts crash at concurrency 32 on the H20 pool",
        "",
        "fleetops · description · 2026-10-05",
        "## What happens",
        "",
        f"Turning on DSpark speculation for our 32B chat model makes the scheduler die once 32 requests are in flight. {said}",
        "",
        "## Environment",
        "",
        "- sglang: 0.5.17",
        "- 4x H20",
        "",
        "```bash",
        "python3 -m sglang.launch_server --model-path acme/chat-32b --tp-size 4 --mem-fraction-static 0.85",
        "```",
        "",
        *_SCHED_CRASH,
    ]  # fmt: skip


def test_a_whole_plain_command_the_writer_says_works_leaves_the_titles_method_standing(tmp_path: Path) -> None:
    said = "Dropping the speculative flags, the same server starts normally and serves the load."
    path = crash_path(run(tmp_path, _dspark_report(said)))
    assert_verdict(path, "v2", "DSparkWorkerV2")
    assert any(e.lineno == 2 for e in path.evidence), path.evidence  # the title's line


def test_without_that_sentence_the_whole_plain_command_still_names_no_worker(tmp_path: Path) -> None:
    path = crash_path(run(tmp_path, _dspark_report("We restart it by hand for now.")))
    assert path.worker_class is None and not path.conditional, path


def test_a_nextn_report_on_a_dev_build_whose_command_is_the_target_only_one(tmp_path: Path) -> None:
    lines = [
        "acme/glm-serving · issue #51 · open · Python",
        "# [Bug] NEXTN speculative decoding fails to load the MTP experts with TP 2",
        "",
        "riverbed · description · 2026-08-30",
        "## Summary",
        "",
        "Enabling NEXTN for our MoE checkpoint with `--tp-size 2` fails while the MTP layer's experts load. "
        "The target alone loads and serves correctly with the identical command minus the three `--speculative-*` flags.",
        "",
        "The draft's expert weights look unsharded while the loader hands it a sharded slice.",
        "",
        "## Environment",
        "",
        "- SGLang: `0.0.0.dev1+gabc1234`",
        "- 2x GB10",
        "",
        "## Reproduction",
        "",
        "```bash",
        "python3 -m sglang.launch_server \\",
        "  --model-path acme/glm-moe-fp4 \\",
        "  --tp-size 2 --trust-remote-code",
        "```",
    ]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "v2", "EAGLEWorkerV2")


def test_a_chinese_report_saying_the_server_is_fine_once_the_spec_flags_are_removed(tmp_path: Path) -> None:
    lines = [
        "[Bug] NEXTN 在双机 TP 下加载 MTP 层失败",
        "",
        "环境：sglang 0.5.18，2 台 GB10，每台 1 卡。",
        "",
        "python3 -m sglang.launch_server --model-path org/glm-next-flash --tp-size 2 --nnodes 2 "
        "--node-rank 0 --dist-init-addr 10.0.0.1:5000",
        "",
        "去掉 --speculative-* 参数后服务正常，加上 NEXTN 后加载 MTP 权重时报错：",
        "",
        "Traceback (most recent call last):",
        '  File "/sgl-workspace/sglang/python/sglang/srt/model_loader/loader.py", line 377, in load_weights',
        "    model.load_weights(weights)",
        "RuntimeError: The size of tensor a (2048) must match the size of tensor b (1024) at non-singleton dimension 0",
    ]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "v2", "EAGLEWorkerV2")


def test_a_vllm_report_whose_whole_serve_is_the_target_alone(tmp_path: Path) -> None:
    lines = [
        "vllm-users/triage · issue #77 · open · Python",
        "# [Bug]: EAGLE3 speculative decoding crashes during CUDA graph capture",
        "",
        "moss · description · 2026-03-10",
        "",
        "Serving our 8B model with EAGLE3 crashes while capturing graphs. The target alone serves "
        "correctly with the same command minus the `--speculative-config` flag.",
        "",
        "vLLM 0.11.0, 1x L40S.",
        "",
        "```",
        "vllm serve org/Tiny-8B --tensor-parallel-size 1 --max-model-len 8192",
        "```",
        "",
        "```",
        "Traceback (most recent call last):",
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_model_runner.py", line 3120, in capture_model',
        "    self._dummy_run(num_tokens)",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
        "```",
    ]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "EagleProposer")


def test_a_troubleshooting_page_with_the_same_sentence_gets_no_path(tmp_path: Path) -> None:
    lines = [
        "# Troubleshooting DSpark on SGLang",
        "",
        "This page helps you find why a DSpark launch fails.",
        "",
        "## Baseline launch",
        "",
        "```bash",
        "python3 -m sglang.launch_server --model-path acme/chat-32b --tp-size 4",
        "```",
        "",
        "Without the speculative flags the server starts normally, so first check that this baseline boots.",
        "",
        "## Next step",
        "",
        "Add the DSpark flags back one at a time and watch the scheduler log.",
    ]  # fmt: skip
    assert_no_path(tmp_path, lines)


def test_the_sentence_reader_wants_speculation_taken_away_and_a_server_that_works() -> None:
    from spectrace.assemblers.spec_prose import speculation_removal_works as works

    assert works("The target loads and serves correctly with the identical command minus the four `--speculative-*` flags.")
    assert works("Without --speculative-algorithm EAGLE3 the same command boots fine.")
    assert works("关闭 MTP 之后不报错。")
    assert works("--speculative-* を外すと正常に起動する。")
    assert not works("The server works fine without the patch.")  # nothing speculative taken away
    assert not works("If you remove the --speculative-* flags it works fine.")  # advice to the reader
    assert not works("Without MTP it still crashes.")  # the failure stays
    assert not works("如果去掉 MTP 后正常，说明是草稿模型的问题")  # a condition


# --- a method in the title, the engine known from a frame through SGLang's tree ----------------


def _web_issue(title: str, frame: str, day: str = "Oct 2, 2026") -> list[str]:
    return [
        f"{title} #14",
        "https://github.com/someone/dsv4-spark-recipes/issues/14",
        "Open",
        f"kilnworks opened on {day}",
        "",
        "We serve the recipe on four nodes and every request above the fourth stalls.",
        "",
        "```",
        f'File "{frame}", line 118, in gather',
        '    assert pages.shape[0] == bs, "engram pages per request mismatch"',
        "AssertionError: engram pages per request mismatch",
        "[2026-10-02 08:14:51] Received sigquit from a child process. It usually means the child failed.",
        "```",
    ]  # fmt: skip


def test_dspark_in_a_title_with_an_aside_decides_once_a_frame_places_sglang(tmp_path: Path) -> None:
    lines = _web_issue("DSpark verify window stalls with paged Engram (the dashboard isn't refreshed either)",
                       "/opt/sglang/python/sglang/srt/layers/paged_engram.py")  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert_verdict(path, "v2", "DSparkWorkerV2")
    assert path.evidence[0].lineno == 1, path.evidence


def test_the_same_title_over_a_frame_of_no_engine_names_no_worker(tmp_path: Path) -> None:
    lines = _web_issue("DSpark verify window stalls with paged Engram (the dashboard isn't refreshed either)",
                       "/opt/recipes/engram/paged_engram.py")  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class is None and not path.conditional, path


def test_a_dflash_title_over_an_installed_sglang_frame_gives_its_eras_condition(tmp_path: Path) -> None:
    lines = [
        "ops-team/inference-stack · issue #231 · open · Shell",
        "# DFlash verify returns garbage at batch 16 (our grafana panel isn't updated, unrelated)",
        "",
        "ops-team · description · 2026-10-20",
        "",
        "Batch 16, target Qwen-ish 30B, DFlash draft from the recipe, 2 GPUs.",
        "",
        "    Traceback (most recent call last):",
        '      File "/usr/local/lib/python3.12/dist-packages/sglang/srt/mem_cache/memory_pool.py", line 402, in set_kv',
        "        cache_k[loc] = k",
        "    RuntimeError: CUDA error: an illegal memory access was encountered",
    ]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "unknown", "DFlashWorkerV2|DFlashWorker")


def test_a_title_aside_naming_the_method_still_sets_it_apart() -> None:
    from spectrace.assemblers.thread_title import guard

    assert guard("DSpark verify stalls with Engram (the dashboard isn't refreshed either)") is None
    assert guard("Scheduler stalls with Engram (not with DSpark)") is not None


def test_a_design_note_naming_dspark_and_sglangs_tree_gets_no_path(tmp_path: Path) -> None:
    lines = [
        "# DSpark SPS tables (the profiler isn't wired into start.sh yet)",
        "",
        "## Goal",
        "",
        "Describe how the SPS cost table should be built before DSpark is turned on in the recipe.",
        "",
        "## Plan",
        "",
        "1. Profile the verify kernel per block size on one node.",
        "2. Write the table next to `boot.py`.",
        "3. Turn DSpark on in a later release once Engram supports ragged verify.",
        "",
        "## Notes",
        "",
        "The ragged-verify path lives in `sglang/srt/layers/engram.py`; today it asserts one equal block per request.",
    ]  # fmt: skip
    assert_no_path(tmp_path, lines)


# --- SGLang DFlash/DSpark runs told in prose: an acceptance figure, a family's member, a long line


def test_a_bare_measurement_paragraph_naming_sglang_and_dflash_gives_dflashs_condition(tmp_path: Path) -> None:
    lines = [
        "Numbers from our two-node box, container built from the repo's `scripts/make-dflash2-image.sh`, "
        "draft fixed to `acme/Coder-14B-DFlash2` at `a1b2c3d`.",
        "",
        "Background: SGLang has an open verify-path bug for DFlash on mixed-attention models "
        "(sgl-project/sglang#41234 tracks it), and under concurrent batches the target starts to answer "
        "nonsense while greedy. With 16 parallel copies of a short sorting prompt the FP4 target got 87 of "
        "256 answers wrong; the same setup with speculation off got 0 of 256 wrong, and one request at a "
        "time with DFlash got 0 of 80 wrong.",
        "",
        "With the BF16 head build instead, everything else unchanged: 2 of 256 wrong, speculation still on, "
        "mean accept 3.9/8. Latency went up by about a fifth.",
    ]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "unknown", "DFlashWorkerV2|DFlashWorker")
    assert path.framework == "sglang", path


def test_the_same_paragraph_with_a_figure_only_expected_shows_no_run(tmp_path: Path) -> None:
    lines = [
        "Background: SGLang has an open verify-path bug for DFlash on mixed-attention models "
        "(sgl-project/sglang#41234 tracks it), and under concurrent batches the target may answer "
        "nonsense while greedy. A fix should bring the wrong answers down to the plain server's level.",
        "",
        "Expected after the fix: mean accept around 3.9/8 with the BF16 head build.",
    ]  # fmt: skip
    assert_no_path(tmp_path, lines)


def _pool_pr(member: str, title: str = "# [Spec] Size the DFlash draft pool by the attention TP width") -> list[str]:
    return [
        "sgl-project/sglang · pull request #40111 · open · Python",
        title,
        "",
        "lumen-dev · description · 2026-10-03",
        "## Why",
        "",
        f"The draft KV pool of {member} is budgeted with the global tp_size,",
        "while each rank builds it with attn_tp_size, so under DP attention the budget comes out too small.",
        "",
        "Repro on the v0.5.19 image, 8 GPUs, a 120B target with its DSpark draft, "
        "`--tp-size 8 --dp-size 8 --enable-dp-attention`:",
        "",
        "- **before:** CUDA out of memory at boot with `--mem-fraction-static 0.8`",
        "- **after:** boots at 0.8 with the pool sized right, accept length 2.4 on our chat set,",
        "  outputs identical to the non-spec server",
    ]  # fmt: skip


def _pool_paths(tmp_path: Path, member: str) -> list[WorkerPath]:
    """The worker paths of the PR's crashes (its "CUDA out of memory" line and a probe)."""
    return [c.worker_path for c in roots(run(tmp_path, [*_pool_pr(member), "", *PROBE])) if c.worker_path]


def test_a_pr_running_the_member_of_the_family_its_title_names(tmp_path: Path) -> None:
    for member in ("DSpark (a DFlash-family drafter)", "the DFLASH-family (DSpark) drafters", "the DFlash family (DSpark)"):
        paths = _pool_paths(tmp_path, member)
        assert paths and all(p.worker_class == "DSparkWorkerV2" for p in paths), (member, paths)
        assert all(p.evidence[0].lineno == 7 for p in paths), (member, paths)


def test_two_families_named_apart_with_no_member_stay_two(tmp_path: Path) -> None:
    paths = _pool_paths(tmp_path, "DSpark, unlike DFlash,")
    assert all(p.worker_class is None for p in paths), paths


def test_a_design_note_writing_the_family_member_gets_no_path(tmp_path: Path) -> None:
    lines = [
        "# DSpark draft pool sizing (design)",
        "",
        "## Background",
        "",
        "The DFLASH-family (DSpark) drafters keep one KV pool per rank, sized from `tp_size` today.",
        "",
        "## Proposal",
        "",
        "Size the pool from the attention TP width instead; the non-spec server is untouched.",
        "",
        "## Plan",
        "",
        "1. Add a helper returning the attention width.",
        "2. Use it in the budget.",
        "3. Expected after the change: mean accept around 3/4 on the chat set.",
    ]  # fmt: skip
    assert_no_path(tmp_path, lines)


def test_a_long_survey_line_naming_dflash_past_the_cut_gets_no_path(tmp_path: Path) -> None:
    lines = [
        "A survey of drafting methods for people picking one for their stack. Medusa heads sit on top of "
        "the target and need fine-tuning, lookahead needs no draft at all but gains less on chat, and prompt "
        "lookup works only when outputs copy the input a lot, which is common for code edits and retrieval "
        "answers. Among the newer ones, SGLang ships DFlash as a block drafter and the DSpark variant of it, "
        "and the docs describe how each one is enabled; none of them is measured here.",
    ]  # fmt: skip
    assert_no_path(tmp_path, lines)


def test_outputs_compared_with_the_non_spec_server_are_no_plain_run() -> None:
    from spectrace.assemblers.quotes import plain_run
    from spectrace.dialects.base import LogLine

    def line(text: str) -> LogLine:
        return LogLine(source="x.md", lineno=1, offset=0, text=text, raw=text, dialect="plain", stream="")

    assert not plain_run(line("  outputs byte-identical to the non-spec server (greedy verify)"))
    assert not plain_run(line("the tokens match the non-speculative server's output"))
    assert plain_run(line("same crash on the non-spec server, so it is not the draft"))


# --- V0's speculative end-to-end harness failing under pytest ------------------------------------

_HARNESS = [
    "        spec_ids = run_generator(test_llm_generator, prompts, params)",
    "        base_ids = run_generator(baseline_llm_generator, prompts, params)",
    "        for i, (baseline_token_ids, spec_token_ids) in enumerate(zip(base_ids, spec_ids)):",
]


def test_pytests_failing_mark_on_the_v0_harness_check_in_a_ci_report(tmp_path: Path) -> None:
    lines = [
        "acme/vllm-fork · issue #12 · open · Python",
        "# [CI Failure]: typical-acceptance e2e job red on the nightly",
        "",
        "ci-bot · description · 2024-08-14",
        "```",
        *_HARNESS,
        ">           assert baseline_token_ids == spec_token_ids",
        "E           AssertionError: assert [311, 2204, ...] == [311, 2204, ...]",
        "E             At index 7 diff: 1180 != 42",
        "```",
    ]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "SpecDecodeWorker")


def test_the_harness_trimmed_comparison_under_a_pr_title(tmp_path: Path) -> None:
    lines = [
        "vllm-project/vllm · pull request #7001 · merged · Python",
        "# [Speculative Decoding] Typical acceptance for the MLP speculator",
        "",
        "[turn 3 by a-reviewer]",
        "```",
        *_HARNESS,
        ">               assert baseline_token_ids == spec_token_ids[:len(",
        "E               AssertionError: assert [9, 11, 13] == [9, 11, 14]",
        "```",
    ]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "SpecDecodeWorker")


def test_the_harness_source_in_a_review_is_no_run(tmp_path: Path) -> None:
    lines = [
        "vllm-project/vllm · pull request #7002 · open · Python",
        "# [Speculative Decoding] Tidy the e2e comparison helper",
        "",
        "[turn 1 by a-reviewer]",
        "```python",
        *_HARNESS,
        "            assert baseline_token_ids == spec_token_ids",
        "```",
        "Could this loop print the index of the first mismatch?",
    ]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert path.worker_class is None, path


def test_pytests_mark_is_no_quote_and_a_reply_quote_still_is() -> None:
    from spectrace.dialects.paste import quoted

    assert not quoted(">           assert baseline_token_ids == spec_token_ids")
    assert not quoted(">       assert out.shape == (2, 8)")
    assert quoted("> We run EAGLE3 on two nodes")
    assert quoted(">> nested reply")
