"""Documents with no run of their own get no path (issue 11, session 27, POSTT).

The shape: a saved configuration file (its caption names a YAML file; every line past it is a
YAML key, no log record, no frame). Its method keys are settings, not a run's. A run that shows
its own log records or a crash through the engine's tree beside the same lines keeps its path.
Every line below is our own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_no_path, crash_path, probed_path, run

# ---- a saved configuration file ---------------------------------------------------------------

_TRT_KEYS = [
    "  kv_cache_config:",
    "    free_gpu_memory_fraction: 0.8",
    "    enable_block_reuse: false",
    "  enable_attention_dp: true",
    "  cuda_graph_config:",
    "    max_batch_size: 64",
    "  speculative_config:",
    "    decoding_type: MTP",
    "    num_nextn_predict_layers: 2",
]
TRT_RECIPE = [
    "acme-lab/serving-recipes · configs/ds-r1-fp4-mtp2.yaml (commit 0a1b2c3d, 2026-03-02)",
    "",
    "job: ds-r1-fp4-mtp2",
    "image: nvcr.io/nvidia/tensorrt-llm/release:1.2.0",
    "worker:",
    *_TRT_KEYS,
]
VLLM_VALUES = [
    "infra-team/llm-charts · charts/serving/values-eagle3.yml (commit 9d8c7b6a, 2026-05-11)",
    "model: org/target-70b",
    "replicas: 2",
    "engine:",
    "  name: vllm",
    "  tensor_parallel_size: 4",
    "  max_model_len: 32768",
    "  speculative_config:",
    "    method: eagle3",
    "    model: org/target-70b-eagle3",
    "    num_speculative_tokens: 4",
]


@pytest.mark.parametrize("lines", [TRT_RECIPE, VLLM_VALUES], ids=["trtllm-recipe", "vllm-values"])
def test_a_saved_config_file_names_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


def test_the_same_config_beside_its_servers_records_keeps_the_run(tmp_path: Path) -> None:
    """The values file pasted above the server's own log: the records show the run."""
    lines = [
        *VLLM_VALUES,
        "",
        "INFO 03-02 10:01:12 [__init__.py:239] Automatically detected platform cuda.",
        "INFO 03-02 10:01:15 [api_server.py:1090] vLLM API server version 0.10.1",
        "INFO 03-02 10:01:40 [gpu_model_runner.py:1901] Loading drafter model...",
    ]
    assert probed_path(tmp_path, lines).worker_class == "EagleProposer"


def test_config_keys_in_a_report_with_sentences_are_no_config_file(tmp_path: Path) -> None:
    """A report that states its setup in sentences around the keys is not a saved file."""
    lines = [
        "We serve this with vLLM 0.10.1 and it dies after a few minutes of traffic.",
        "Our engine section:",
        *VLLM_VALUES[3:],
        "It crashed twice today with the traceback below.",
    ]
    assert probed_path(tmp_path, lines).worker_class == "EagleProposer"


def test_a_config_file_with_a_crash_through_the_tree_keeps_the_run(tmp_path: Path) -> None:
    """A frame through the engine's folders is a run's crash, whatever the file above it."""
    lines = [
        *VLLM_VALUES,
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3/site-packages/vllm/v1/spec_decode/eagle.py", line 210, in propose',
        "RuntimeError: draft forward failed",
    ]
    assert crash_path(run(tmp_path, lines)).worker_class == "EagleProposer"
