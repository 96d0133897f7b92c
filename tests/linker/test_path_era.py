"""A family the text names + its release or the thread's day -> the era's class (path_era).

Our own lines in the shapes of real threads (round 27 22/23: an SGLang MTP bug dated 2026;
round 28 06: DFlash with "SGLang Version: 0.5.13"; round 28 15: EAGLE knobs on a 0.5.16 image),
and look-alikes that show no run, which must stay without a path."""

from __future__ import annotations

from pathlib import Path

from tests.real_logs_helpers import assert_verdict, crash_path, run

_THREAD = "sgl-project/sglang · {kind} #{n} · open · Python"
# a crash of the run (a frame in an installed package) that names no worker
_PROBE = [
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.12/dist-packages/torch/cuda/graphs.py", line 88, in replay',
    "    super().replay()",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]


def _thread(kind: str, title: str, day: str, *body: str) -> list[str]:
    header = f"someone · description · {day}"
    return [_THREAD.format(kind=kind, n=41000), f"# {title}", "", header, *body, "", *_PROBE]


def test_an_mtp_bug_dated_2026_is_the_era_condition(tmp_path: Path) -> None:
    """An SGLang issue reporting an MTP failure, no version, posted in 2026: the releases of
    that day run NEXTN on EAGLEWorkerV2 from 0.5.11 and EAGLEWorker before (r27 22/23 shape)."""
    lines = _thread("issue", "[Bug] Kimi-K3 with MTP returns garbled text under high load",
                    "2026-07-20", "After a few hours of traffic the answers turn into noise.")
    path = crash_path(run(tmp_path, lines))
    assert_verdict(path, "unknown", "EAGLEWorkerV2|EAGLEWorker")
    assert path.family == "NEXTN"


def test_an_eagle3_crash_dated_before_the_v2_worker_is_eagle_worker(tmp_path: Path) -> None:
    """An EAGLE3 failure posted in March 2025, before any release had EAGLEWorkerV2."""
    lines = _thread("issue", "EAGLE3 draft crashes the scheduler on 8xH100", "2025-03-11",
                    "The server dies a few seconds after the first request.")
    assert_verdict(crash_path(run(tmp_path, lines)), "v1", "EAGLEWorker")


def test_dflash_with_a_version_bullet_is_its_one_worker(tmp_path: Path) -> None:
    """DFlash named beside "SGLang Version: 0.5.13" (a performance report, r28 06 shape): that
    release runs DFLASH on DFlashWorker only."""
    lines = _thread("issue", "[Performance] DFlash throughput far below the plain server",
                    "2026-06-20", "- SGLang Version: 0.5.13",
                    "With DFlash on, Qwen3-32B serves ~90 tokens/s per request.")
    assert_verdict(crash_path(run(tmp_path, lines)), "v1", "DFlashWorker")


def test_mtp_knobs_on_a_release_past_v1_is_the_v2_worker(tmp_path: Path) -> None:
    """A PR validating MTP whose body launches EAGLE knobs (no algorithm flag) on 0.5.16: the v1
    worker is gone there (r28 15 shape)."""
    lines = _thread(
        "pull request", "[CI] validate MTP 3-1-4 for DeepSeek-V4 on MI300X", "2026-09-02",
        "sglang 0.5.16",
        "python -m sglang.launch_server --model-path m --speculative-num-steps 3 "
        "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4",
    )
    assert_verdict(crash_path(run(tmp_path, lines)), "v2", "EAGLEWorkerV2")


def _no_path(tmp_path: Path, lines: list[str]) -> None:
    path = crash_path(run(tmp_path, lines))
    assert path.value == "unknown" and path.conditional is None, path


def test_a_feature_request_for_eagle3_names_no_run(tmp_path: Path) -> None:
    _no_path(tmp_path, _thread("issue", "[Feature] Support EAGLE3 for Llama-4 Scout", "2025-05-02",
                               "It would be great to have EAGLE3 heads for this model."))


def test_a_support_question_names_no_run(tmp_path: Path) -> None:
    _no_path(tmp_path, _thread("issue", "Does SGLang support MTP for GLM-5?", "2026-03-02",
                               "Does it support MTP for this model?"))


def test_a_pr_adding_dflash_names_no_run(tmp_path: Path) -> None:
    _no_path(tmp_path, _thread("pull request", "Add DFlash speculative decoding", "2026-02-02",
                               "This PR adds DFlash for Qwen3 models."))


