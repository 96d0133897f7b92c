"""Where a pasted thread was filed, in every form people copy it: the thread-head reader
(``thread_head``). Every line here is our own, in the shapes trackers, browsers and mail print."""

from __future__ import annotations

import pytest

from spectrace.assemblers.thread_head import Head, HeadReader, head_line, issue_head
from spectrace.dialects.base import LogLine


def _heads(*texts: str, source: str = "thread.md") -> list[Head]:
    reader = HeadReader()
    for n, text in enumerate(texts, 1):
        reader.feed(LogLine(source, n, 0, text, text, "plain", ""))
    return reader.heads


def _one(*texts: str) -> tuple[str | None, int, str | None, str | None]:
    (head,) = _heads(*texts)
    return head.repo, head.number, head.kind, head.title


@pytest.mark.parametrize(
    ("line", "repo", "number", "kind", "state"),
    [("sgl-project/sglang · issue #20148 · open · Python", "sgl-project/sglang", 20148, "issue", "open"),
     ("vllm-project/vllm#41758 · issue · closed · labels: bug, stale", "vllm-project/vllm", 41758, "issue", "closed"),
     ("vllm-project/vllm#7586 · closed", "vllm-project/vllm", 7586, None, "closed"),
     ("sgl-project/sglang pull request #28395 · closed", "sgl-project/sglang", 28395, "pull", "closed"),
     ("vllm-project/vllm PR#46032 · pull request · open", "vllm-project/vllm", 46032, "pull", "open"),
     ("NVIDIA/TensorRT-LLM PR #11807 · merged", "NVIDIA/TensorRT-LLM", 11807, "pull", "merged"),
     ("vllm-project/vllm-ascend issue #9871 · open · labels: mtp", "vllm-project/vllm-ascend", 9871, "issue", "open"),
     ("sgl-project/sglang#31 · discussion · answered", "sgl-project/sglang", 31, "discussion", "answered")],
)  # fmt: skip
def test_a_header_with_dotted_fields_is_read_on_any_line(
    line: str, repo: str, number: int, kind: str | None, state: str
) -> None:
    head = head_line(line)
    assert head is not None and (head.repo, head.number, head.kind, head.state) == (repo, number, kind, state)


@pytest.mark.parametrize(
    ("line", "repo", "kind", "title"),
    [("[Bug]: NGRAM hangs on B200 · Issue #77 · vllm-project/vllm", "vllm-project/vllm", "issue", "[Bug]: NGRAM hangs on B200"),
     ("[Bug]: NGRAM hangs on B200 · Issue #77 · vllm-project/vllm · GitHub", "vllm-project/vllm", "issue", "[Bug]: NGRAM hangs on B200"),
     ("[Fix] MTP hang on GB200 by alice-dev · Pull Request #9 · sgl-project/sglang · GitHub", "sgl-project/sglang", "pull", "[Fix] MTP hang on GB200")],
)  # fmt: skip
def test_a_browsers_page_title_with_or_without_the_site_name(
    line: str, repo: str, kind: str, title: str
) -> None:
    head = head_line(line)
    assert head is not None and (head.repo, head.kind, head.title) == (repo, kind, title)


@pytest.mark.parametrize(
    "line",
    ["see vllm-project/vllm#123 for the same crash",
     "fixed by sgl-project/sglang#4557 · thanks",
     "vllm-project/vllm#123 · labels: bug",  # no kind, no state: a label list
     "the EAGLE / MTP comparison · issue 3",
     "INFO 01-02 12:00:00 [loggers.py:123] Avg prompt throughput: 10.0 tokens/s"]
)  # fmt: skip
def test_a_reference_in_a_sentence_is_no_header(line: str) -> None:
    assert head_line(line) is None


@pytest.mark.parametrize(
    ("texts", "repo", "number", "kind"),
    [(("https://github.com/vllm-project/vllm/issues/41758", "", "[Bug]: ngram output differs"), "vllm-project/vllm", 41758, "issue"),
     (("[Bug]: ngram output differs", "https://github.com/vllm-project/vllm/pull/46032#issuecomment-123"), "vllm-project/vllm", 46032, "pull"),
     (("URL: <https://github.com/sgl-project/sglang/discussions/600>",), "sgl-project/sglang", 600, "discussion"),
     (("https://github.com/NVIDIA/TensorRT-LLM/pull/11807/files",), "NVIDIA/TensorRT-LLM", 11807, "pull")],
)  # fmt: skip
def test_the_threads_url_alone_on_a_head_line(
    texts: tuple[str, ...], repo: str, number: int, kind: str
) -> None:
    assert _one(*texts)[:3] == (repo, number, kind)


