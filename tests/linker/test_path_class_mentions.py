"""A proposer or worker class named in a report's sentence (round 9 held-out H07: a vLLM
n-gram proposer named in prose above a bare RuntimeError) is the weakest path evidence: it
decides only when nothing else points, never from a title, a diff or talk about changing code,
and classes that disagree settle nothing.

Every line here is written by us in the real shapes; none is pasted."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import roots, run

from spectrace.path_mentions import class_names

CRASH = [
    "```",
    "RuntimeError: expand(CUDABoolType{[1, 1]}, size=[0]): the number of sizes is wrong",
    "```",
]


def _path(tmp_path: Path, lines: list[str]):
    (crash,) = roots(run(tmp_path, lines))
    assert crash.worker_path is not None
    return crash.worker_path


def test_a_proposer_named_in_prose_decides_when_nothing_else_points(tmp_path: Path) -> None:
    lines = ["On the first decode step vLLM's `NgramProposerGPU.update_token_ids_ngram` raises:",
             *CRASH]  # fmt: skip
    path = _path(tmp_path, lines)
    assert (path.value, path.worker_class, path.framework, path.family) == (
        "other", "NgramProposerGPU", "vllm", "NGRAM")  # fmt: skip
    first = path.evidence[0]
    assert first.lineno == 1 and first.reason.startswith(
        "class named in the text (NgramProposerGPU)"
    )
    assert "weaker than a frame" in first.reason


def test_a_class_in_a_title_or_a_sentence_about_a_patch_settles_nothing(tmp_path: Path) -> None:
    titled = _path(tmp_path, ["# [Bug]: EagleProposer fails under load", *CRASH])
    assert titled.value == "unknown" and titled.worker_class is None
    patched = _path(tmp_path, ["I patched EagleProposer.propose to skip the pad", *CRASH])
    assert patched.value == "unknown"
    assert class_names("+        self.drafter = EagleProposer(config)") == []


def test_classes_that_disagree_settle_nothing(tmp_path: Path) -> None:
    lines = ["It crashes in EagleProposer, and NgramProposer runs fine.", *CRASH]
    assert _path(tmp_path, lines).value == "unknown"


def test_the_launch_config_beats_a_class_in_prose(tmp_path: Path) -> None:
    lines = ["vllm serve org/m --speculative-config '{\"method\": \"ngram\", \"num_speculative_tokens\": 3}'",
             "I think the bug is like the one in EagleProposer.", *CRASH]  # fmt: skip
    path = _path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("other", "NgramProposer")


def test_wrappers_and_helpers_name_no_proposer() -> None:
    assert class_names("SpecDecodeWorker wraps the proposer on V0") == []
    assert class_names("the Eagle3OneModelSpecMetadata buffer overflowed") == []
    assert [name for name, _ in class_names("vLLM-Ascend's AscendEagleProposer hangs")] == [
        "AscendEagleProposer"]  # fmt: skip


def test_a_class_its_line_configures_counts_beside_talk_of_fixes(tmp_path: Path) -> None:
    """Round 11 study #27: the fixes named were for another path; the line itself says which
    proposer the run's method builds."""
    line = ("The ngram fixes do not cover it: the MTP path goes through another proposer "
            '(EagleProposer configured with method="mtp").')  # fmt: skip
    path = _path(tmp_path, [line, *CRASH])
    assert (path.value, path.worker_class, path.framework) == ("other", "EagleProposer", "vllm")
    wrong = line.replace('method="mtp"', 'method="ngram"')
    assert _path(tmp_path, [wrong, *CRASH]).value == "unknown"


def test_a_class_on_the_other_side_of_a_comparison_settles_nothing(tmp_path: Path) -> None:
    lines = ["Unlike SGLang's EAGLEWorker, this server hangs after the first step.", *CRASH]
    assert _path(tmp_path, lines).value == "unknown"


def test_a_class_the_configs_condition_rules_out_settles_nothing(tmp_path: Path) -> None:
    launch = ("export HCCL_BUFFSIZE=512",
              "vllm serve /m --speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 1}'")  # fmt: skip
    other = _path(tmp_path, [*launch, "It fails inside NgramProposer every time.", *CRASH])
    assert other.value == "unknown" and other.conditional is not None  # the condition stands
    named = _path(tmp_path, [*launch, "It fails inside MtpProposer every time.", *CRASH])
    assert (named.value, named.worker_class) == ("other", "MtpProposer")


def test_a_class_a_feature_request_lists_did_not_run(tmp_path: Path) -> None:
    """Round 14: "X is available upstream" names a class nobody ran; only a sentence saying
    the class failed (raises, crashes in, fails) points at what ran."""
    listed = _path(tmp_path, ["- `SuffixDecodingProposer` is available upstream since 0.12",
                              *CRASH])  # fmt: skip
    assert (listed.value, listed.worker_class) == ("unknown", None)
    failed = _path(tmp_path, ["- `SuffixDecodingProposer` fails on the first step", *CRASH])
    assert failed.worker_class == "SuffixDecodingProposer"
