"""TensorRT-LLM's engine-flow example scripts for draft-target and prompt-lookup decoding
(round 14): a traceback through ``examples/prompt_lookup/run_dtm_pld.py`` or a run of
``examples/draft_target_model/`` feeds the target engine the draft's tokens from outside."""

from __future__ import annotations

import pytest
from asm_helpers import collect_config as collect

from spectrace.assemblers.trtllm_config import trtllm_spec_flags
from spectrace.linker import global_worker_path


@pytest.mark.parametrize(
    "line",
    ['  File "/opt/trt/examples/prompt_lookup/run_dtm_pld.py", line 90, in run_dtm_pld',
     "python3 examples/draft_target_model/run_draft.py --engine_dir /e"],
)  # fmt: skip
def test_the_draft_target_examples_run_the_external_draft_tokens_layer(line) -> None:
    assert trtllm_spec_flags(line)["speculative_config.method"] == "draft_tokens_external"
    path = global_worker_path(collect(line))
    assert (path.value, path.worker_class, path.family) == (
        "other",
        "ExternalDraftTokensLayer",
        "DRAFT_TARGET",
    )


def test_another_example_script_names_no_mode() -> None:
    assert trtllm_spec_flags('  File "/opt/trt/examples/prompt_lookup/notes.py", line 3') == {}
