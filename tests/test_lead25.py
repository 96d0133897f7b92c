"""Session 25, the lead (issue 11): a run on the model runner v2 whose method no line names keeps
every class MRV2 could have built open, the draft variants' own classes too (a DFlash2 drafter
under "dflash" makes MRV2 build ``DFlash2Speculator`` from 0.28.0; sealed round 75 named only the
methods' classes). Our own lines in the shape of a deployment repository's crash log."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import roots, run


def _report(release: str) -> list[str]:
    return [
        "vllm-project/vllm · issue #1 · open · Python",
        "# [Bug]: worker dies under speculative decoding on the model runner v2",
        "",
        "someone · description · 2026-09-10",
        f"I run vLLM {release} with VLLM_USE_V2_MODEL_RUNNER=1 and speculative decoding enabled; "
        "the engine dies after a few requests.",
        "(EngineCore_DP0 pid=211) INFO 09-10 10:00:01 [metrics.py:120] SpecDecoding metrics: "
        "Mean acceptance length: 2.31",
        "(EngineCore_DP0 pid=211) ERROR 09-10 10:00:05 [core.py:710] EngineCore encountered a fatal error.",
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3.12/site-packages/vllm/v1/engine/core.py", line 701, in run_engine_core',
        "    engine_core.run_busy_loop()",
        "RuntimeError: Triton Error [CUDA]: an illegal memory access was encountered",
    ]


@pytest.mark.parametrize(("release", "variant_open"), [("0.29.0", True), ("0.27.0", False)])
def test_an_unnamed_method_on_mrv2_keeps_the_variants_class_open_in_its_releases(
    tmp_path: Path, release: str, variant_open: bool
) -> None:
    crashes = roots(run(tmp_path, _report(release)))
    assert crashes
    for crash in crashes:
        path = crash.worker_path
        assert path is not None and path.worker_class is None and path.conditional, path
        assert "model runner v2's speculators" in path.conditional and "DFlashSpeculator" in path.conditional
        assert ("DFlash2Speculator" in path.conditional) is variant_open, path.conditional
