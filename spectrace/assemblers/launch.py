"""Launch commands echoed into a log (``python -m sglang.launch_server ...``, ``vllm serve ...``,
``trtllm-serve ...``), also when split over lines with ``\\``.

They are weaker evidence than the ``server_args=`` dump (the dump holds the values after
SGLang's own adjustments), but they are often the only place env vars such as
``SGLANG_ENABLE_SPEC_V2=True`` are visible.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field

_LAUNCH = re.compile(
    r"(?:python[\d.]*\s+-m\s+sglang\.launch_server|sglang\.launch_server|\bsglang\s+serve\b"
    r"|\bvllm\s+serve\b|\bvllm\.entrypoints\.(?:openai\.)?api_server\b"
    r"|\btrtllm-serve(?:\s+serve)?\b)"
)
_ENV = re.compile(r"(?:^|[\s;'\"(])(?:export\s+)?(SGLANG_[A-Z0-9_]+|VLLM_[A-Z0-9_]+)=([^\s;'\"]*)")

# --speculative-config {...} as written, quoted or not (the JSON has no nested objects).
_SPEC_JSON = re.compile(r"--speculative[-_]config[= ]\s*['\"]?(\{[^{}]*\})")

# CLI spellings -> the server_args field they set (aliases from both engines).
_ALIASES = {
    "tp": "tp_size",
    "tensor_parallel_size": "tp_size",
    "dp": "dp_size",
    "data_parallel_size": "dp_size",
    "ep": "ep_size",
    "expert_parallel_size": "ep_size",
    "speculative_draft_model": "speculative_draft_model_path",
    "speculative_draft": "speculative_draft_model_path",
}


@dataclass(frozen=True, slots=True)
class LaunchCommand:
    """What one echoed launch command sets: CLI flags by field name, and env assignments."""

    engine: str  # "sglang" | "vllm" | "trtllm"
    flags: dict[str, object] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)


def find_env_assignments(text: str) -> dict[str, str]:
    """``SGLANG_ENABLE_SPEC_V2=True python ...`` / ``export SGLANG_...=1`` -> {name: value}."""
    return {m.group(1): m.group(2) for m in _ENV.finditer(text)}


def parse_launch_command(text: str) -> LaunchCommand | None:
    """The flags of an sglang/vllm launch command in the text, or None when there is none."""
    match = _LAUNCH.search(text)
    if match is None:
        return None
    engine = next((name for name in ("vllm", "trtllm") if name in match.group(0)), "sglang")
    command = parse_continuation(text[match.end() :], engine)
    return LaunchCommand(engine, command.flags, find_env_assignments(text[: match.start()]))


def parse_continuation(text: str, engine: str) -> LaunchCommand:
    """Flags on one line of a command (its first, or a ``  --flag value \\`` line after it)."""
    rest = text.rstrip().removesuffix("\\")
    try:
        tokens = shlex.split(rest)
    except ValueError:  # an unbalanced quote in a cut line: fall back to plain words
        tokens = rest.split()
    flags = _flags_from_tokens(tokens)
    if engine == "vllm" and isinstance(flags.get("speculative_config"), str):
        raw = _SPEC_JSON.search(rest)  # unquoted JSON, as pasted, is split at its blanks
        flags.update(_vllm_spec_json(raw.group(1) if raw else str(flags["speculative_config"])))
    if engine == "vllm" and flags.get("speculative_model") == "[ngram]":
        flags["method"] = "ngram"  # V0 named the ngram proposer as a model
    return LaunchCommand(engine, flags)


def _flags_from_tokens(tokens: list[str]) -> dict[str, object]:
    """``--a-b 4 --flag --c=x`` -> {"a_b": 4, "flag": True, "c": "x"}."""
    flags: dict[str, object] = {}
    i = 0
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if not token.startswith("-") or _is_number(token):
            continue
        name, eq, inline = token.lstrip("-").partition("=")
        key = _ALIASES.get(name.replace("-", "_"), name.replace("-", "_"))
        if eq:
            flags[key] = _coerce(inline)
        elif i < len(tokens) and (not tokens[i].startswith("-") or _is_number(tokens[i])):
            flags[key] = _coerce(tokens[i])
            i += 1
        else:
            flags[key] = True
    return flags


def _is_number(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True


def _coerce(value: str) -> object:
    """CLI values as the server would read them: int, float, else the string."""
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def _vllm_spec_json(text: str) -> dict[str, object]:
    """``--speculative-config '{"method": "eagle3", "num_speculative_tokens": 3}'``."""
    try:
        spec = json.loads(text)
    except ValueError:
        return {}
    if not isinstance(spec, dict):
        return {}
    out: dict[str, object] = {}
    if "method" in spec:
        out["method"] = spec["method"]
    if "num_speculative_tokens" in spec:
        out["num_spec_tokens"] = spec["num_speculative_tokens"]
    if "model" in spec:
        out["draft_model"] = spec["model"]
    return out
