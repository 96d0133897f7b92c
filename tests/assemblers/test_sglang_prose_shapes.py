"""SGLang runs told by shapes of prose and cut pastes (issue 11): a draft checkpoint named in a
sentence after a question, SGLang's own flag written in a sentence on a page with no tracker
header, a server_args dump cut from its head. Every text is our own, in the shapes threads take."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import roots, run

from spectrace.assemblers.sglang_kwargs import dump_fragment
from spectrace.assemblers.sglang_prose_flags import flag_algorithms
from spectrace.assemblers.spec_prose import named_algorithms, sentence_apart

PROBE = ["```", "Traceback (most recent call last):", '  File "/probe/probe.py", line 1, in <module>',
         "RuntimeError: probe crash", "```"]  # fmt: skip
FIELDS = ("tp_size=8, dp_size=1, attention_backend='fa3', sampling_backend='flashinfer', "
          "mem_fraction_static=0.85, max_running_requests=None, disable_radix_cache=False, "
          "cuda_graph_max_bs=160, ")  # fmt: skip


def _path(tmp_path: Path, lines: list[str]):  # noqa: ANN202 - the WorkerPath
    (crash,) = roots(run(tmp_path, lines, name="thread.md"))
    return crash.worker_path


def test_a_draft_named_after_a_question_is_the_runs(tmp_path: Path) -> None:
    """"Can it run on A100? The draft I use is org/X-NextN." : the question is its own
    sentence; in April 2025 only the v1 worker existed."""
    lines = ["sgl-project/sglang · issue #5200 · open · Python", "# spec decoding on A100", "",
             "ana · description · 2025-04-08",
             "Can **speculative decoding** run on **A100** for **Orbit-R1-BF16**? The draft model I use is **acme/Orbit-R1-NextN**.",
             "", "ana · comment · 2025-04-20", "RuntimeError: **index k out of range**"]  # fmt: skip
    path = _path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("v1", "EAGLEWorker")


def test_a_draft_sentence_a_later_turn_sets_apart_stays_apart() -> None:
    text = "We serve org/Orbit-8B-EAGLE3. But that is not the run that crashed."
    assert sentence_apart(text, text.index("org/"))
    question = "Should we try org/Orbit-8B-EAGLE3 instead? We run the plain model."
    assert sentence_apart(question, question.index("org/"))


def test_sglangs_flag_in_a_sentence_names_the_framework_and_algorithm(tmp_path: Path) -> None:
    lines = ["Skip to content", "", "Fix the hybrid backend crash with ngram speculation #8812", "",
             "The verify input does not define topk, causing an AttributeError crash with "
             "--speculative-algo NGRAM.", "", *PROBE]  # fmt: skip
    path = _path(tmp_path, lines)
    assert (path.value, path.worker_class, path.framework) == ("other", "NGRAMWorker", "sglang")


@pytest.mark.parametrize(
    "text",
    [
        "Have you tried `--speculative-algorithm NGRAM`?",
        "You could try --speculative-algorithm NGRAM instead.",
        "Without --speculative-algorithm NGRAM it works.",
    ],
)
def test_a_flag_suggested_asked_or_set_apart_sets_nothing(text: str) -> None:
    assert flag_algorithms(text) == []


def test_a_name_ending_its_sentence_is_read_but_not_a_file() -> None:
    assert named_algorithms("It crashes when we run NGRAM.") == ["NGRAM"]
    assert named_algorithms("see ngram.py and eagle.cu") == []


def test_a_dump_cut_from_its_head_saying_no_algorithm_is_speculation_off(tmp_path: Path) -> None:
    lines = ["sgl-project/sglang · issue #5201 · open · Python", "# [Bug] crash on B200", "",
             "[turn 0 by ana, continued]",
             FIELDS + "speculative_algorithm=None, speculative_draft_model_path=None, "
             "speculative_num_steps=None, enable_mixed_chunk=False)", "", *PROBE]  # fmt: skip
    assert _path(tmp_path, lines).value == "none"


def test_a_cut_dump_naming_an_algorithm_decides_nothing_by_the_dump_rule() -> None:
    assert dump_fragment(FIELDS + "speculative_algorithm='EAGLE', speculative_eagle_topk=1")
    assert not dump_fragment("sgl.Engine(speculative_algorithm=None, tp_size=8)")  # a call's keywords


def test_a_source_build_without_a_release_tag_is_no_release(tmp_path: Path) -> None:
    """check_env's ``sglang: 0.0.0.devN+g<hash>`` is a build of main, not a release before
    every worker existed: the title's DSpark (one worker class in every release) decides."""
    from spectrace.assemblers.sglang_version import find_sglang_version, from_main

    assert find_sglang_version("sglang: 0.0.0.dev15114+g22c08a9be") is None
    assert from_main("sglang: 0.0.0.dev15114+g22c08a9be")
    lines = ["sgl-project/sglang · issue #5202 · open · Python",
             "# [Bug] DSpark graph capture fails when the block size is overridden", "",
             "ana · description · 2026-07-13", "Python: 3.12.3", "sglang: 0.0.0.dev15114+g22c08a9be",
             "sglang-kernel: 0.4.4+cu129", "", *PROBE]  # fmt: skip
    path = _path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("v2", "DSparkWorkerV2")


