"""The vllm-ascend plugin's own marks put a text's run on the plugin (round 39 20's shape: a
mirror of a plugin fork's commit, whose eagle3 ``LLM(...)`` test ran on Ascend though no line
says "Ascend" or "NPU"): the page's address into the plugin's package (``.../vllm_ascend/...``),
a change that depends on one of the plugin's pull requests, the plugin image's layout
(``/vllm-workspace/vllm/vllm/``, ``/vllm-workspace/vllm-ascend/``) and the footer its PR bot
writes (``- vLLM version: vX.Y.Z`` then ``- vLLM main: <commit>``). Each swaps vLLM's proposer
for the plugin's class of the paired release. Near misses that must stay vLLM's: a link to the
plugin's code in a comment, a bare link to one of its pull requests, a home directory that
happens to be named ``vllm-workspace``, a lone ``vLLM version:`` line. Our own lines."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_verdict, crash_path, run

_TEST = [
    "### How was this patch tested?",
    "```python",
    "llm = LLM(",
    '    model="/data/models/Llama-3.1-8B-Instruct",',
    "    tensor_parallel_size=1,",
    "    speculative_config={",
    '        "model": "/data/models/EAGLE3-Llama-3.1-8B",',
    '        "method": "eagle3",',
    '        "num_speculative_tokens": 3,',
    "    },",
    ")",
    "```",
    "The result after:",
    "```text",
    "mean acceptance length: 1.82",
    "```",
]
_CRASH = ["Traceback (most recent call last):", '  File "probe.py", line 1, in <module>',
          "RuntimeError: engine died"]  # fmt: skip
_FOOTER = ["- vLLM version: v0.16.0", "- vLLM main: https://github.com/vllm-project/vllm/commit/"
           "0123456789abcdef0123456789abcdef01234567"]  # fmt: skip


def _path(tmp_path: Path, name: str, lines: list[str]):
    """The one crash's path: the text's own traceback, else a probe's appended to it."""
    (tmp_path / name).mkdir()
    crash = [] if any(ln.startswith("Traceback") for ln in lines) else ["", *_CRASH]
    return crash_path(run(tmp_path / name, [*lines, *crash]))


def _body(*extra: str) -> list[str]:
    return ["### What this PR does / why we need it?",
            "Fix the drafter's padded batch in FULL graph mode.", *extra, "", *_TEST]  # fmt: skip


def test_the_plugin_s_pr_footer_puts_the_run_on_the_plugin(tmp_path: Path) -> None:
    for i, footer in enumerate((_FOOTER, ["- vLLM version: v0.16.0", "- vLLM main:", "0123456789"],
                                ["vLLM version: v0.16.0", "vLLM main: 0123456789ab"])):
        path = _path(tmp_path, str(i), [*_body(), "", *footer])
        assert_verdict(path, "other", "AscendEagleProposer")


def test_the_page_address_into_the_plugin_s_package(tmp_path: Path) -> None:
    for i, url in enumerate((
        "https://git.example.org/npu-team/xc-llm/src/commit/0a1b2c3d4e5f/vllm_ascend/spec_decode",
        "https://github.com/some-fork/vllm-ascend/tree/dev/vllm_ascend/worker",
    )):
        path = _path(tmp_path, str(i), [url, "", *_body(), "", "Tested with vLLM 0.16.0."])
        assert_verdict(path, "other", "AscendEagleProposer")


def test_a_change_that_depends_on_a_plugin_pull_request(tmp_path: Path) -> None:
    for i, said in enumerate((
        "It depends on https://github.com/vllm-project/vllm-ascend/pull/7100 .",
        "Based on vllm-project/vllm-ascend#7100, which must land first.",
    )):
        path = _path(tmp_path, str(i), [*_body(said), "", "Tested with vLLM 0.16.0."])
        assert_verdict(path, "other", "AscendEagleProposer")


def test_the_plugin_image_s_layout(tmp_path: Path) -> None:
    for i, frame in enumerate((
        '  File "/vllm-workspace/vllm/vllm/v1/cudagraph_dispatcher.py", line 140, in dispatch',
        "cp fix.py /vllm-workspace/vllm-ascend/vllm_ascend/spec_decode/eagle_proposer.py",
    )):
        lines = [*_body(), "The result before:", "```text", "Traceback (most recent call last):",
                 frame, "AssertionError", "```", "", "Tested with vLLM 0.16.0."]  # fmt: skip
        path = _path(tmp_path, str(i), lines)
        assert_verdict(path, "other", "AscendEagleProposer")


def test_near_misses_stay_vllm_s_own_class(tmp_path: Path) -> None:
    near = (
        ["The plugin does the same here:",
         "https://github.com/vllm-project/vllm-ascend/blob/main/vllm_ascend/spec_decode/eagle_proposer.py"],
        ["Related: https://github.com/vllm-project/vllm-ascend/pull/7100"],
        ["Traceback (most recent call last):",
         '  File "/home/me/vllm-workspace/vllm/vllm/v1/cudagraph_dispatcher.py", line 140, in dispatch',
         "AssertionError"],
        ["- vLLM version: v0.16.0"],
    )
    for i, extra in enumerate(near):
        path = _path(tmp_path, str(i), [*_body(), "", *extra, "", "Tested with vLLM 0.16.0."])
        assert_verdict(path, "other", "EagleProposer")


def test_a_vllm_pr_following_up_a_plugin_pr_stays_vllm_s(tmp_path: Path) -> None:
    """On vLLM's own tracker a plugin PR cited as the reason for a hook is vLLM's change, run on
    vLLM's GPUs: the plugin's marks there do not move the run to Ascend (naming the plugin
    leaves vLLM's class and the plugin's as the condition, as before)."""
    for i, said in enumerate(("Follow-up to vllm-project/vllm-ascend#7100: plugins need a hook.",
                              "Based on vllm-project/vllm-ascend#7100, which needs the hook.")):
        lines = ["vllm-project/vllm · pull request #61001 · merged · Python",
                 "# [Spec Decode] Let platforms override the draft metadata", "",
                 *_body(said), "", "Tested with vLLM 0.16.0 on 1x H100."]  # fmt: skip
        path = _path(tmp_path, str(i), lines)
        assert_verdict(path, "unknown", "EagleProposer on vLLM's GPU platforms")


def test_a_plugin_pr_s_words_take_the_release_its_footer_pairs(tmp_path: Path) -> None:
    """A plugin fix PR naming Eagle in prose, its footer giving vLLM v0.18.0: the plugin's
    v0.18.0rc1 builds AscendEagleProposer (decided, not the condition over the plugin's
    releases); a footer of v0.13.0 pairs with a release that still built EagleProposer."""
    for i, (version, day, cls) in enumerate((("v0.18.0", "2026-04-02", "AscendEagleProposer"),
                                             ("v0.13.0", "2026-01-05", "EagleProposer"))):
        lines = ["vllm-project/vllm-ascend · pull request #71001 · open · Python",
                 "# [Bugfix] Fix hang with Eagle multi-step drafting and FlashComm", "",
                 f"dev-b · description · {day}",
                 "Fix a decode-node hang with Eagle multi-step speculation enabled.", "",
                 f"- vLLM version: {version}",
                 "- vLLM main: https://github.com/vllm-project/vllm/commit/0123456789abcdef"]  # fmt: skip
        assert_verdict(_path(tmp_path, str(i), lines), "other", cls)
