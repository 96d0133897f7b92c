"""vLLM's start-up lines -> speculative flags (LOG_FORMATS.md 2.3), as plain data for config.

vLLM has one speculative path per method, so the proposer class it names is the path.
"""

from __future__ import annotations

import re

from spectrace.assemblers.pyrepr import SourceText, parse_call_kwargs, parse_dict_repr

VERSION = re.compile(r"\(v(\d+\.\d+[\w.+-]*)\) with config:|server version (\d[\w.+-]*)")

# CLI spellings (JSON keys of --speculative-config, old V0 flags) -> speculative_config.*
CLI_NAMES = {
    "method": "method",
    "num_spec_tokens": "num_spec_tokens",
    "num_speculative_tokens": "num_spec_tokens",
    "draft_model": "model",
    "speculative_model": "model",
}
_PROPOSERS = {
    "ngram": "NgramProposer",
    "medusa": "MedusaProposer",
    "draft_model": "DraftModelProposer",
    "mlp_speculator": "MLPSpeculatorProposer",
}
_ARG_KEYS = {"method": "method", "num_speculative_tokens": "num_spec_tokens", "model": "model"}


def engine_config_flags(text: str) -> dict[str, object]:
    """``model='m', speculative_config=SpeculativeConfig(...), ...`` -> flag name -> value."""
    values, _complete = parse_call_kwargs("VllmConfig(" + text.strip().rstrip(",") + ")")
    flags: dict[str, object] = {}
    spec = values.get("speculative_config")
    if isinstance(spec, SourceText) and spec.text.startswith("SpeculativeConfig("):
        inner, _ = parse_call_kwargs(spec.text)
        for key in ("method", "num_spec_tokens", "model", "draft_model"):  # draft_model: V0
            if key in inner:
                flags[f"speculative_config.{key.removeprefix('draft_')}"] = inner[key]
    elif spec is None and "speculative_config" in values:
        flags["speculative_config.method"] = None
    flags.update(_parallel_sizes(values))
    return flags


def _parallel_sizes(values: dict[str, object]) -> dict[str, object]:
    """vLLM's parallel sizes under the names the SGLang flags use."""
    names = {"tensor_parallel_size": "tp_size", "data_parallel_size": "dp_size"}
    return {flag: values[key] for key, flag in names.items() if key in values}


def non_default_args_flags(text: str) -> dict[str, object]:
    """``{'model': ..., 'speculative_config': {...}, 'tensor_parallel_size': 2}`` -> flags."""
    values, _complete = parse_dict_repr(text.strip())
    flags = _spec_dict_flags(values.get("speculative_config"))
    flags.update(_parallel_sizes(values))
    return flags


def _spec_dict_flags(spec: object) -> dict[str, object]:
    """A speculative-config dict (or its JSON, as Namespace prints it) -> speculative_config.*"""
    if isinstance(spec, str) and spec.lstrip().startswith("{"):
        spec, _complete = parse_dict_repr(spec)
    if not isinstance(spec, dict):
        return {}
    return {
        f"speculative_config.{name}": spec[key] for key, name in _ARG_KEYS.items() if key in spec
    }


def namespace_args_flags(text: str) -> dict[str, object]:
    """vLLM <= 0.8 ``args: Namespace(..., speculative_model='[ngram]', num_speculative_tokens=5,
    speculative_config=None, tensor_parallel_size=4, ...)`` -> flags (a cut line gives what it has)."""
    values, _complete = parse_call_kwargs(text.strip())
    flags = _spec_dict_flags(values.get("speculative_config"))
    model = values.get("speculative_model")
    if isinstance(model, str):
        flags.setdefault("speculative_config.model", model)
        if model == "[ngram]":  # V0 spelled the ngram proposer as a model name
            flags["speculative_config.method"] = "ngram"
    if values.keys() >= {"speculative_config", "speculative_model"} and not flags:
        flags["speculative_config.method"] = None  # every arg is printed: both unset, spec off
    if isinstance(values.get("num_speculative_tokens"), int):
        flags.setdefault("speculative_config.num_spec_tokens", values["num_speculative_tokens"])
    flags.update(_parallel_sizes(values))
    return flags


def proposer_verdict(method: object) -> tuple[str, str | None, str | None]:
    """(reason, points_to, proposer class) for a speculative method (None: spec off)."""
    if method is None:
        return "vLLM config: speculative_config=None, no proposer", None, None
    name = str(method).lower()
    proposer = _PROPOSERS.get(name, "EagleProposer")  # eagle, eagle3 and the *_mtp methods
    return f"vLLM config: speculative method '{name}' -> {proposer} (other)", "other", proposer