@pytest.mark.parametrize(
    ("subject", "repo", "kind", "title"),
    [("[vllm-project/vllm] [Bug]: EAGLE3 crashes with TP=8 (Issue #5001)", "vllm-project/vllm", "issue", "[Bug]: EAGLE3 crashes with TP=8"),
     ("Re: [sgl-project/sglang] Fix NEXTN hang on H20 (PR #7002)", "sgl-project/sglang", "pull", "Fix NEXTN hang on H20"),
     ("[NVIDIA/TensorRT-LLM] MTP accuracy drop (#3003)", "NVIDIA/TensorRT-LLM", None, "MTP accuracy drop")],
)  # fmt: skip
def test_a_notification_mails_subject(subject: str, repo: str, kind: str | None, title: str) -> None:
    head = _one(subject)
    assert (head[0], head[2], head[3]) == (repo, kind, title)


def test_an_issue_named_by_number_gives_its_kind_and_title_but_no_tracker() -> None:
    assert _one("Issue #4412: EAGLE3 draft crashes on load") == (None, 4412, "issue", "EAGLE3 draft crashes on load")
    assert _one("PR #88 - Fix MTP with chunked prefill")[2] == "pull"


@pytest.mark.parametrize(
    ("texts", "repo", "kind"),
    [(("[Bug]: DFlash drafts garbage on Qwen3 #41262", "Open", "alice opened this issue on Jun 3, 2026 · 4 comments"), None, "issue"),
     (("vllm-project / vllm", "Public", "[Bug]: DFlash drafts garbage on Qwen3 #41262", "Closed",
       "bob opened this issue on Jun 3, 2026 · 4 comments"), "vllm-project/vllm", "issue"),
     (("Fix EAGLE radix cache #10846", "Merged", "carol merged 2 commits into main from carol:fix"), None, "pull"),
     (("https://github.com/sgl-project/sglang/pull/10846", "Fix EAGLE radix cache #10846", "Open",
       "dave wants to merge 3 commits into sgl-project:main from dave:fix"), "sgl-project/sglang", "pull")],
)  # fmt: skip
def test_githubs_web_copy_a_title_with_its_number_then_its_state(
    texts: tuple[str, ...], repo: str | None, kind: str
) -> None:
    last = _heads(*texts)[-1]
    assert (last.shape, last.repo, last.kind) == ("web", repo, kind)
    assert last.title is not None and last.title.startswith(("[Bug]: DFlash", "Fix EAGLE")) and "#" not in last.title


def test_a_title_with_a_number_but_no_state_under_it_is_no_web_copy() -> None:
    assert _heads("Throughput drops by 30% with MTP #2", "", "We see it on H100.") == []


def test_a_link_or_number_below_the_first_post_names_no_head() -> None:
    assert _heads("My EAGLE3 server dies on start.", "alice · description · 2026-03-01",
                  "Same as https://github.com/vllm-project/vllm/issues/123", "",
                  "https://github.com/vllm-project/vllm/pull/9", "Issue #5: same crash") == []  # fmt: skip


def test_a_quoted_or_late_url_line_names_no_head() -> None:
    lines = [f"line {n} of the log" for n in range(1, 20)] + ["https://github.com/vllm-project/vllm/issues/7"]
    assert _heads(*lines) == []
    assert _heads("> https://github.com/vllm-project/vllm/issues/7") == []  # a quote of another post


def test_a_citation_without_a_kind_word_is_an_issue_and_a_merged_one_is_not() -> None:
    assert issue_head("sgl-project/sglang#4536 · closed")
    assert issue_head("vllm-project/vllm#1 · issue · open")
    assert not issue_head("sgl-project/sglang PR#31979 · pull request · closed")
    assert not issue_head("sgl-project/sglang#10846 · merged")
    assert not issue_head("see sgl-project/sglang#4536")


def test_a_number_too_long_for_an_issue_is_no_head() -> None:
    assert head_line("vllm-project/vllm#" + "9" * 5000 + " · closed") is None
    assert _heads("[Bug]: x #" + "7" * 5000, "Open", "alice opened this issue on Jan 2, 2026") == []
