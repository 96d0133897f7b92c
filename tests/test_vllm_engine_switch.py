"""``VLLM_USE_V1`` and V0 spellings: what they say about the engine that ran (issue 11, session 11).

vLLM 0.8-0.10 read ``VLLM_USE_V1=0`` to fall back to V0, and V0's flags (``--speculative-model``,
``--num-speculative-tokens``) were gone after 0.8.4. A report that says "with VLLM_USE_V1=0 it
worked" above a crash through ``vllm/v1/`` crashed on V1; a 2026 text whose only vLLM-like
line is V0's spelling is no V0 run by that spelling alone. Our own lines, in the shapes of
ADV's hostile case and R26's excerpt 33.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import crash_path, run
from test_never_wrong import V0_CRASH, VLLM_CRASH, VLLM_REPO, thread

_EAGLE3 = ("vllm serve acme/Orbit-8B --speculative-config '{\"method\": \"eagle3\", \"model\": "
           "\"acme/Orbit-8B-EAGLE3\", \"num_speculative_tokens\": 3}'")  # fmt: skip

CASES = {
    "'V0 worked (VLLM_USE_V1=0)' over a crash through vllm/v1/ -> EagleProposer": (thread(
        VLLM_REPO, "[Bug]: eagle3 crash", "2025-08-20", "vllm 0.10.0", "```", _EAGLE3, "```",
        "V0 worked (VLLM_USE_V1=0).", "```", *VLLM_CRASH, "```",
    ), "EagleProposer"),
    "'falling back to V0 with VLLM_USE_V1=0 avoids it' -> EagleProposer": (thread(
        VLLM_REPO, "[Bug]: eagle3 crash", "2025-08-20", "vllm 0.10.0", "```", _EAGLE3, "```",
        "Falling back to V0 (VLLM_USE_V1=0) avoids it for now.", "```", *VLLM_CRASH, "```",
    ), "EagleProposer"),
    "VLLM_USE_V1=0 set for the run, V0 frames -> the V0 worker still": (thread(
        VLLM_REPO, "[Bug]: eagle crash on V0 engine", "2025-04-20", "```",
        "VLLM_USE_V1=0 vllm serve acme/Orbit-8B --speculative-config '{\"method\": \"eagle\", "
        "\"model\": \"acme/EAGLE-Orbit-8B\", \"num_speculative_tokens\": 3}'", "```",
        "```", *V0_CRASH, "```",
    ), "MultiStepWorker"),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_switch_the_run_set_picks_the_engine(tmp_path: Path, name: str) -> None:
    lines, cls = CASES[name]
    path = crash_path(run(tmp_path, lines, name="thread.md"))
    assert (path.value, path.worker_class) == ("other", cls), path


def test_a_v0_spelling_in_a_2026_text_decides_no_v0_worker(tmp_path: Path) -> None:
    """V0's ``--num-speculative-tokens`` on a DeepSeek-R1 target, dated March 2026 (vLLM at
    0.1x, V0 gone since 0.10): not decided V0 by the spelling alone."""
    lines = thread("acme/orbit-engine", "[Performance] relaxed acceptance for MTP", "2026-03-25",
                   "```", "vllm serve /data/DeepSeek-R1-0528-MXFP4/ -tp 8 "
                   "--num-speculative-tokens 3", "```", "```", *VLLM_CRASH[:1],
                   '  File "probe.py", line 1, in <module>', "RuntimeError: probe", "```")  # fmt: skip
    path = crash_path(run(tmp_path, lines, name="thread.md"))
    assert path.worker_class != "MultiStepWorker", path