def test_a_bug_title_on_another_tracker_names_no_sglang_class(tmp_path: Path) -> None:
    """The same MTP bug title on an unknown repository: no framework, no class."""
    lines = _thread("issue", "[Bug] MTP crashes after warmup", "2026-07-20", "It dies.")
    lines[0] = "someone/serving-scripts · issue #12 · open · Shell"
    _no_path(tmp_path, lines)


def test_a_bug_about_the_plain_server_names_no_run(tmp_path: Path) -> None:
    """The family is named only as off in the report."""
    _no_path(tmp_path, _thread("issue", "[Bug] Server hangs with MTP disabled", "2026-07-20",
                               "Without MTP the server still hangs."))


def test_a_family_with_no_release_asks_for_the_release_line(tmp_path: Path) -> None:
    """SGLang's frames and EAGLE3 named, no release and no day: the version line settles it
    (before 0.5.4 only EAGLEWorker; after, the overlap setting), so it is asked for first."""
    lines = [
        "# EAGLE3 draft crashes the scheduler on 8xH100",
        "The server dies a few seconds after the first request with EAGLE3 on.",
        "Traceback (most recent call last):",
        '  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/layers/attention/'
        'flashinfer_backend.py", line 512, in forward_decode',
        "    o = self.decode_wrapper.forward(q, k)",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
    ]
    path = crash_path(run(tmp_path, lines))
    assert path.value == "unknown" and path.missing, path
    assert path.missing[0].startswith("the sglang version"), path.missing


def test_a_plain_launch_beside_another_deployments_family_names_no_run(tmp_path: Path) -> None:
    """The run's own command is shown and sets nothing speculative: the EAGLE3 of a sentence is
    another deployment's, not the run's (ADV j00 shape)."""
    _no_path(tmp_path, _thread(
        "issue", "[Bug] Scheduler crashes under load on 0.5.9", "2026-03-02",
        "python -m sglang.launch_server --model-path Qwen/Qwen3-32B --tp 4",
        "Our Llama deployment serves EAGLE3 on the same release.",
    ))


def test_release_notes_naming_a_family_and_a_release_name_no_run(tmp_path: Path) -> None:
    _no_path(tmp_path, _thread("issue", "Release v0.5.13 notes: MTP on spec v2 by default",
                               "2026-06-01", "MTP now runs on the overlap worker by default."))


def test_an_image_tag_bounds_the_release(tmp_path: Path) -> None:
    """The release from the image the report runs (``lmsysorg/sglang:v0.5.16``): the v1 worker
    is gone there, so MTP is EAGLEWorkerV2 whatever the overlap setting."""
    lines = _thread("issue", "[Bug] MTP acceptance drops to 1.0 after a few hours", "2026-05-02",
                    "We run lmsysorg/sglang:v0.5.16 on 8xH200.")
    path = crash_path(run(tmp_path, lines))
    assert_verdict(path, "v2", "EAGLEWorkerV2")
    assert not path.conflict


def test_mtp_on_a_model_whose_mtp_is_rewritten_stays_open(tmp_path: Path) -> None:
    """MTP on Gemma-4 is FROZEN_KV_MTP from 0.5.12 ([[promote]] rows), not NEXTN's workers: the
    join gives no NEXTN class or condition for it (SG's trap)."""
    _no_path(tmp_path, _thread(
        "issue", "[Bug] MTP failed to start", "2026-08-03",
        "python -m sglang.launch_server --model /mnt/ssd/gemma-4-31B-it --speculative-num-steps 3",
    ))


def _with_comment(writer: str, words: str) -> list[str]:
    """An EAGLE3 issue dated March 2025 (one class then: EAGLEWorker) whose crash is pasted in a
    later comment of ``writer`` saying ``words``."""
    return [_THREAD.format(kind="issue", n=41001), "# [Bug] EAGLE3 crash with FP8 KV cache", "",
            "someone · description · 2025-03-11", "EAGLE3 with an FP8 KV cache dies after a while.",
            "", f"{writer} · comment · 2025-03-12", words, "```", *_PROBE, "```"]  # fmt: skip


