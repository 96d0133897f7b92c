"""SGLang runs told in words: multi-layer EAGLE stated on, spec v2 named for the run, families a
sentence names where a line-wide guard dropped them, an acceptance figure, a bug title's speed
words (``sglang_run_words``, ``path_era``, ``sglang_prose_flags.multi_layer_stated``).

Our own lines, in the shapes of session 14's sealed SGLang reports (round 35 31: a baseline on a
pinned image with "multi-layer EAGLE auto-enabled"; 34 25: a ``[SPEC_V2]`` fix PR with an eval
run; 35 17: "with and without NEXTN" under a [Bug] title with "faster"; 35 42: "passed here"
before "for EAGLE"; 36 06: "EAGLE accept length ≈ 2.0" on a pinned image), each written as
another member of its class: other wording, models, releases and days."""

from __future__ import annotations

from pathlib import Path

from spectrace.assemblers.sglang_prose_flags import multi_layer_stated
from spectrace.assemblers.sglang_run_words import loose_families, v2_named
from tests.real_logs_helpers import assert_verdict, crash_path, run

_THREAD = "sgl-project/sglang · {kind} #{n} · open · Python"
# a crash of the run (a frame in an installed package) that names no worker
_PROBE = [
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.12/dist-packages/torch/cuda/graphs.py", line 88, in replay',
    "    super().replay()",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]


def _thread(kind: str, title: str, day: str, *body: str, repo: str = _THREAD) -> list[str]:
    header = f"someone · description · {day}"
    return [repo.format(kind=kind, n=52000), f"# {title}", "", header, *body, "", *_PROBE]


# ---- multi-layer EAGLE stated on: the multi-layer workers, never EAGLEWorker(V2) ----


def test_multi_layer_auto_enabled_beside_an_eagle_launch_on_a_pinned_image(tmp_path: Path) -> None:
    """A comment's baseline on a pinned 0.5.12 image, the EAGLE flags in a sentence, and the
    writer's note that multi-layer EAGLE switched itself on (another model than 35 31's)."""
    lines = _thread(
        "issue", "[Bug] Step-3.5 accept length lower on 8xH100", "2026-06-02",
        "Setup: `lmsysorg/sglang:v0.5.12`, `--speculative-algorithm EAGLE --speculative-eagle-topk 1"
        " --speculative-num-steps 3` (multi-layer EAGLE was enabled automatically).",
    )
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class != "EAGLEWorkerV2" and path.worker_class != "EAGLEWorker", path
    assert "MultiLayerEagleWorker" in (path.worker_class or path.conditional or ""), path


def test_multi_layer_in_a_sentence_turns_the_era_condition_multi_layer(tmp_path: Path) -> None:
    """A report naming NEXTN with multi layer eagle on, a release with both workers and the
    switch unset: the condition names the multi-layer classes only."""
    lines = _thread(
        "issue", "[Bug] NEXTN crashes after warmup", "2026-03-03",
        "sglang 0.5.9, we run NEXTN with multi layer eagle turned on.",
    )
    path = crash_path(run(tmp_path, lines))
    shown = f"{path.worker_class} {path.conditional}"
    assert "MultiLayerEagleWorker" in shown and "EAGLEWorker" not in shown.replace("MultiLayerEagleWorker", ""), path


def test_multi_layer_words_read_only_when_stated_on() -> None:
    """Stated on in several spellings; not asked, planned, off, or a PR adding it."""
    assert multi_layer_stated("baseline (Multi-Layer EAGLE auto-enabled), bs 1-64")
    assert multi_layer_stated("the server runs with multi_layer_eagle enabled")
    assert multi_layer_stated("ServerArgs(..., enable_multi_layer_eagle=True, ...)")
    assert not multi_layer_stated("Should we turn on multi-layer EAGLE here?")
    assert not multi_layer_stated("multi-layer EAGLE is disabled for this run")
    assert not multi_layer_stated("This PR adds multi-layer EAGLE for MiMo")
    assert not multi_layer_stated("we will enable multi-layer EAGLE next week")


# ---- spec v2 named for the run: the family's V2 worker ----


def test_a_spec_v2_tagged_fix_pr_with_its_eval_run_is_the_v2_worker(tmp_path: Path) -> None:
    """A fix PR tagged for spec v2, NEXTN in the description and its own accuracy run (another
    wording than 34 25's): the overlap worker, whatever the day's release defaults."""
    lines = _thread(
        "pull request", "[Spec V2] Fix NEXTN hang with radix cache eviction", "2025-12-15",
        "## Motivation", "NEXTN requests hang once the radix cache starts evicting.",
        "## Accuracy", "Accept length: 2.91, throughput 1830 tok/s after the fix.",
    )
    assert_verdict(crash_path(run(tmp_path, lines)), "v2", "EAGLEWorkerV2")


