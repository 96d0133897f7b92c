"""A saved thread's header names the framework whose tracker it was filed on (lines ours)."""

from __future__ import annotations

import pytest

from spectrace.assemblers.thread_repo import header_engine, thread_engine


@pytest.mark.parametrize(
    ("line", "engine"),
    [("vllm-project/vllm · issue #123 · open · Python", "vllm"),
     ("vllm-project/vllm-ascend · pull request #45 · merged · Python", "vllm_ascend"),
     ("sgl-project/sglang · discussion #6 · open", "sglang"),
     ("[Bug] hang on warmup · Issue #77 · NVIDIA/TensorRT-LLM", "trtllm"),
     ("triton-inference-server/tensorrtllm_backend · issue #8 · closed", "trtllm"),
     ("ai-dynamo/dynamo · issue #9 · closed · Rust", None),
     ("see vllm-project/vllm · issue #123 for the same crash", None),
     ("https://github.com/vllm-project/vllm/issues/123", None)],
)  # fmt: skip
def test_header_engine(line: str, engine: str | None) -> None:
    assert header_engine(line) == engine


def test_headers_of_two_frameworks_name_none() -> None:
    assert thread_engine(["vllm-project/vllm · issue #1 · open"]) == "vllm"
    assert thread_engine(["vllm-project/vllm · issue #1 · open",
                          "sgl-project/sglang · issue #2 · open"]) is None  # fmt: skip


@pytest.mark.parametrize(
    ("line", "engine"),
    [("vllm - (How to fix) [Bug]: the MTP drafter fails to load", "vllm"),
     ("SGLang | NGRAM crash with HiCache", "sglang"),
     ("TensorRT-LLM - lookahead gives wrong text", "trtllm"),
     ("vllm-based gateway - notes", None),
     ("the vllm - sglang comparison below", None)],
)  # fmt: skip
def test_a_mirror_pages_title_led_by_the_project(line: str, engine: str | None) -> None:
    assert header_engine(line) == engine
