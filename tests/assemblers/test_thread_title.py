"""The thread-title reader: which line is a thread's title, what it names, and when its names
are not the reported run's. Every title here is our own, in the shapes trackers print."""

from __future__ import annotations

import pytest

from spectrace.assemblers.thread_title import Title, TitleReader, drafts_in, guard, methods_in
from spectrace.dialects.base import LogLine


def _read(*texts: str, source: str = "thread.md") -> TitleReader:
    reader = TitleReader()
    for n, text in enumerate(texts, 1):
        reader.feed(LogLine(source, n, 0, text, text, "plain", ""))
    return reader


def _one(*texts: str) -> Title:
    (title,) = _read(*texts).titles
    return title


def test_a_saved_threads_title_under_its_header_and_labels() -> None:
    title = _one("sgl-project/sglang · issue #901 · open · Python", "labels: amd",
                 "# [Bug] Llama-70B EAGLE-3 crashes with CUDA illegal memory access", "",
                 "alice · description · 2026-02-03")  # fmt: skip
    assert (title.shape, title.repo, title.pull, title.lineno) == ("saved", "sgl-project/sglang", False, 3)
    assert title.text.startswith("[Bug] Llama-70B") and title.run_methods() == ("EAGLE3",)


def test_a_pull_requests_title_is_marked_as_one() -> None:
    title = _one("sgl-project/sglang · pull request #902 · merged",
                 "# [Fix] wrong hidden size in STANDALONE speculative decoding")  # fmt: skip
    assert title.pull and title.run_methods() == ("STANDALONE",)


def test_a_browsers_page_title_and_an_issue_forms_first_line() -> None:
    page = _one("[Bug]: NGRAM spec decode hangs on B200 · Issue #77 · vllm-project/vllm")
    assert (page.shape, page.repo, page.text) == ("page", "vllm-project/vllm", "[Bug]: NGRAM spec decode hangs on B200")
    assert page.run_methods() == ("NGRAM",)
    form = _one("[Bug]: DFlash drafter crashes at batch size 64", "more text")
    assert (form.shape, form.repo, form.run_methods()) == ("form", None, ("DFLASH",))


def test_a_hash_line_far_from_any_header_is_no_title() -> None:
    assert _read("some notes", "# EAGLE3 setup", "text").titles == []
    assert _read("sgl-project/sglang · issue #1 · open", "a", "b", "c", "# [Bug] EAGLE crash").titles == []


def test_n_grams_as_a_text_metric_are_no_method() -> None:
    assert methods_in("[Bug] server crashes during our n-gram overlap (BLEU) eval") == ()
    assert methods_in("[Bug] no_repeat n-gram penalty ignored") == ()
    assert methods_in("[Bug] ngram speculative decoding hangs in our BLEU eval") == ("NGRAM",)
    assert methods_in("[Bug] NGRAM crash with radix cache") == ("NGRAM",)


def test_a_method_word_inside_a_file_name_is_no_method() -> None:
    assert methods_in("KeyError loading model-mtp-00001-of-00002.safetensors in the base model") == ()
    assert methods_in("crash in eagle_utils.py with EAGLE3") == ("EAGLE3",)


def test_a_draft_checkpoint_in_the_title_names_its_method() -> None:
    title = _one("sgl-project/sglang · issue #903 · open", "# [Bug] cuda graph capture on org/Qwen3-32B-EAGLE3")
    assert title.drafts == ("org/Qwen3-32B-EAGLE3",) and title.run_methods() == ("EAGLE3",)


