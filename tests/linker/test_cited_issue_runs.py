"""An issue reports its run by a title that reports a failure (``run_shown.reported_failure``),
however the copy cites the thread: the index's header with its ``# title`` below, or a citation
(``owner/repo#N · issue · closed``, ``owner/repo#N · closed`` with no kind word) with its title
on a line of its own and no ``#`` (users paste a thread that way; round 41's excerpts all read
so). A pull request's citation, a merged thread and a title reporting no failure report nothing.
Every line is ours."""

from __future__ import annotations

import pytest

from spectrace.assemblers.run_shown import reported_failure
from spectrace.path_mention_kinds import FAMILY_ROW, THREAD_KIND, TITLE_KIND, Mention


def _thread(head: str, title: str) -> list[Mention]:
    return [Mention("t.md", 1, title, "", FAMILY_ROW, TITLE_KIND),
            Mention("t.md", 2, head, "vllm", FAMILY_ROW, THREAD_KIND)]  # fmt: skip


@pytest.mark.parametrize(("head", "title"), [
    ("vllm-project/vllm#9102 · issue · closed · labels: bug",
     "[Bug]: ngram speculative decoding changes greedy output on a small model"),
    ("sgl-project/sglang#9103 · closed", "A 400B FP4 model on MI355X — GSM8K accuracy degradation with EAGLE"),
    ("vllm-project/vllm · issue #9104 · open", "# [Bug]: MTP crashes at batch 64"),
    ("vllm-project/vllm#9105 · open", "[Usage]: Why does the EAGLE3 acceptance rate drop on the model runner v2?"),
])  # fmt: skip
def test_a_cited_issue_whose_title_reports_a_failure_reports_its_run(head: str, title: str) -> None:
    assert reported_failure(_thread(head, title))


@pytest.mark.parametrize(("head", "title"), [
    ("sgl-project/sglang PR#9106 · pull request · closed", "[Fix] EAGLE crash at batch 64"),
    ("vllm-project/vllm#9107 · merged", "[Bugfix] MTP crash at batch 64"),
    ("vllm-project/vllm#9108 · issue · open", "[Feature]: support EAGLE3 for a new model"),
    ("vllm-project/vllm#9109 · issue · open", "[Usage]: How do I enable MTP?"),
])  # fmt: skip
def test_a_pull_requests_citation_or_a_title_reporting_no_failure_reports_nothing(head: str, title: str) -> None:
    assert not reported_failure(_thread(head, title))
