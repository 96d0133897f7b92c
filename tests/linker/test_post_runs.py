"""A crash pasted in one post of a thread reads that post's run (issue 11: per-post runs).

A commenter's traceback under the reporter's launch is the commenter's run: when the post
shows a launch of its own or says its run is plain, the reporter's method and the title are
not its; with nothing of its own it reads its writer's other posts, then the reporter's.
Every thread here is our own, in the shape the real-log rounds save threads in.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import roots, run

from spectrace.assemblers.post_dates import post_author

HEAD = ["sgl-project/sglang · issue #5150 · open · Python", "labels: bug"]
VHEAD = ["vllm-project/vllm · issue #5151 · open · Python", "labels: bug"]
SERVER = "python3 -m sglang.launch_server --model-path acme/Orbit-32B --tp 4 --port 30000"


def _crash(message: str, engine: str = "sglang") -> list[str]:
    if engine == "vllm":
        inner = ('  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/worker/gpu_model_runner.py", '
                 'line 1530, in execute_model')  # fmt: skip
        return [
            "```",
            "Traceback (most recent call last):",
            inner,
            "    out = self.model(",
            message,
            "```",
        ]
    inner = ('  File "/opt/venv/lib/python3.11/site-packages/sglang/srt/model_executor/model_runner.py", '
             'line 2070, in forward')  # fmt: skip
    return [
        "```",
        "Traceback (most recent call last):",
        inner,
        "    return self._forward_raw(",
        message,
        "```",
    ]


def _paths(tmp_path: Path, lines: list[str]) -> dict[str, tuple[str, str | None]]:
    crashes = roots(run(tmp_path, lines, name="thread.md"))
    return {c.exception_type: (c.worker_path.value, c.worker_path.worker_class) for c in crashes}


def test_each_writers_crash_reads_their_own_launch(tmp_path: Path) -> None:
    lines = [*HEAD, "# [Bug] crash with radix cache", "",
             "ana · description · 2025-11-02", f"`{SERVER} --speculative-algorithm NGRAM`",
             *_crash("RuntimeError: CUDA error: an illegal memory access was encountered"), "",
             "bo · comment · 2025-11-04", "Mine, with another algorithm:",
             f"`{SERVER} --speculative-algorithm EAGLE3 --speculative-draft-model-path acme/Orbit-32B-EAGLE3`",
             *_crash("ValueError: draft cache holds 17 slots, expected 16")]  # fmt: skip
    got = _paths(tmp_path, lines)
    assert got["RuntimeError"] == ("other", "NGRAMWorker")
    assert got["ValueError"][1] in ("EAGLEWorker", "EAGLEWorkerV2", None)


@pytest.mark.parametrize(
    "disowning",
    [
        "Same traceback on my side, but I don't use speculative decoding at all:",
        "Not using speculative decoding here, just page size 64:",
        "I reproduced a similar failure on a plain server:",
    ],
)
def test_a_post_saying_its_run_is_plain_takes_no_method_from_the_thread(
    tmp_path: Path, disowning: str
) -> None:
    lines = [*HEAD, "# [Bug] NGRAM speculative decoding crashes with page size 64", "",
             "ana · description · 2025-11-02", f"Launch: `{SERVER} --speculative-algorithm NGRAM`",
             "", "cho · comment · 2025-11-05", disowning,
             *_crash("RuntimeError: CUDA error: an illegal memory access was encountered")]  # fmt: skip
    assert _paths(tmp_path, lines)["RuntimeError"] == ("unknown", None)


def test_a_vllm_commenters_plain_crash_takes_neither_title_nor_config(tmp_path: Path) -> None:
    lines = [*VHEAD, "# [Bug]: eagle3 crash with prefix caching", "",
             "ana · description · 2026-01-10", "eagle3 run:",
             *_crash("RuntimeError: CUDA error: an illegal memory access was encountered", "vllm"), "",
             "bo · comment · 2026-01-12", "Not using speculative decoding at all, but a similar error:",
             *_crash("ValueError: block table holds 17 blocks, expected 16", "vllm")]  # fmt: skip
    got = _paths(tmp_path, lines)
    assert got["ValueError"] == ("unknown", None)
    assert got["RuntimeError"][1] in ("EagleProposer", None)


def test_a_commenter_with_nothing_of_their_own_reads_the_reporters_run(tmp_path: Path) -> None:
    """ "Same here" with only a traceback: the reporter's launch is the thread's run."""
    lines = [*HEAD, "# [Bug] crash under load", "",
             "ana · description · 2025-11-02", f"`{SERVER} --speculative-algorithm NGRAM`", "",
             "dee · comment · 2025-11-03", "I can confirm, the same traceback:",
             *_crash("RuntimeError: CUDA error: an illegal memory access was encountered")]  # fmt: skip
    assert _paths(tmp_path, lines)["RuntimeError"] == ("other", "NGRAMWorker")


def test_a_writers_later_post_holds_their_launch(tmp_path: Path) -> None:
    """The reporter's crash, their launch posted later on request; a third writer's launch is
    not the reporter's."""
    lines = [*HEAD, "# [Bug] crash under load", "",
             "ana · description · 2025-11-02",
             *_crash("RuntimeError: CUDA error: an illegal memory access was encountered"), "",
             "eli · comment · 2025-11-03", f"Could you share the command? Mine is `{SERVER} --speculative-algorithm EAGLE`", "",
             "ana · comment · 2025-11-03", f"Sure: `{SERVER} --speculative-algorithm NGRAM`"]  # fmt: skip
    assert _paths(tmp_path, lines)["RuntimeError"] == ("other", "NGRAMWorker")


