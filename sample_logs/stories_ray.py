"""The seed crash inside a Ray actor (RL frameworks): Ray prefixes every line it forwards."""

from __future__ import annotations

from stories_sglang import seed_expected, seed_incident, seed_log

RAY = "(SGLangEngineActor pid=48211, ip=10.20.3.7) "


def ray_wrapped() -> tuple[dict[str, bytes], dict]:
    """Scheduler subprocesses inherit the actor's stdout/stderr, so all lines share its prefix."""
    log, marks = seed_log(minutes_per_level=0.3)
    text = "".join(RAY + line + "\n" for line in log.lines)
    expected = seed_expected("driver.log", seed_incident(marks))
    return {"driver.log": text.encode()}, expected
