"""vLLM V0's draft-model runner (TP1DraftModelRunner) is built only for MultiStepWorker
(SpecDecodeWorker.create_worker's draft branch, every V0 release): a traceback through it
names that worker even when the proposer's own frames were cut away.

Every line here is written by us in the real shapes; none is pasted."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import roots, run

SITE = "/opt/conda/lib/python3.10/site-packages/vllm"


def test_a_frame_in_v0s_draft_model_runner_names_multistepworker(tmp_path: Path) -> None:
    head = "ERROR 07-01 09:00:00 [engine.py:160] "
    lines = [
        f"{head}RuntimeError('shape mismatch')",
        f"{head}Traceback (most recent call last):",
        f'{head}  File "{SITE}/worker/worker_base.py", line 420, in execute_model',
        f"{head}    output = self.model_runner.execute_model(",
        f'{head}  File "{SITE}/spec_decode/draft_model_runner.py", line 296, in execute_model',
        f"{head}    hidden_states = model_executable(",
    ]
    (crash,) = roots(run(tmp_path, lines))
    path = crash.worker_path
    assert path is not None
    assert (path.value, path.worker_class, path.framework) == ("other", "MultiStepWorker", "vllm")
    assert path.evidence[0].reason.startswith(
        "traceback frame in spec_decode/draft_model_runner.py"
    )
