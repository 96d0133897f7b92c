"""The seed crash inside a Ray actor (RL frameworks): Ray prefixes every line it forwards."""

from __future__ import annotations

from sglang_parts import SIGQUIT_COLLATERAL
from stories_sglang import MARKER, SEED_CONFIG, seed_incident, seed_log

RAY = "(SGLangEngineActor pid=48211, ip=10.20.3.7) "


def ray_wrapped() -> tuple[dict[str, bytes], dict]:
    """Scheduler subprocesses inherit the actor's stdout/stderr, so all lines share its prefix."""
    log, marks = seed_log(minutes_per_level=0.3)
    text = "".join(RAY + line + "\n" for line in log.lines)
    expected = {
        "inputs": ["driver.log"],
        "expect": [MARKER],
        "incidents": [
            seed_incident(marks),
            SIGQUIT_COLLATERAL,
        ],
        "missing_markers": [MARKER],
        "config": SEED_CONFIG,
    }  # fmt: skip
    return {"driver.log": text.encode()}, expected
