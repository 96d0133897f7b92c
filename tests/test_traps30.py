"""Pages that show no run get no path, whatever their words (``run_bound``): a docs page in a
vendor's voice ("Our implementation"), a blog post whose writer tells what they wrote, release
notes announcing fixed crashes, an FAQ asking why a server runs out of memory. A page is known by
its form (headings) as well as by its address, and a crash appended to it whose frames name no
engine file (a script's own, a probe) does not make it a run. A run pasted inside a page keeps its
path: an engine frame, the writer telling their own launch, a failure told as met, a log record.
Our own texts, a probe traceback appended as measure.py does.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import PROBE, assert_no_path, crash_path, roots, run

SGL_LAUNCH = ("python3 -m sglang.launch_server --model-path acme/Orbit-8B --speculative-algorithm EAGLE3 "
              "--speculative-draft-model-path acme/Orbit-8B-eagle3 --speculative-num-steps 3 "
              "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4")  # fmt: skip
VLLM_SERVE = ("vllm serve acme/Orbit-8B --port 8100 --speculative-config "
              "'{\"model\": \"acme/Orbit-8B-eagle3\", \"method\": \"eagle3\", \"num_speculative_tokens\": 3}'")
SGL_FRAMES = [
    "Traceback (most recent call last):",
    '  File "/opt/conda/lib/python3.11/site-packages/sglang/srt/managers/scheduler.py", line 2301, in run_scheduler_process',
    "    scheduler.event_loop_normal()",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]  # fmt: skip


def _has_path(tmp_path: Path, lines: list[str]) -> bool:
    path = crash_path(run(tmp_path, [*lines, "", *PROBE]))
    return path.worker_class is not None or path.conditional


# a docs page: a vendor's voice, algorithm prose and marketing figures tell no run
VENDOR_PAGE = [
    "# Speculative decoding with Orbit drafts", "",
    "Orbit ships an EAGLE-based speculative decoding option. Our implementation is tuned for small batches.",
    "Draft tokens are proposed by the head and then verified by the target model in one pass.",
    "Auto-regressive drafting gives up to 2.5x faster decoding on chat workloads.", "",
    "## Launching", "", SGL_LAUNCH, "",
    "## Parameters", "",
    "| Parameter | Meaning |", "| --- | --- |",
    "| `speculative_num_steps` | depth of the draft chain |",
    "| `speculative_eagle_topk` | branches per step |",
]  # fmt: skip


def test_a_docs_page_in_a_vendors_voice_is_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, VENDOR_PAGE, name="page.md")


def test_a_scripts_own_crash_below_a_docs_page_leaves_the_page_no_run(tmp_path: Path) -> None:
    crash = ["Traceback (most recent call last):", '  File "/home/dev/notes/check_page.py", line 12, in <module>',
             "    main()", "ValueError: page check stopped"]  # fmt: skip
    *_, probe = roots(run(tmp_path, [*VENDOR_PAGE, "", *crash, "", *PROBE], name="page.md"))
    path = probe.worker_path
    assert path is not None and path.worker_class is None and not path.conditional, path


def test_a_blog_post_whose_writer_tells_what_they_wrote_is_no_run(tmp_path: Path) -> None:
    lines = ["# Why block drafts need a sequential head", "",
             "A few weeks back I wrote about multi-token prediction and left one question open.",
             "Parallel drafters score every position at once, so acceptance sags toward the block's end.",
             "## Trying it at home", "", "The serving side needs one flag set:", VLLM_SERVE,
             "## What the paper claims", "", "The headline 4x figure holds only at strict latency targets."]  # fmt: skip
    assert_no_path(tmp_path, lines, name="post.md")


def test_release_notes_announcing_fixed_crashes_are_no_run(tmp_path: Path) -> None:
    lines = ["# Release notes", "", "## v2.4.0", "", "### Highlights", "",
             "- EAGLE-3 drafts now run on the overlap scheduler (`--speculative-algorithm EAGLE3`).",
             "- Fixed a crash in the draft CUDA graph when `--speculative-eagle-topk` is above 1.",
             "- Prevents hangs at shutdown with speculative decoding enabled.", "",
             "### Upgrade", "", SGL_LAUNCH]  # fmt: skip
    assert_no_path(tmp_path, lines, name="notes.md")


def test_an_faq_asking_why_a_server_runs_out_of_memory_is_no_run(tmp_path: Path) -> None:
    lines = ["# Orbit-8B deployment", "", "## Start the service", "", VLLM_SERVE, "",
             "## FAQ", "", "### Q3: How come start-up ends in an OOM on small cards?",
             "Common issues: if the service fails to start, lower the memory fraction and retry."]  # fmt: skip
    assert_no_path(tmp_path, lines, name="deploy.md")


# the other side: a run pasted inside a page keeps its path


def test_a_page_whose_writer_launches_and_pastes_an_engine_crash_keeps_the_run(tmp_path: Path) -> None:
    lines = [*VENDOR_PAGE[:9], "When I start it with the launch above, the scheduler dies:", "", *SGL_FRAMES]
    path = crash_path(run(tmp_path, lines, name="page.md"))
    assert path.worker_class is not None or path.conditional, path


def test_an_engine_crash_below_a_docs_page_keeps_the_run(tmp_path: Path) -> None:
    path = crash_path(run(tmp_path, [*VENDOR_PAGE, "", *SGL_FRAMES], name="page.md"))
    assert path.worker_class is not None or path.conditional, path


def test_an_exception_pasted_below_a_docs_page_keeps_its_run(tmp_path: Path) -> None:
    lines = [*VENDOR_PAGE, "", "RuntimeError: CUDA error: an illegal memory access was encountered"]
    first, *_ = roots(run(tmp_path, [*lines, "", *PROBE], name="page.md"))
    assert first.worker_path is not None and first.worker_path.conditional, first.worker_path


def test_steps_whose_failure_is_told_as_met_keep_the_run(tmp_path: Path) -> None:
    lines = ["Launch the server with EAGLE3:", SGL_LAUNCH,
             "The scheduler crashes with an illegal memory access once 40 requests run."]  # fmt: skip
    assert _has_path(tmp_path, lines)


def test_a_readme_whose_results_section_holds_a_run_log_keeps_the_run(tmp_path: Path) -> None:
    lines = [*VENDOR_PAGE, "", "## Results", "",
             "[2026-05-04 09:10:11] server_args=ServerArgs(model_path='acme/Orbit-8B', speculative_algorithm='EAGLE3', "
             "speculative_num_steps=3, speculative_eagle_topk=1, speculative_num_draft_tokens=4)",
             "[2026-05-04 09:10:52] The server is fired up and ready to roll!"]  # fmt: skip
    assert _has_path(tmp_path, lines)


# a page's own blockquotes (its notes) and its FAQ items are the page's, not a run's


def test_a_tutorial_with_a_quoted_limitation_note_is_no_run(tmp_path: Path) -> None:
    lines = ["# Orbit-Next", "", "## 1 Launch", "", SGL_LAUNCH, "",
             "## Tuning", "", "Sample reply: {\"content\": \"Here are my notes on EAGLE-3 drafting.\"}", "",
             "> - EAGLE-3 drafting does not support TP above 8 yet: the fused kernel currently "
             "fails for a head size of 256.", "> - Keep the draft on the same cards as the target."]  # fmt: skip
    assert_no_path(tmp_path, lines, name="tutorial.md")


def test_a_tutorial_whose_faq_item_names_an_error_is_no_run(tmp_path: Path) -> None:
    lines = ["# Orbit-8B on one card", "", "## Serve it", "", SGL_LAUNCH, "",
             "Sample reply: {\"content\": \"My answer, drafted with MTP.\"}", "", "## FAQ", "",
             "- **Q: What does ValueError: Tokenizer class OrbitTokenizer is not registered mean?**",
             "  A: Upgrade the tokenizer package to 3.1."]  # fmt: skip
    assert_no_path(tmp_path, lines, name="tutorial.md")


def test_a_quoted_docs_line_above_the_writers_crash_keeps_the_run(tmp_path: Path) -> None:
    lines = ["> To serve with an EAGLE-3 draft, pass the speculative config:", "",
             VLLM_SERVE, "", "The engine core died at the first request with an illegal memory access."]  # fmt: skip
    assert _has_path(tmp_path, lines)


# a README's adjectives, a troubleshooting section's symptoms and a table of options tell no run


def test_a_reproducible_smoke_test_readme_is_no_run(tmp_path: Path) -> None:
    lines = ["# orbit-specdec-smoke", "", "Reproducible smoke check for RL rollouts with EAGLE-3 drafting on SGLang.", "",
             "## Run it", "", SGL_LAUNCH, "", "Performance with the EAGLE-3 draft: 610tps, TPOT 48ms", "", "## Layout", "", "- `launch.sh`: the server start"]  # fmt: skip
    assert_no_path(tmp_path, lines, name="README.md")


def test_symptoms_under_a_troubleshooting_heading_are_no_run(tmp_path: Path) -> None:
    lines = ["# Orbit patches for vLLM", "", "## Install", "", VLLM_SERVE, "", "Performance with the MTP draft: 410tps, TPOT 21ms", "",
             "## Troubleshooting", "",
             "| Symptom | Cause | Fix |", "|---|---|---|",
             "| Start-up hangs while the EAGLE-3 draft loads | stale compile cache | clear the cache |",
             "| Engine core crashes on MTP warm-up | driver too old | upgrade the driver |"]  # fmt: skip
    assert_no_path(tmp_path, lines, name="INSTALL.md")


def test_a_table_of_options_is_no_run(tmp_path: Path) -> None:
    lines = ["# Orbit patches for vLLM", "", "## Install", "", VLLM_SERVE, "", "Performance with the MTP draft: 390tps, TPOT 23ms", "",
             "## Settings", "",
             "| Variable | Default | Effect |", "|---|---|---|",
             "| `ORBIT_SPEC_FLOOR` | `0.3` | below this MTP acceptance rate, speculation drops to zero drafts |",
             "| `ORBIT_FAST_SAMPLER` | `1` | quicker sampler (no slowdown in our config) |"]  # fmt: skip
    assert_no_path(tmp_path, lines, name="INSTALL.md")


def test_an_error_a_troubleshooting_heading_names_is_no_run(tmp_path: Path) -> None:
    lines = ["# Orbit patches for vLLM", "", "## Install", "", VLLM_SERVE, "",
             "Performance with the MTP draft: 380tps, TPOT 24ms", "", "## Troubleshooting", "",
             "### Start-up fails with `RuntimeError: draft hidden size 4096 does not match 2048`", "",
             "The draft checkpoint was converted for another target; convert it again."]  # fmt: skip
    for crash in roots(run(tmp_path, lines, name="INSTALL.md")):  # the named error is the text's crash
        path = crash.worker_path
        assert path is not None and path.worker_class is None and not path.conditional, path


def test_an_error_the_writer_names_after_their_launch_keeps_the_run(tmp_path: Path) -> None:
    lines = ["# Orbit patches for vLLM", "", "## What I did", "", VLLM_SERVE, "",
             "When I launch it this way it stops with `RuntimeError: draft hidden size 4096 does not match 2048`."]  # fmt: skip
    analysis = run(tmp_path, [*lines, "", *PROBE], name="notes.md")
    assert any(c.worker_path is not None and (c.worker_path.worker_class or c.worker_path.conditional)
               for c in roots(analysis))


# a test program's source: its asserts and raises are code, what it would check, no failure met

ACCEPTANCE_TEST = [
    "import pytest", "", "from vllm import LLM, SamplingParams", "",
    "GOLDEN = [0.91, 0.74, 0.55]", "", "",
    "@pytest.mark.parametrize(\"k\", [3])", "def test_orbit_draft_acceptance(k):",
    "    llm = LLM(model=\"acme/Orbit-8B\", speculative_config={\"method\": \"mtp\", \"num_speculative_tokens\": k})",
    "    outputs = llm.generate([\"hello\"], SamplingParams(max_tokens=32))",
    "    rates = [0.9, 0.7, 0.5]",
    "    if not outputs:", "        raise RuntimeError(\"no outputs from the MTP engine\")",
    "    assert all(abs(a - b) < 0.1 for a, b in zip(rates, GOLDEN)), f\"MTP acceptance {rates} mismatch\"",
]  # fmt: skip


def test_a_test_programs_source_is_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, ACCEPTANCE_TEST, name="test_orbit_mtp.py")


def test_a_test_programs_source_with_its_engine_crash_keeps_the_run(tmp_path: Path) -> None:
    crash = ["Traceback (most recent call last):",
             '  File "/srv/orbit/vllm/v1/engine/core.py", line 812, in run_engine_core',
             "    engine_core.run_busy_loop()",
             '  File "/srv/orbit/vllm/v1/spec_decode/eagle.py", line 377, in propose',
             "    hidden = self.model(input_ids)",
             "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip
    path = crash_path(run(tmp_path, [*ACCEPTANCE_TEST, "", *crash], name="test_orbit_mtp.log"))
    assert path.worker_class is not None or path.conditional, path


# the other side again: a check that quotes its output, a pull request's own results


def test_a_readme_whose_check_quotes_the_servers_output_keeps_the_run(tmp_path: Path) -> None:
    lines = [*VENDOR_PAGE, "", "Validated on one H100: the server log shows `Capture cuda graph end` for the EAGLE-3 draft."]
    assert _has_path(tmp_path, lines)


def test_a_pull_requests_results_section_keeps_the_run(tmp_path: Path) -> None:
    lines = ["[feat] Orbit draft norms by dev-q · Pull Request #4242 · sgl-project/sglang",
             "https://github.com/sgl-project/sglang/pull/4242", "", "Merged", "", "## Description", "",
             "Adds per-layer norms to Orbit EAGLE-3 drafts.", "", SGL_LAUNCH, "", "## Results", "",
             "| prompt | accept length before | accept length after |", "|---|---|---|",
             "| chat | 2.4 | 2.9 |"]  # fmt: skip
    assert _has_path(tmp_path, lines)


# a launch left for the reader to fill in, a catalog of methods: no run until someone runs it


def test_a_launch_with_a_placeholder_model_is_no_run(tmp_path: Path) -> None:
    lines = ["Serving with an MTP head:", "",
             "vllm serve <your-model> --speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 2}'"]  # fmt: skip
    assert_no_path(tmp_path, lines, name="notes.md")


def test_a_launch_with_placeholder_paths_is_no_run(tmp_path: Path) -> None:
    lines = ["Launch:", "", "python3 -m sglang.launch_server --port 30001 --model-path /path/to/orbit --speculative-num-steps 2 --speculative-algorithm EAGLE3 "
             "--speculative-eagle-topk 1 --speculative-draft-model-path=/path/to/orbit-draft "
             "--speculative-num-draft-tokens 3"]  # fmt: skip
    assert_no_path(tmp_path, lines, name="notes.md")


def test_a_catalog_of_methods_none_chosen_is_no_run(tmp_path: Path) -> None:
    lines = ["| Method | Flag | Draft needed |", "| --- | --- | --- |",
             "| EAGLE | `--speculative-algorithm EAGLE` | yes |", "| EAGLE-3 | `--speculative-algorithm EAGLE3` | yes |",
             "| MTP | `--speculative-algorithm NEXTN` | no |", "| n-gram | `--speculative-algorithm NGRAM` | no |"]  # fmt: skip
    assert_no_path(tmp_path, lines, name="methods.md")


def test_a_placeholder_launch_the_writer_ran_keeps_the_run(tmp_path: Path) -> None:
    lines = ["I ran this on two H100s:", "",
             "vllm serve $MODEL --speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 2}'", "",
             "and the engine core died with an illegal memory access at the first request."]  # fmt: skip
    assert _has_path(tmp_path, lines)


def test_a_placeholder_launch_above_its_servers_records_keeps_the_run(tmp_path: Path) -> None:
    lines = ["python3 -m sglang.launch_server --model-path $TARGET --speculative-algorithm EAGLE3 "
             "--speculative-draft-model-path $DRAFT --speculative-num-steps 2 --speculative-eagle-topk 1 "
             "--speculative-num-draft-tokens 3",
             "[2026-05-04 09:10:11] server_args=ServerArgs(model_path='/models/orbit', speculative_algorithm='EAGLE3', "
             "speculative_num_steps=2, speculative_eagle_topk=1, speculative_num_draft_tokens=3)",
             "[2026-05-04 09:10:52] The server is fired up and ready to roll!"]  # fmt: skip
    assert _has_path(tmp_path, lines)