def test_a_crash_only_in_another_programs_frames_takes_no_titles_draft(tmp_path: Path) -> None:
    lines = [*HEAD, "# [Bug] Orbit-32B-EAGLE3 fails to load in transformers", "",
             "lee · description · 2025-10-01", "Just loading it with AutoModel:", "```",
             "Traceback (most recent call last):", '  File "/work/load.py", line 4, in <module>',
             '    m = AutoModelForCausalLM.from_pretrained("acme/Orbit-32B-EAGLE3")',
             '  File "/opt/venv/lib/python3.11/site-packages/transformers/modeling_utils.py", line 4420, in from_pretrained',
             "    raise ValueError(msg)", "ValueError: Unrecognized configuration class LlamaForCausalLMEagle3",
             "```"]  # fmt: skip
    assert _paths(tmp_path, lines)["ValueError"] == ("unknown", None)


@pytest.mark.parametrize(
    ("line", "author"),
    [
        ("ana · comment · 2025-11-02", "ana"),
        ("bob commented on Jul 2", "bob"),
        ("dave (Member) commented on 2025-01-03 • edited", "dave"),
        ("carol commented on Jan 3 that it works", None),
        ("zed-u commented 2 days ago", "zed-u"),
        ("pia-t opened this issue last week · 4 comments", "pia-t"),
        ("bo commented yesterday • edited", "bo"),
        ("He commented 2 days ago that it was fixed", None),
        ("I opened a similar issue on Jan 10, 2026 but nobody answered", None),
    ],
)
def test_a_post_header_names_its_writer(line: str, author: str | None) -> None:
    assert post_author(line) == author


def test_a_web_copys_bold_headers_part_the_posts(tmp_path: Path) -> None:
    """A browser copy heads posts "**ana** opened this issue on ...": the reporter's plain
    launch and crash are not the commenter's EAGLE3 run that "works" (the title speaks of
    speculation, so the plain command is no "none" either)."""
    lines = ["sgl-project/sglang · Issue #5160", "# [Bug] EAGLE3 crash at high concurrency", "",
             "**ana** opened this issue on Oct 5, 2025", "```", SERVER, "```",
             *_crash("RuntimeError: CUDA error: an illegal memory access was encountered"), "",
             "**bo** commented on Oct 7, 2025", "Mine uses EAGLE3 and works:",
             f"`{SERVER} --speculative-algorithm EAGLE3 --speculative-eagle-topk 1`"]  # fmt: skip
    assert _paths(tmp_path, lines)["RuntimeError"] in (("none", None), ("unknown", None))


def test_the_same_command_without_the_speculative_flags_is_a_plain_run(tmp_path: Path) -> None:
    lines = [*HEAD, "# [Bug] EAGLE3 crash at high concurrency", "",
             "ana · description · 2025-10-05", f"`{SERVER} --speculative-algorithm EAGLE3`", "(log lost)", "",
             "bo · comment · 2025-10-07", "I run the same command but without the --speculative-* flags and get:",
             *_crash("RuntimeError: CUDA error: an illegal memory access was encountered")]  # fmt: skip
    assert _paths(tmp_path, lines)["RuntimeError"] == ("unknown", None)


def test_the_reporters_follow_up_without_the_method_is_not_the_first_run(tmp_path: Path) -> None:
    lines = [*HEAD, "# [Bug] NGRAM crash", "", "ana · description · 2025-11-05",
             f"`{SERVER} --speculative-algorithm NGRAM`", "", "ana · comment · 2025-11-06",
             "Update: it also crashes after I removed NGRAM:", f"`{SERVER}`",
             *_crash("RuntimeError: CUDA error: an illegal memory access was encountered")]  # fmt: skip
    assert _paths(tmp_path, lines)["RuntimeError"][1] is None
