"""A pull request title's templated ticket-and-type tag ("[None][fix] ", "[TRTLLM-1234][fix] ":
every TensorRT-LLM PR carries one) claims no failure by its type alone: "[None][fix] MTP
Speculative Sampling" with a bot summary and an empty test section is a change to code, no fix
of a run the text tells (``run_shown._fix_title``). Its words still make it a fix ("[None][fix]
Fix MTP crash ...", a failure named), and a tag a writer chose ("[Bugfix] ...") still does. Every
line is ours, in the shape of saved TensorRT-LLM PRs (round 42 08)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_verdict, roots, run
from spectrace.assemblers.run_shown import pull_about_code
from spectrace.path_mention_kinds import FAMILY_ROW, THREAD_KIND, TITLE_KIND, Mention

PROBE = ["Traceback (most recent call last):", '  File "probe.py", line 1, in <module>',
         "RuntimeError: probe"]  # fmt: skip
BODY = ["## Summary by CodeRabbit", "* **Bug Fixes**",
        "  * Improved MTP sampling state handling in multi-token prediction.", "",
        "## Test Coverage", ""]  # fmt: skip


def _path(tmp_path: Path, title: str, body: list[str] = BODY):
    lines = ["NVIDIA/TensorRT-LLM · pull request #12101 · merged · Python", f"# {title}", "",
             "dev-e · description · 2026-01-28", *body, *PROBE]  # fmt: skip
    (crash,) = roots(run(tmp_path, lines, name="thread.md"))
    return crash.worker_path


@pytest.mark.parametrize("title", [
    "[None][fix] MTP Speculative Sampling",
    "[TRTLLM-1234][fix] MTP sampling with attention DP",
    "[https://nvbugs/5012345][fix] MTP draft sampling path",
])  # fmt: skip
def test_a_templated_fix_type_over_a_features_name_shows_no_run(tmp_path: Path, title: str) -> None:
    path = _path(tmp_path, title)
    assert path is None or (path.worker_class is None and not path.conditional), path


@pytest.mark.parametrize("title", [
    "[None][fix] Fix MTP crash at batch 64",
    "[None][fix] MTP output garbled at batch 64",
    "[Bugfix] MTP sampling state",
])  # fmt: skip
def test_a_fix_said_in_words_or_a_chosen_fix_tag_still_tells_its_run(tmp_path: Path, title: str) -> None:
    """A fix tells the run it fixes where its description shows something of it (here the rig
    it was seen on; the issue it closes is that thread's run, session 25); a fix whose description
    only words the code change shows none (session 23: ``not_run.FIX_TOLD``,
    tests/test_runprose23.py)."""
    body = [*BODY[:3], "Seen on 8xB200 serving the DeepSeek-R1 MTP checkpoint.", *BODY[3:]]
    assert_verdict(_path(tmp_path, title, body), "unknown", "MTPWorker|MTPEagleWorker")
    path = _path(tmp_path, title)
    assert path is None or (path.worker_class is None and not path.conditional), path


@pytest.mark.parametrize(("head", "tree"), [
    ("NVIDIA/TensorRT-LLM pull request #12102 · merged", True),
    ("sgl-project/sglang PR#12103 · pull request · closed", True),
    ("vllm-project/vllm#12104 · merged", True),
    ("vllm-project/vllm-ascend pull request #12105 · open", True),
    ("SemiAnalysisAI/InferenceX PR#12106 · pull request · open", False),
    ("acme/vllm-recipes pull request #12107 · open", False),
])  # fmt: skip
def test_an_engine_trees_pull_request_is_about_code_in_every_head_form(head: str, tree: bool) -> None:
    """A pull request of an engine's own tree shows its run only by its own lines
    (``pull_about_code``), however the copy cites it; a recipe or benchmark repository's may
    deploy one."""
    mentions = [Mention("t.md", 1, head, "", FAMILY_ROW, THREAD_KIND),
                Mention("t.md", 2, "# MTP sampling state", "", FAMILY_ROW, TITLE_KIND)]  # fmt: skip
    assert pull_about_code(mentions) is tree
