"""Run configuration from server-args dumps, vLLM configs, warnings, launch commands, env."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Evidence:
    """A log line that proves something, with why it matters."""

    source: str
    lineno: int
    text: str  # the line as printed (trimmed for very long lines)
    reason: str  # "server_args dump has disable_overlap_schedule=True -> v1 (EAGLEWorker)"
    points_to: str | None = None  # "v1" | "v2" | "other" | None when it only informs


@dataclass(frozen=True, slots=True)
class FlagValue:
    value: object  # the literal value (bool, int, str, None, list...) or its source text
    source: str
    lineno: int
    origin: str  # "server_args", "vllm_config", "launch_command", "warning", "env"


@dataclass(slots=True)
class RunConfig:
    """What the log says about how the server was configured (one per input group)."""

    flags: dict[str, FlagValue] = field(default_factory=dict)
    path_evidence: list[Evidence] = field(default_factory=list)  # warnings, dump-derived
    engine: str | None = None  # "sglang" | "vllm" | "trtllm" | None
