"""A vLLM 0.11 EAGLE-3 crash as one process-tagged log (lines written by us in its format):
the config, the interval's two stats lines and the engine core's traceback are read together,
so the shape mismatch is explained from the running batch and num_spec_tokens."""

from __future__ import annotations

from pathlib import Path

from spectrace.pipeline import analyse

EC = "(EngineCore_DP0 pid=12) "
API = "(APIServer pid=10) "
ERR = EC + "ERROR 10-05 12:01:02 [core.py:710] "
LOG = [
    API + "INFO 10-05 12:00:00 [api_server.py:1839] vLLM API server version 0.11.0",
    EC + "INFO 10-05 12:00:05 [core.py:77] Initializing a V1 LLM engine (v0.11.0) with config: "
    "model='m', speculative_config=SpeculativeConfig(method='eagle3', model='d', "
    "num_spec_tokens=3), tokenizer='m', tokenizer_mode=auto, tensor_parallel_size=1",
    API + "INFO 10-05 12:01:00 [loggers.py:127] Engine 000: Avg prompt throughput: 1.0 tokens/s, "
    "Avg generation throughput: 500.0 tokens/s, Running: 10 reqs, Waiting: 0 reqs, "
    "GPU KV cache usage: 5.0%, Prefix cache hit rate: 0.0%",
    API + "INFO 10-05 12:01:00 [metrics.py:96] SpecDecoding metrics: Mean acceptance length: 2.50, "
    "Accepted throughput: 10.00 tokens/s, Drafted throughput: 20.00 tokens/s, Accepted: 100 tokens, "
    "Drafted: 200 tokens, Per-position acceptance rate: 0.700, 0.500, 0.300, "
    "Avg Draft acceptance rate: 50.0%",
    ERR + "EngineCore encountered a fatal error.",
    ERR + "Traceback (most recent call last):",
    ERR + '  File "/x/vllm/v1/worker/gpu_model_runner.py", line 2301, in propose_draft_token_ids',
    ERR + "    draft_token_ids = self.drafter.propose(",
    ERR + '  File "/x/vllm/v1/spec_decode/eagle.py", line 240, in propose',
    ERR + "    hidden_states = hidden_states[last_token_indices]",
    ERR + "RuntimeError: The size of tensor a (40) must match the size of tensor b (10) at "
    "non-singleton dimension 0",
    API + "ERROR 10-05 12:01:02 [core_client.py:564] Engine core proc EngineCore_DP0 died "
    "unexpectedly, shutting down client.",
]


def test_eagle3_shape_mismatch_is_explained_from_the_interval_stats(tmp_path: Path) -> None:
    path = tmp_path / "vllm.log"
    path.write_text("\n".join(LOG) + "\n")
    root, died = analyse([str(path)]).incidents
    assert (root.origin_rank, root.crash_class, died.caused_by) == (
        "EngineCore_DP0",
        "shape_mismatch",
        root.id,
    )
    assert root.load is not None and (root.load.running_req, root.load.accept_len) == (10, 2.5)
    assert root.explanation is not None and root.explanation.explained
    assert "10 running requests × 4" in root.explanation.summary
    assert root.worker_path is not None and root.worker_path.worker_class == "EagleProposer"
