"""vLLM V0 runs whose crash shows only the SpecDecodeWorker wrapper: the proposer worker the
run's speculative config makes SpecDecodeWorker.create_worker build is the verdict (round 19
study: a V0 draft-model run was named SpecDecodeWorker with no family), and VLLM_USE_V1=0
settles a draft model's release condition.

Every line here is written by us in the real shapes; none is pasted."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import roots, run

SITE = "/home/u/.venv/lib/python3.12/site-packages/vllm"
HEAD = "(VllmWorkerProcess pid=4242) ERROR 05-02 10:00:00 [multiproc_worker_utils.py:238] "
WRAPPER_CRASH = [
    f"{HEAD}Traceback (most recent call last):",
    f'{HEAD}  File "{SITE}/spec_decode/spec_decode_worker.py", line 1258, in _vocab_size',
    f"{HEAD}    assert all(vocab_sizes[0] == vocab_size for vocab_size in vocab_sizes)",
    f"{HEAD}AssertionError",
]


def _serve(config: str, env: str = "VLLM_USE_V1=0 ") -> str:
    return f"{env}vllm serve org/Big-32B --tensor-parallel-size 2 --speculative-config '{config}'"


@pytest.mark.parametrize(
    ("config", "worker", "family"),
    [
        ('{"model": "org/Small-1B", "num_speculative_tokens": 5}', "MultiStepWorker", "DRAFT_MODEL"),
        ('{"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 3}',
         "NGramWorker", "NGRAM"),
        ('{"method": "mlp_speculator", "model": "org/Big-32B-accelerator"}',
         "MLPSpeculatorWorker", "MLP_SPECULATOR"),
        ('{"method": "medusa", "model": "org/medusa-heads"}', "MedusaWorker", "MEDUSA"),
    ],
)
def test_a_wrapper_frame_takes_the_configs_v0_proposer(
    tmp_path: Path, config: str, worker: str, family: str
) -> None:
    (crash,) = roots(run(tmp_path, [_serve(config), *WRAPPER_CRASH]))
    path = crash.worker_path
    assert path is not None
    assert (path.value, path.worker_class, path.framework, path.family) == (
        "other", worker, "vllm", family)  # fmt: skip
    first = path.evidence[0]
    assert first.lineno == 1 and first.reason.startswith("vLLM V0 engine (SpecDecodeWorker")
    assert f"builds {worker}" in first.reason
    wrapper = [e for e in path.evidence if e.worker_class == "SpecDecodeWorker"]
    assert wrapper and "spec_decode_worker.py" in wrapper[0].text  # the engine's proof stays
    assert path.conflict is None


def test_a_method_v0_never_ran_leaves_the_wrapper(tmp_path: Path) -> None:
    """``mtp`` came after V0's last release: no V0 proposer is invented for it."""
    (crash,) = roots(run(tmp_path, [_serve('{"method": "mtp", "num_speculative_tokens": 1}', ""),
                                    *WRAPPER_CRASH]))  # fmt: skip
    path = crash.worker_path
    assert path is not None and path.worker_class != "MultiStepWorker"
    assert not any(e.reason.startswith("vLLM V0 engine") for e in path.evidence)


def test_the_wrapper_alone_still_names_the_wrapper(tmp_path: Path) -> None:
    (crash,) = roots(run(tmp_path, WRAPPER_CRASH))
    path = crash.worker_path
    assert path is not None and (path.value, path.worker_class) == ("other", "SpecDecodeWorker")


def test_vllm_use_v1_0_settles_a_draft_models_release_condition(tmp_path: Path) -> None:
    """No release printed: a method-less draft model is MultiStepWorker on V0, a refusal on
    0.10-0.16 and DraftModelProposer from 0.17; the switch set for the run picks V0."""
    crash = [
        "Traceback (most recent call last):",
        f'  File "{SITE}/engine/llm_engine.py", line 1400, in step',
        "RuntimeError: CUDA error: an illegal memory access was encountered",
    ]
    lines = [_serve('{"model": "org/Small-1B", "num_speculative_tokens": 5}'), *crash]
    (root,) = roots(run(tmp_path, lines))
    path = root.worker_path
    assert path is not None
    assert (path.value, path.worker_class, path.conditional) == ("other", "MultiStepWorker", None)
    assert "VLLM_USE_V1=0 set for the run" in path.evidence[0].reason
    plain = [_serve('{"model": "org/Small-1B", "num_speculative_tokens": 5}', ""), *crash]
    (root,) = roots(run(tmp_path, plain, "plain.log"))
    assert root.worker_path is not None and root.worker_path.value == "unknown"
    assert "MultiStepWorker (V0) if vLLM <= 0.9.2" in (root.worker_path.conditional or "")


def test_a_wrapped_command_in_a_sentence_is_the_runs(tmp_path: Path) -> None:
    """"I try to run `...`" reports the writer's own command (not a suggestion), and a JSON
    string the terminal wrapped inside the model name is joined back."""
    lines = [
        "After installing vllm 0.8.2, I try to run `VLLM_USE_V1=0 uv run vllm serve org/Big-32B "
        "-tp 2 --speculative_config '{\"model\": \"org/Small-",
        "1B-Distill\", \"num_speculative_tokens\": 5}'`",
        "",
        *WRAPPER_CRASH,
    ]
    (crash,) = roots(run(tmp_path, lines))
    path = crash.worker_path
    assert path is not None
    assert (path.value, path.worker_class, path.family) == ("other", "MultiStepWorker", "DRAFT_MODEL")
    assert "org/Small-1B-Distill" in " ".join(e.reason for e in path.evidence)
