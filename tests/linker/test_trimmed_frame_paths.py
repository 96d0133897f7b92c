"""A frame path trimmed to its package-relative part is the file of the one framework it ends.

Debug hooks that print their own stacks, and writers who shorten a paste, leave frames such as
``File "spec_decode/dflash_proposer.py", line 304`` with no package prefix. Where every table
row that path could end belongs to one framework (only vllm-ascend has a
``spec_decode/dflash_proposer.py``), the frame is that file's; where two frameworks have it
(``spec_decode/llm_base_proposer.py``: vLLM's ``v1/`` and vllm-ascend's), it is neither. A bare
file name or an absolute path stays as before. Every line here is written by us."""

from __future__ import annotations

from pathlib import Path

import pytest

from spectrace.assemblers.crash import Frame
from spectrace.path_frames import frame_signature
from tests.real_logs_helpers import assert_verdict, crash_path, run


@pytest.mark.parametrize(
    ("file", "function", "framework"),
    [
        ("spec_decode/dflash_proposer.py", "build_model_inputs_first_pass", "vllm_ascend"),
        ("./spec_decode/medusa_proposer.py", "propose", "vllm_ascend"),
        ("spec_decode/eagle.py", "propose", "vllm"),
        ("v1/spec_decode/ngram_proposer.py", "propose", "vllm"),
        ("spec_decode/llm_base_proposer.py", "load_model", None),  # vLLM's and vllm-ascend's
        ("eagle_proposer.py", "propose", None),  # a bare name: no package part at all
        ("/opt/app/spec_decode/dflash_proposer.py", "propose", None),  # an absolute path elsewhere
    ],
)
def test_a_trimmed_path_is_the_one_framework_it_ends(file: str, function: str, framework: str | None) -> None:
    sig = frame_signature(Frame(file, 10, function))
    assert (sig.framework if sig is not None else None) == framework, sig


def test_a_debug_hooks_stack_with_trimmed_paths_names_the_plugins_file(tmp_path: Path) -> None:
    """A journal's probe output: the proposers' frames relative to the plugin's package."""
    lines = [
        "[DBG] proposer._run_merged_draft RAISED RuntimeError:",
        "Traceback (most recent call last):",
        '  File "spec_decode/llm_base_proposer.py", line 1262, in _run_merged_draft',
        "    self.build_model_inputs_first_pass(...)",
        '  File "spec_decode/dflash_proposer.py", line 304, in build_model_inputs_first_pass',
        "    self.model.precompute_and_store_context_kv(...)",
        '  File "models/deepseek_v4/draft.py", line 243, in _store_kv',
        "RuntimeError: npu_scatter_nd_update() Expected a value of type 'Tensor' but found type 'tuple'",
    ]
    path = crash_path(run(tmp_path, lines))
    assert_verdict(path, "unknown", "AscendDflashProposer|AscendDSparkProposer")


def test_a_trimmed_py_spy_dump_names_the_plugins_renamed_file(tmp_path: Path) -> None:
    lines = [
        'Thread 812 (active): "MainThread"',
        "    propose (spec_decode/medusa_proposer.py:88)",
        "    propose_draft_token_ids (worker/model_runner_v1.py:1932)",
        "RuntimeError: HCCL watchdog timeout after 1800 s",
    ]
    crash = next(i for i in run(tmp_path, lines).incidents if i.root_cause)
    assert crash.worker_path is not None
    assert_verdict(crash.worker_path, "unknown", "MedusaProposer|AscendMedusaProposer")


def test_a_trimmed_vllm_frame_with_its_launch_decides(tmp_path: Path) -> None:
    lines = [
        "vllm serve /data/Qwen3-8B --speculative-config '{\"method\": \"ngram\", "
        "\"num_speculative_tokens\": 4, \"prompt_lookup_max\": 4}'",
        "Traceback (most recent call last):",
        '  File "v1/worker/gpu_model_runner.py", line 3120, in propose_draft_token_ids',
        "    draft_token_ids = self.drafter.propose(",
        '  File "v1/spec_decode/ngram_proposer.py", line 131, in propose',
        "IndexError: index 4096 is out of bounds for axis 0 with size 4096",
    ]
    path = crash_path(run(tmp_path, lines))
    assert (path.value, path.worker_class) == ("other", "NgramProposer"), path