LISTING = ["The idle rank skips the metadata step but still enters the draft forward:", "```python",
           "# python/sglang/srt/speculative/eagle_worker_v2.py  (draft())",
           "if not forward_batch.forward_mode.is_idle():",
           "    self.draft_attn_backend.init_forward_metadata(forward_batch)", "```", ""]  # fmt: skip


def test_a_listing_headed_by_a_workers_file_shows_the_worker(tmp_path: Path) -> None:
    lines = ["sgl-project/sglang · issue #5203 · open · Python",
             "# [Bug] EAGLE + DP attention deadlock on the draft communicator", "",
             "ana · description · 2026-06-02", *LISTING, *PROBE]  # fmt: skip
    path = _path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("v2", "EAGLEWorkerV2")


def test_a_pull_requests_listing_is_code_under_change(tmp_path: Path) -> None:
    lines = ["sgl-project/sglang · pull request #5204 · open · Python",
             "# Skip the draft metadata on idle ranks", "", "ana · description · 2026-06-02",
             *LISTING, *PROBE]  # fmt: skip
    assert _path(tmp_path, lines).worker_class is None


def test_a_pull_request_on_sglang_runs_main_at_least_a_month_old(tmp_path: Path) -> None:
    """A PR's own runs are its branch of main: in August 2026 main is past 0.5.13, where the
    v1 worker is gone, so the EAGLE3 run it reports is the v2 worker; an issue of that day
    (a release of any age) keeps the condition."""
    post = ["ana · description · 2026-08-03", "We run EAGLE3 speculative decoding on this branch and it crashes:",
            "", *PROBE]  # fmt: skip
    pull = ["sgl-project/sglang · pull request #5205 · open · Python", "# Fix the draft KV layout for Orbit-V4", "", *post]
    path = _path(tmp_path, pull)
    assert (path.value, path.worker_class) == ("v2", "EAGLEWorkerV2")
    assert any("a pull request on sgl-project/sglang" in e.reason for e in path.evidence)
    issue = ["sgl-project/sglang · issue #5206 · open · Python", "# EAGLE3 crash on Orbit-V4", "", *post]
    assert _path(tmp_path, issue).worker_class is None


@pytest.mark.parametrize(
    ("text", "off"),
    [
        ("turning MTP off fixes it", True),
        ("with EAGLE disabled, the server crashes", True),
        ("no speculative decoding on this node", True),
        ("spec decoding: none", True),
        ("关闭MTP后服务崩溃", True),
        ("MTPを無効にするとクラッシュする", True),
        ("MTP를 끄면 서버가 죽습니다", True),
        ("We run EAGLE3 and it crashes", False),
        ("the offset is wrong in the MTP layer", False),
    ],
)
def test_one_reading_of_a_run_without_speculation(text: str, off: bool) -> None:
    """``spec_off`` serves the title guard and the prose readers alike; a sentence it reads as
    off names no algorithm of the run."""
    from spectrace.assemblers.spec_prose import run_names, spec_off

    assert spec_off(text) is off
    if off and named_algorithms(text):
        assert set(run_names(text)) == {"OFF"}


@pytest.mark.parametrize(
    "said",
    ["Fixes #4100. The reporter's repro on sglang 0.5.3:", "The repro from the issue, on the old image:"],
)
def test_a_pull_request_showing_an_issues_run_is_not_bounded_by_its_day(tmp_path: Path, said: str) -> None:
    """A PR quoting the issue's run (or naming a release) is no run of its branch: the month
    before its day bounds nothing, and 0.5.3's v1 worker is not ruled out."""
    lines = ["sgl-project/sglang · pull request #5207 · open · Python", "# [Fix] EAGLE crash with page size 64", "",
             "ana · description · 2026-09-15", said,
             "`python3 -m sglang.launch_server --model-path m/x --speculative-algorithm EAGLE --speculative-eagle-topk 1`",
             "", *PROBE]  # fmt: skip
    path = _path(tmp_path, lines)
    assert path.worker_class != "EAGLEWorkerV2" and not any("a pull request on" in e.reason for e in path.evidence)


def test_another_engines_command_with_sglang_like_options_names_no_sglang_run(tmp_path: Path) -> None:
    """TokenSpeed, LMDeploy and MLC copied SGLang's option names: ``tokenspeed serve M
    --speculative-algorithm EAGLE3`` or ``python -m tokenspeed.launch_server ... NGRAM`` is that
    engine's run, so no SGLang worker is named (ADV s11 e00-e07)."""
    for entry, algorithm in (("tokenspeed serve Qwen/Qwen3-32B", "EAGLE3"),
                             ("python -m tokenspeed.launch_server --model-path Qwen/Qwen3-32B", "NGRAM"),
                             ("lmdeploy serve api_server Qwen/Qwen3-32B", "EAGLE3")):  # fmt: skip
        lines = [
            "```", f"{entry} --speculative-algorithm {algorithm} --speculative-num-draft-tokens 8", "```",
            "Traceback (most recent call last):",
            '  File "/opt/engine/engine/spec.py", line 77, in step',
            "RuntimeError: CUDA error: an illegal memory access was encountered",
        ]  # fmt: skip
        (crash,) = roots(run(tmp_path, lines, f"{algorithm}.txt"))
        path = crash.worker_path
        assert path is not None and path.value == "unknown" and not path.conditional, (entry, path)