@pytest.mark.parametrize(
    ("text", "drafts"),
    [
        ("serving https://huggingface.co/someone/EAGLE3-Llama-3.1-8B as draft", (("someone/EAGLE3-Llama-3.1-8B", "EAGLE3"),)),
        ("draft: org/sglang-EAGLE-llama2-chat-7B", (("org/sglang-EAGLE-llama2-chat-7B", "EAGLE"),)),
        ("the org/Big-Model-MTP head", (("org/Big-Model-MTP", "MTP"),)),
        ("--speculative-eagle-topk 4 and eagle_worker.py and llama_eagle3.py", ()),
        ("Eagle-3 and EAGLE-2 are methods, EAGLEWorker a class", ()),
        ("mtp-decode-0.mtp-decode.svc.cluster.local refused", ()),
    ],
)
def test_draft_checkpoint_names_and_what_is_not_one(text: str, drafts: tuple) -> None:
    assert drafts_in(text) == drafts


@pytest.mark.parametrize(
    ("title", "apart"),
    [
        ("[Bug] EAGLE3 crashes with TypeError: 'NoneType' object is not callable in verify", False),
        ("[Bug] EAGLE3 doesn't work with FP8 KV cache", False),
        ("Fix #4321: EAGLE crash on idle batches", False),
        ("[Feature] EAGLE3 for Qwen3-Next", True),
        ("[RFC] unify NGRAM and EAGLE workers", True),
        ("Support DFLASH in the overlap scheduler", True),
        ("EAGLE3 slower than no speculation on H20", True),
        ("Server crashes without EAGLE", True),
        ("Server crashes without any speculative decoding", True),
        ("[BUG]: With KVBM+MTP, the decode worker gets requests without disaggregated params", False),
        ("EAGLE3 hangs without CUDA graphs on H100", False),
        ("Does NGRAM work with HiCache?", True),
        ("docs: EAGLE3 example for Llama", True),
        ("fix(sglang): derive enable_eagle from SpeculativeAlgorithm.is_eagle() (covers EAGLE3)", True),
        ("[Bug] PD prefill crash; EAGLE3 works fine", True),
        ("[Bug] crash after turning MTP off", True),
        ("[Lookahead] UNAVAILABLE: Internal: unexpected error: bad optional access", False),
        ("[Bug] 关闭MTP后服务崩溃", True),
        ("[Bug] MTPを無効にするとクラッシュする", True),
        ("[Bug] MTP를 끄면 서버가 죽습니다", True),
        ("[CI Failure]: Spec Decode EAGLE3 test fails during graph capture", False),
        ("[CI] NGRAM e2e tests hang on the nightly runner", False),
        ("[CI] Add an EAGLE3 test for Qwen3", True),  # a CI change, not a CI run
        ("[CI/Build] EAGLE3 tests moved to the GPU pool", True),
        ("Nightly CI: EAGLE3 test flaky", True),  # no CI tag: "ci" and "test" set it apart
        ("[Bugfix] Fix ngram proposer crash on empty prompts", False),  # a proposer class, no proposal
        ("Proposed: NGRAM for the VLM path", True),
    ],
)
def test_a_title_sets_its_names_apart_on_its_own_words(title: str, apart: bool) -> None:
    assert (guard(title) is not None) is apart


def test_names_inside_an_exception_message_or_quotes_are_not_the_titles() -> None:
    assert methods_in('same as "EAGLE crash on H100"') == ("EAGLE",)  # methods_in reads words only
    message = _one("sgl-project/sglang · issue #905 · open", "# AssertionError: NGRAM needs topk 1 when serving")
    assert message.methods == ()
    title = _one("sgl-project/sglang · issue #904 · open", '# [Bug] same as "EAGLE crash on H100" but on MI300')
    assert title.run_methods() == ()


def test_drafts_named_in_prose_carry_their_lines_guard() -> None:
    reader = _read("We serve org/Qwen3-8B-EAGLE3 as the draft.", "Should we try org/Qwen3-8B-EAGLE3 instead?")
    assert [(d.lineno, d.draft, d.method, d.apart) for d in reader.drafts] == [
        (1, "org/Qwen3-8B-EAGLE3", "EAGLE3", False), (2, "org/Qwen3-8B-EAGLE3", "EAGLE3", True)]  # fmt: skip
