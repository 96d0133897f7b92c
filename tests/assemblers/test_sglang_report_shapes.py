"""What an SGLang bug report says about its run outside a dump: a launch command shown whole
(no algorithm flag: speculation off), the release a title calls the regression, an image tag of
another registry naming the release, "when using EAGLE" as the run's algorithm; and the English
word "standalone", which is not the algorithm."""

from __future__ import annotations

import pytest

from spectrace.assemblers.config import ConfigCollector
from spectrace.assemblers.run_config import Evidence
from spectrace.assemblers.sglang_version import find_sglang_version
from spectrace.assemblers.spec_prose import named_algorithms
from spectrace.dialects.base import LogLine

WHOLE = [
    "Start-up script:",
    "```bash",
    "python -m sglang.launch_server \\",
    "  --model-path /models/tiny \\",
    "  --tp 2 \\",
    "  --my-fork-option 3 \\",
    "  --mem-fraction-static 0.8",
    "```",
]


def _evidence(*texts: str) -> list[Evidence]:
    collector = ConfigCollector()
    for n, text in enumerate(texts, 1):
        collector.feed(LogLine("issue.md", n, 0, text, text, "plain", ""))
    return collector.result().path_evidence


def test_a_whole_command_without_an_algorithm_is_speculation_off() -> None:
    (evidence,) = _evidence(*WHOLE)
    assert (evidence.points_to, evidence.lineno) == ("none", 4)  # the first flag read
    assert "no --speculative-algorithm" in evidence.reason


@pytest.mark.parametrize(
    "change",
    [
        lambda lines: lines[:-2],  # cut after a continued line
        lambda lines: [*lines[:6], "  ...", *lines[6:]],  # flags elided
        lambda lines: [*lines[:6], "  --speculative-alg", *lines[6:]],  # a cut option
        lambda lines: ["Our EAGLE run crashes when I use this:", *lines],  # the text names one
        lambda lines: ["EAGLE3 is fine, NGRAM is not:", *lines],  # or two
        lambda lines: [*lines[:6], "  --config /etc/sgl.yaml \\", *lines[6:]],  # a config file
    ],
)
def test_a_command_that_may_not_be_whole_says_nothing(change) -> None:  # noqa: ANN001
    assert not any(e.points_to == "none" for e in _evidence(*change(list(WHOLE))))


def test_the_release_a_title_calls_the_regression_is_the_runs() -> None:
    evidence = _evidence(
        "# sgl-project/sglang issue",
        "# [Bug] EAGLE speculative decoding crashes in standalone client mode (v0.5.13 regression)",
        "### Output that worked (v0.5.12, same flags)",
    )
    assert [(e.points_to, e.worker_class) for e in evidence] == [("v2", "EAGLEWorkerV2")]


def test_two_bare_releases_and_no_regression_name_none() -> None:
    evidence = _evidence(
        "EAGLE speculative decoding with sglang", "Tried it on v0.5.12 and on v0.5.13."
    )
    assert not any(e.worker_class for e in evidence)


def test_the_english_word_standalone_is_not_the_algorithm() -> None:
    assert named_algorithms("crashes in standalone client mode with EAGLE") == ["EAGLE"]
    assert named_algorithms("standalone speculative decoding with a small draft") == ["STANDALONE"]
    assert named_algorithms("--speculative-algorithm STANDALONE") == ["STANDALONE"]


def test_an_image_tag_of_another_registry_names_the_release() -> None:
    assert find_sglang_version("image `rocm/sgl-dev:sglang-0.5.14-rocm720-mi35x`") == (0, 5, 14)


def test_when_using_an_algorithm_dated_by_the_post_decides() -> None:
    evidence = _evidence(
        "someone · description · 2025-12-29",
        "When using EAGLE speculative decoding on sglang, the draft graph capture fails.",
    )
    assert [(e.points_to, e.worker_class) for e in evidence] == [("v1", "EAGLEWorker")]