def test_spec_v2_in_a_bug_report_decides_where_the_day_alone_gives_a_condition(tmp_path: Path) -> None:
    """An EAGLE3 report whose writer says the run is on spec-v2, dated when both workers
    existed: the words name the v2 worker."""
    lines = _thread(
        "issue", "[Bug] EAGLE3 outputs repeat after 2k tokens", "2026-02-10",
        "We run Llama-3.3-70B with an EAGLE3 draft on spec-v2 and the outputs loop.",
    )
    assert_verdict(crash_path(run(tmp_path, lines)), "v2", "EAGLEWorkerV2")


def test_v2_words() -> None:
    """A title tag, a run's sentence; not a plan or a suggestion."""
    assert v2_named("# [SPEC_V2][Bugfix] accept length drop", title=True)
    assert v2_named("E2E on 4xH200 with overlap spec, topk 1: accept length 3.0", title=False)
    assert v2_named("# [Bug] DeepSeek-V3.2 SpecV2 hangs at bs 64", title=True)
    assert not v2_named("# How to turn on spec v2?", title=True)
    assert v2_named("Crash with specv2. Does not happen with specv1.", title=False)
    assert not v2_named("We should move EAGLE to spec v2 next.", title=False)
    assert not v2_named("Does this happen on spec v2 too?", title=False)


# ---- families a sentence names for the run, where a line-wide guard dropped them ----


def test_with_and_without_a_family_names_it_for_the_run(tmp_path: Path) -> None:
    """"with and without EAGLE3" is two runs, one of them speculative (35 17's shape, another
    family and day): the era's worker by the day (before 0.5.4: v1 only)."""
    lines = _thread("issue", "[Bug] TTFT doubles under load", "2025-04-18", "The server log ends with:")
    lines += ["", "I benchmarked Qwen2.5-32B with and without EAGLE3 on one H100; TTFT doubles at c=16."]
    assert_verdict(crash_path(run(tmp_path, lines)), "v1", "EAGLEWorker")


def test_a_bug_title_speed_word_still_names_its_one_family(tmp_path: Path) -> None:
    """"[Bug] EAGLE decode got 3x slower": the title measures the run it names."""
    lines = _thread(
        "issue", "[Bug] EAGLE decode got 3x slower on MI300X", "2025-05-06",
        "Output tokens per second drop from 95 to 31 once speculative decoding is on.",
    )
    assert_verdict(crash_path(run(tmp_path, lines)), "v1", "EAGLEWorker")


def test_an_acceptance_figure_names_its_family_despite_fine(tmp_path: Path) -> None:
    """"Output is fine (NEXTN acceptance rate 0.7)": the figure exists only because the
    family ran (36 06's shape, with a version line of a release past the v1 worker)."""
    lines = _thread(
        "issue", "[Bug] kernel launch fails at concurrency 32", "2026-09-20",
        "sglang 0.5.17",
        "Low concurrency output is fine (NEXTN acceptance rate 0.71, coherent text).",
    )
    assert_verdict(crash_path(run(tmp_path, lines)), "v2", "EAGLEWorkerV2")


def test_an_argument_passed_here_is_no_passed_test(tmp_path: Path) -> None:
    """"the budget [passed here](link) is wrong for EAGLE" (35 42's shape): the verb hands an
    argument over, the family is the run's."""
    lines = _thread(
        "issue", "[Bug] cuda graph bs list ignores the draft", "2025-06-20",
        "The `max_bs` [passed here](https://github.com/sgl-project/sglang/blob/abc/python/sglang/"
        "srt/model_executor/cuda_graph_runner.py#L200) is right for the target, but for EAGLE it"
        " is too small.",
    )
    assert_verdict(crash_path(run(tmp_path, lines)), "v1", "EAGLEWorker")


def test_loose_families() -> None:
    """Each sentence on its own; one family at most; none from a question."""
    assert loose_families("We ran it with and without MTP, one request at a time.") == {"MTP"}
    assert loose_families("Output is fine (EAGLE3 accept length ≈ 3.1).") == {"EAGLE3"}
    assert loose_families("Does it happen with and without MTP?") == set()
    assert loose_families("with and without EAGLE3; NGRAM acceptance rate 0.4") == set()


