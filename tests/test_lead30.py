"""Launch evidence written around a release that predates the algorithm (session 30, lead).

- A sentence that opens with an inline-code flag, then a sign and a count before its words
  ("`--speculative-algorithm DSPARK` + 4 dedicated options"), in English or in CJK prose, is a
  sentence quoting the flag, not a bare flag line whose words are the command's arguments.
- A launch or a server_args dump can only set an algorithm the build's parser accepts: where the
  release the text names predates the algorithm, the build carries it (a vendor fork, a dev build
  with it backported). For an algorithm SGLang runs on one worker only, that worker is a
  condition on the build following SGLang's own, not a bare "unknown".
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_verdict, crash_path, launcher_stop, run

_CRASH_IN_SHARED = [
    "Traceback (most recent call last):",
    '  File "/opt/sgl/python/sglang/srt/speculative/dflash_utils.py", line 610, in build_dflash_verify_target_probs',
    "    probs = renorm(probs, top_k)",
    "TypeError: 'NoneType' object is not callable",
]


def _verdict(tmp_path: Path, lines: list[str]):
    return crash_path(run(tmp_path, [*lines, *_CRASH_IN_SHARED]))


def test_a_flag_opening_a_sentence_after_a_sign_and_count_is_read(tmp_path: Path) -> None:
    forms = (
        "The vendor image ships the new drafter: `--speculative-algorithm DSPARK` + 3 own options.",
        "   `--speculative-algorithm DSPARK` + 3 own options are in this image",
        "   `--speculative-algorithm DSPARK` + 3 个专用参数都在镜像里",
        "   `--speculative-algorithm DSPARK` & 3 tuning knobs were set",
    )
    for i, form in enumerate(forms):
        (tmp_path / str(i)).mkdir()
        lines = ["We serve DeepSeek-V4 with SGLang on eight cards.", form]
        assert_verdict(_verdict(tmp_path / str(i), lines), "v2", "DSparkWorkerV2")


def test_flags_joined_by_a_sign_in_code_marks_stay_a_flag_line(tmp_path: Path) -> None:
    lines = ["SGLang server flags:", "`--speculative-algorithm DSPARK` + `--speculative-dspark-block-size 3`"]
    assert_verdict(_verdict(tmp_path, lines), "v2", "DSparkWorkerV2")


def test_a_launch_on_a_release_older_than_its_algorithm_is_a_condition(tmp_path: Path) -> None:
    lines = [
        "sglang: 0.5.15.post2.dev77+g0a1b2c3",
        "python3 -m sglang.launch_server --model-path /models/dsv4 --tp 8 \\",
        "    --speculative-algorithm DSPARK --speculative-num-draft-tokens 6",
    ]
    path = _verdict(tmp_path, lines)
    assert_verdict(path, "unknown", "DSparkWorkerV2")
    assert "predates" in path.conditional and "0.5.16" in path.conditional, path.conditional
    assert path.missing and "frame from the speculative worker" in path.missing[0], path.missing


def test_a_release_that_has_the_algorithm_still_decides(tmp_path: Path) -> None:
    lines = [
        "sglang: 0.5.17",
        "python3 -m sglang.launch_server --model-path /models/dsv4 --tp 8 \\",
        "    --speculative-algorithm DSPARK --speculative-num-draft-tokens 6",
    ]
    assert_verdict(_verdict(tmp_path, lines), "v2", "DSparkWorkerV2")


# --- SGLang's launcher refusing the speculative config built no worker --------------------------

_NGRAM_LAUNCH = "python3 -m sglang.launch_server --model-path /models/dense-8b --speculative-algorithm NGRAM"


def _refusal(frame_func: str, message: str) -> list[str]:
    return launcher_stop(_NGRAM_LAUNCH, frame_func, message)


def test_a_launcher_refusing_the_speculative_config_built_no_worker(tmp_path: Path) -> None:
    """Session 31's judgment, as vLLM's and TensorRT-LLM's validation errors: the method was asked
    for, but the launcher refused it before any scheduler started, so no worker of it ran; the
    explanation names the method asked for and the refusal."""
    forms = (
        _refusal("_handle_speculative_decoding", "this target cannot run the requested draft setting"),
        _refusal("__post_init__", "NGRAM speculative decoding needs the radix cache disabled"),
    )
    for i, lines in enumerate(forms):
        (tmp_path / str(i)).mkdir()
        path = crash_path(run(tmp_path / str(i), lines))
        assert path.worker_class is None and not path.conditional, path
        said = " ".join(path.missing)
        assert "refused the speculative config" in said and "configured NGRAM" in said, said


def test_a_launcher_failing_on_something_else_still_built_no_worker(tmp_path: Path) -> None:
    lines = _refusal("__post_init__", "the requested memory fraction leaves no room for the KV cache")
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class is None and not path.conditional, path


# --- a bug report's template headings are no page form ----------------------------------------

_SERVE = ("vllm serve acme/chat-8b --speculative-config "
          "'{\"method\": \"eagle3\", \"model\": \"acme/chat-8b-eagle3\", \"num_speculative_tokens\": 3}'")


def test_a_report_written_in_an_issue_template_keeps_its_run(tmp_path: Path) -> None:
    from real_logs_helpers import probed_path

    lines = ["### Your current environment", "- vLLM 0.11.0 on 2x L40S", "### 🐛 Describe the bug",
             "Started with:", _SERVE, "It dies within a minute of load."]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert path.worker_class == "EagleProposer" or "EagleProposer" in (path.conditional or ""), path


def test_a_page_of_headings_with_the_same_command_still_shows_no_run(tmp_path: Path) -> None:
    from real_logs_helpers import assert_no_path

    assert_no_path(tmp_path, ["# Speculative decoding", "## EAGLE-3", "Serve the draft with:", _SERVE,
                              "## Tuning", "Raise num_speculative_tokens for long outputs."])  # fmt: skip
