"""vLLM / TensorRT-LLM text that names a worker, a class or a config that is not the run's: a
file or class named for another report or run, a commented-out config, a config a conditional
expression may not have passed. None of them may decide the path (lines written by us)."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import roots, run

VL = "/srv/venv/lib/python3.12/site-packages/vllm"
VLLM_CRASH = ["Traceback (most recent call last):",
              f'  File "{VL}/v1/engine/core.py", line 700, in run_engine_core',
              "    engine_core.run_busy_loop()",
              f'  File "{VL}/v1/worker/gpu_model_runner.py", line 2100, in execute_model',
              "    out = self.model(ids)",
              "RuntimeError: CUDA error: misaligned address"]  # fmt: skip
SERVE = "vllm serve org/target-8b --tensor-parallel-size 4"


def _verdict(tmp_path: Path, lines: list[str]):
    found = [c.worker_path for c in roots(run(tmp_path, lines)) if c.worker_path is not None]
    assert found
    return found[0]


@pytest.mark.parametrize(
    "lines",
    [["As a pointer, ngram_proposer.py:88 in an older report crashed the same way.", *VLLM_CRASH],
     [SERVE, *VLLM_CRASH, "Maybe unrelated: the previous run printed 'EagleProposer' has no "
      "attribute 'runner'"],
     ["For reference, eagle.py's EagleProposer.propose works fine on 0.9; we do not use it.",
      *VLLM_CRASH]],
)  # fmt: skip
def test_a_worker_named_for_another_run_decides_nothing(tmp_path: Path, lines) -> None:
    path = _verdict(tmp_path, lines)
    assert (path.value, path.worker_class) == ("unknown", None)


@pytest.mark.parametrize(
    "lines",
    [["#!/bin/bash", """# drafting: --speculative-config '{"method": "ngram", "num_speculative_tokens": 4}'""",
      SERVE, *VLLM_CRASH],
     ["serve.yaml:", "tensor-parallel-size: 4", "# speculative-config:", "#   method: suffix",
      *VLLM_CRASH],
     ["from vllm import LLM", "DRAFT = False",
      """llm = LLM(model="org/t", speculative_config={"method": "mtp", "num_speculative_tokens": 1}"""
      " if DRAFT else None)", *VLLM_CRASH]],
)  # fmt: skip
def test_a_config_the_run_did_not_pass_decides_nothing(tmp_path: Path, lines) -> None:
    path = _verdict(tmp_path, lines)
    assert path.worker_class is None and path.value in ("unknown", "none")
    assert path.conditional is None


def test_a_live_config_beside_them_still_decides(tmp_path: Path) -> None:
    lines = ["from vllm import LLM",
             """llm = LLM(model="org/t", speculative_config={"method": "ngram", "num_speculative_tokens": 4})""",
             *VLLM_CRASH]  # fmt: skip
    assert _verdict(tmp_path, lines).worker_class == "NgramProposer"


TRT = "/opt/py/site-packages/tensorrt_llm"
RUNPY_CRASH = ["Traceback (most recent call last):",
               '  File "/srv/trt/examples/run.py", line 880, in <module>',
               f'  File "{TRT}/runtime/model_runner_cpp.py", line 700, in generate',
               "RuntimeError: [TensorRT-LLM][ERROR] CUDA runtime error: illegal address"]  # fmt: skip


@pytest.mark.parametrize(
    "lines",
    [["Per the backend README: tensorrt_llm_draft_model_name: The draft model's name, empty "
      "when not drafting", "We keep it empty.", *RUNPY_CRASH],
     ["#!/bin/bash", "# for lookahead later: --lookahead_config=[4,4,4]",
      "python3 run.py --engine_dir ./e --max_output_len 64", *RUNPY_CRASH],
     ["NVIDIA/TensorRT-LLM · issue #77 · open",
      "Lookahead is faster than what we run, plain beam search; this crash is from beam search:",
      *RUNPY_CRASH],
     ["speculative_config:", "  decoding_type: null", *RUNPY_CRASH]],
)  # fmt: skip
def test_trtllm_words_that_are_not_the_runs_mode_decide_nothing(tmp_path: Path, lines) -> None:
    path = _verdict(tmp_path, lines)
    assert path.worker_class is None and path.value in ("unknown", "none")
    assert path.family in (None, "")


def test_vllm_use_v1_0_puts_a_v1_spelled_method_on_v0(tmp_path: Path) -> None:
    """The env sets the engine; a crash through the V1 engine's own files (``vllm/v1/``) shows
    V1 ran whatever the env says (tests/test_vllm_engine_switch.py), so the crash here is V0's."""
    v0_crash = ["Traceback (most recent call last):",
                f'  File "{VL}/engine/llm_engine.py", line 1386, in step',
                "    outputs = self.model_executor.execute_model(",
                "RuntimeError: CUDA error: misaligned address"]  # fmt: skip
    lines = ["VLLM_USE_V1=0 vllm serve org/t --speculative-config "
             """'{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 3}'""",
             *v0_crash]  # fmt: skip
    assert _verdict(tmp_path, lines).worker_class == "NGramWorker"


@pytest.mark.parametrize(
    "sentence",
    ["EAGLE-3 is on our roadmap for the next release.", "We removed the Medusa heads last month.",
     "The MTP fix in #4444 is unrelated.", "The README example turns on ngram drafting."],
)  # fmt: skip
def test_a_family_named_as_a_plan_a_past_or_the_docs_names_no_class(tmp_path: Path, sentence) -> None:
    path = _verdict(tmp_path, ["vllm-project/vllm · issue #5 · open", sentence, *VLLM_CRASH])
    assert path.worker_class is None and path.conditional is None