def test_a_crash_in_another_writers_comment_does_not_take_the_titles_family(tmp_path: Path) -> None:
    """A commenter's "+1, same here" pastes their own run's crash: the title's EAGLE3 is the
    reporter's run, and the commenter's method is not read (here it is another one)."""
    lines = _with_comment("other-user", "+1, same for me with NGRAM instead of EAGLE3:")
    assert crash_path(run(tmp_path, lines)).worker_class is None


def test_the_reporters_own_comment_keeps_the_titles_family(tmp_path: Path) -> None:
    """The reporter pastes the log they were asked for: the title's family is that run's."""
    lines = _with_comment("someone", "Here is the log you asked for:")
    assert_verdict(crash_path(run(tmp_path, lines)), "v1", "EAGLEWorker")


def _undated(kind: str, title: str, *body: str) -> list[str]:
    """A saved thread whose posts show no day (an excerpt cut before its post headers)."""
    return [_THREAD.format(kind=kind, n=41002), f"# {title}", "", *body, "", *_PROBE]


_BENCH = ("============ Serving Benchmark Result ============", "Backend:        sglang",
          "Successful requests:        512", "Accept length:        3.91")  # fmt: skip


def test_dspark_with_no_release_or_day_is_its_one_worker(tmp_path: Path) -> None:
    """DSPARK runs on DSparkWorkerV2 on every release that has it: a DSpark PR showing its own
    benchmark needs no release or day (round 37 32 shape)."""
    lines = _undated("pull request", "[ROCm] Enable DSpark for DeepSeek-V4 on MI355", *_BENCH)
    assert_verdict(crash_path(run(tmp_path, lines)), "v2", "DSparkWorkerV2")


def test_a_dspark_bug_with_no_day_is_its_one_worker(tmp_path: Path) -> None:
    lines = _undated("issue", "[Bug] DSpark acceptance drops to 1.0 under load",
                     "The accept length falls after an hour of traffic.")
    assert_verdict(crash_path(run(tmp_path, lines)), "v2", "DSparkWorkerV2")


def test_dflash_with_no_release_or_day_stays_open(tmp_path: Path) -> None:
    """DFLASH ran on DFlashWorker up to 0.5.13 and DFlashWorkerV2 after: no bound, no class."""
    path = crash_path(run(tmp_path, _undated("pull request", "[ROCm] Enable DFlash on MI355", *_BENCH)))
    assert path.worker_class is None, path


def test_an_undated_dspark_feature_request_names_no_run(tmp_path: Path) -> None:
    _no_path(tmp_path, _undated("issue", "[Feature] Support DSpark for Kimi-K3",
                                "It would be great to have DSpark for this model."))


def _switch(words: str, day: str = "2026-01-30") -> list[str]:
    return _thread("issue", "[Bug] MTP acceptance drops on H200 after a few hours", day,
                   "Our DeepSeek-V3 deployment with MTP slows down over time.", words)


def test_the_switch_named_without_a_value_is_the_condition_on_it(tmp_path: Path) -> None:
    """January 2026 (0.5.7-0.5.10: spec v2 off by default): a text naming SGLANG_ENABLE_SPEC_V2
    with no value may have set it, so the default side alone (EAGLEWorker) is never given."""
    for words in ("We added the `SGLANG_ENABLE_SPEC_V2` environment variable to the deployment.",
                  "The pods also export SGLANG_ENABLE_SPEC_V2 (see the chart)."):  # fmt: skip
        path = crash_path(run(tmp_path, _switch(words)))
        assert_verdict(path, "unknown", "EAGLEWorkerV2|EAGLEWorker")
        assert "SGLANG_ENABLE_SPEC_V2=1" in (path.conditional or ""), path


def test_the_switch_with_its_value_decides(tmp_path: Path) -> None:
    path = crash_path(run(tmp_path, _switch("We run with SGLANG_ENABLE_SPEC_V2=1 on every pod.")))
    assert_verdict(path, "v2", "EAGLEWorkerV2")


def test_the_switch_named_where_only_v2_exists_is_v2(tmp_path: Path) -> None:
    """On 0.5.16 the v1 worker is gone: either setting runs EAGLEWorkerV2."""
    lines = _switch("We added the `SGLANG_ENABLE_SPEC_V2` variable; image lmsysorg/sglang:v0.5.16.",
                    day="2026-08-30")
    assert_verdict(crash_path(run(tmp_path, lines)), "v2", "EAGLEWorkerV2")
