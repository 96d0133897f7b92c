"""A thread of a vLLM plugin that patches the speculative path (ArcticInference: its own suffix
proposer, before and beside vLLM's) keeps the method's family and names vLLM's class only as a
condition; the same command in a plain vLLM thread decides vLLM's class."""

from __future__ import annotations

from asm_helpers import collect_config as collect

from spectrace.linker import global_worker_path

CMD = ("`python3 -m vllm.entrypoints.openai.api_server --model my/model "
       "--speculative_config '{\"method\": \"suffix\"}'`")  # fmt: skip


def test_the_plugins_repository_or_package_makes_vllms_class_a_condition() -> None:
    for named in ("snowflakedb/ArcticInference · issue #9 · open",
                  "pip install arctic-inference[vllm] first"):  # fmt: skip
        path = global_worker_path(collect(named, CMD))
        assert (path.worker_class, path.family) == (None, "SUFFIX")
        assert "SuffixDecodingProposer" in (path.conditional or "")
        assert "arctic_inference plugin" in (path.conditional or "")
    assert global_worker_path(collect(CMD)).worker_class == "SuffixDecodingProposer"