# ---- the issue form's checked "latest version" box, spec v2 with no algorithm, a PR's own run ----

_FORM = ["### Checklist", "", "- [x] I searched related issues but found no solution.",
         "- [x] The bug persists in the latest version.", ""]  # fmt: skip


def test_the_checked_latest_version_box_bounds_the_release_from_below(tmp_path: Path) -> None:
    """An EAGLE3 bug posted in Oct 2026 whose form says the bug persists in the latest version:
    that release and every later one the day allows run only the v2 worker (35 17's class; the
    day alone gives the v1/v2 condition)."""
    lines = _thread("issue", "[Bug] EAGLE3 draft OOM on long prompts", "2026-10-02", *_FORM,
                    "Our Qwen3-32B server with EAGLE3 runs out of memory at 30k tokens.")
    assert_verdict(crash_path(run(tmp_path, lines)), "v2", "EAGLEWorkerV2")


def test_an_unchecked_latest_version_box_leaves_the_condition(tmp_path: Path) -> None:
    """The same report with the box unchecked: the day bounds the release from above only."""
    form = [line.replace("[x] The bug", "[ ] The bug") for line in _FORM]
    lines = _thread("issue", "[Bug] EAGLE3 draft OOM on long prompts", "2026-04-02", *form,
                    "Our Qwen3-32B server with EAGLE3 runs out of memory at 30k tokens.")
    assert_verdict(crash_path(run(tmp_path, lines)), "unknown", "EAGLEWorkerV2|EAGLEWorker")


def test_spec_v2_named_with_no_algorithm_is_the_eagle_condition(tmp_path: Path) -> None:
    """"SpecV2" in a [Bug] title and "crashes with specv2, not with specv1" in the body, no
    algorithm anywhere (28 22's class): the overlap worker of the EAGLE family, as a condition."""
    lines = _thread("issue", "[Bug] GLM-5 FP8 SpecV2 illegal memory access at bs 48", "2026-03-02",
                    "The server crashes with specv2. It does not happen with specv1.")
    path = crash_path(run(tmp_path, lines))
    assert path.value == "unknown" and "EAGLEWorkerV2" in (path.conditional or ""), path


def test_an_engine_prs_own_benchmark_is_its_branch_run(tmp_path: Path) -> None:
    """A PR adding a model's EAGLE3 support with its own speed table (32 14's class): the run
    is the PR's branch, SGLang's main of that day (Nov 2026: only the v2 worker)."""
    lines = _thread(
        "pull request", "feat: Add Ernie support for Eagle3", "2026-11-03",
        "## Speed Tests", "| EAGLE3 config | MTBench Acc_Len | MTBench tokens/s |", "| --- | --- | --- |",
        "| 3-1-4 | 2.31 | 281.2 tok/s |",
    )
    assert_verdict(crash_path(run(tmp_path, lines)), "v2", "EAGLEWorkerV2")


def test_a_reviewers_post_on_a_recipe_pr_keeps_the_prs_family(tmp_path: Path) -> None:
    """A recipe PR bumping an SGLang MTP config to a pinned image; the crash sits under a
    reviewer's checklist post that names no family (35 22's class): the PR's run is the post's."""
    lines = [
        "acme/bench-recipes · pull request #88 · merged · Python",
        "# Update Kimi-K3 H200 SGLang MTP config (new image)",
        "",
        "author · description · 2026-08-03",
        "- Bump the image to `lmsysorg/sglang:v0.5.17`.",
        "- Widen the MTP search space to c=1-256.",
        "",
        "reviewer · comment · 2026-08-05",
        "- [X] Verified that this PR has passed the sweep.",
        "", *_PROBE,
    ]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "v2", "EAGLEWorkerV2")


def test_a_slime_rollout_report_with_a_family_is_sglangs(tmp_path: Path) -> None:
    """A report on slime's tracker (its rollouts always run SGLang) of an EAGLE3 rollout whose
    accept length drops, dated before any release had the v2 worker: v1 EAGLEWorker."""
    lines = _thread(
        "issue", "[Bug] EAGLE3 accept length drops after the first weight update", "2025-08-20",
        "During GRPO the rollout's EAGLE3 accept length falls from 3.1 to 1.2 after step 1.",
        repo="THUDM/slime · {kind} #{n} · open · Python",
    )
    assert_verdict(crash_path(run(tmp_path, lines)), "v1", "EAGLEWorker")