@pytest.mark.parametrize(
    "sentence",
    [
        "# [Bug] EAGLE speculative decoding fails with the new attention backend on sglang",
        "The sglang server crashes with EAGLE and topk 4 after the first request.",
        "We run EAGLE on eight GPUs with sglang.",
    ],
)
def test_an_algorithm_the_report_says_failed_or_ran_is_the_runs(sentence: str) -> None:
    (evidence,) = _evidence("someone · description · 2025-12-29", sentence)
    assert (evidence.points_to, evidence.worker_class) == ("v1", "EAGLEWorker")


@pytest.mark.parametrize(
    "sentence",
    [
        "With EAGLE off, the sglang server crashes as well.",
        "EAGLE works on sglang, NGRAM fails.",  # two families: neither
    ],
)
def test_an_algorithm_off_or_beside_another_is_not_the_runs(sentence: str) -> None:
    assert _evidence("someone · description · 2025-12-29", sentence) == []


def test_a_chinese_report_names_its_algorithm_and_release() -> None:
    evidence = _evidence("sglang版本：0.5.3", "使用EAGLE3投机解码时，服务在第二个请求崩溃。")
    assert [(e.points_to, e.worker_class) for e in evidence] == [("v1", "EAGLEWorker")]


@pytest.mark.parametrize(
    "before",
    [
        ["Baseline without speculation, for reference:"],
        ["Speculative decoding crashes the server on the second request. Launch:"],
    ],
)
def test_a_whole_command_in_a_text_about_speculation_is_not_none(before: list[str]) -> None:
    assert not any(e.points_to == "none" for e in _evidence(*before, *WHOLE))


def test_a_diff_removing_the_algorithm_flag_sets_nothing() -> None:
    config_lines = [
        " python -m sglang.launch_server \\",
        "   --model-path /models/tiny \\",
        "-  --speculative-algorithm EAGLE \\",
        "   --tp 2",
    ]
    collector = ConfigCollector()
    for n, text in enumerate(config_lines, 1):
        collector.feed(LogLine("pr.md", n, 0, text, text, "plain", ""))
    flags = collector.result().flags
    assert "speculative_algorithm" not in flags and flags["tp_size"].value == 2


def test_a_yearless_comment_header_leaves_the_posts_unbounded() -> None:
    launch = "python3 -m sglang.launch_server --model-path /m --speculative-algorithm EAGLE"
    dated = _evidence("alice opened this issue on Mar 3, 2025 · 4 comments", launch)
    assert [(e.points_to, e.worker_class) for e in dated] == [("v1", "EAGLEWorker")]
    later = _evidence("alice opened this issue on Mar 3, 2025", "bob commented on Jul 2", launch)
    assert [(e.points_to, e.worker_class) for e in later] == [(None, None)]


def test_two_different_releases_and_no_check_env_name_none() -> None:
    launch = "python -m sglang.launch_server --model-path /m --speculative-algorithm EAGLE"
    both = "Same on lmsysorg/sglang:v0.5.14-cu126; this log is from lmsysorg/sglang:v0.4.6.post1:"
    (evidence,) = _evidence(both, launch)
    assert evidence.worker_class is None and evidence.condition
    (printed,) = _evidence("sglang: 0.4.6.post1", "I also tried sglang==0.5.14", launch)
    assert printed.worker_class == "EAGLEWorker"  # check_env's line is the environment's


@pytest.mark.parametrize(
    "reply",
    [
        "Could you try `pip install sglang==0.5.14`? It has the fix.",
        "This is fixed in v0.5.14, please upgrade.",
        "The same crash was reported for sglang 0.4.6 in #3000.",
    ],
)
def test_a_release_named_as_the_fix_or_another_report_is_not_the_runs(reply: str) -> None:
    launch = "python -m sglang.launch_server --model-path /m --speculative-algorithm EAGLE"
    (evidence,) = _evidence("sgl-project/sglang", launch, reply)
    assert evidence.worker_class is None and evidence.condition
