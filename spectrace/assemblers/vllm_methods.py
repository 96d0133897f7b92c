"""A vLLM speculative config that names a draft model but no method -> the method vLLM infers
from it, and the class that then ran, by release.

``SpeculativeConfig.__post_init__`` fills a missing ``method`` from the draft model: a name
rule first (``eagle-`` -> eagle, ...), then the draft's ``config.json`` model type (medusa,
mlp_speculator, MTP types), else ``draft_model``. What a method-less draft model then ran on
changed more than once: up to 0.9.2 the V1 oracle (``EngineArgs._is_v1_supported_oracle``)
sees no ``method`` key and falls back to V0 (``SpecDecodeWorker`` + ``MultiStepWorker``);
0.10-0.14 refuse ``draft_model`` at start-up, 0.15-0.16 refuse a missing method; from 0.17
it is ``DraftModelProposer``. The rows below were read from every vLLM wheel 0.6.0-0.34.0
(``vllm/config.py``, ``vllm/config/speculative.py``, 0.34's ``*SpeculatorConfig.matches``,
``vllm/engine/arg_utils.py``) on 2026-12-03.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from packaging.version import InvalidVersion, Version

from spectrace.assemblers.vllm_config import method_from_model
from spectrace.assemblers.vllm_proposers import proposer_verdict

# (first release, last release or "" = still, substring of the lower-cased name, method)
NAME_RULES: tuple[tuple[str, str, str, str], ...] = (
    ("0.8.2", "", "eagle-", "eagle"),
    ("0.8.5", "0.10.0", "eagle3-", "eagle"),  # EAGLE-3 heads ran as "eagle" then
    ("0.10.1", "", "eagle3", "eagle3"),
    ("0.20.0", "", "dflash", "dflash"),
    ("0.25.0", "", "dspark", "dspark"),
)
# What a method-less draft model that no name rule claims ran on: (first, last, outcome)
PLAIN_OUTCOMES: tuple[tuple[str, str, str], ...] = (
    ("0.6.0", "0.9.2", "v0"),  # V1 oracle: no method key -> V0 MultiStepWorker
    ("0.10.0", "0.14.1", "refused"),  # NotImplementedError: draft model not supported yet
    ("0.15.0", "0.16.0", "refused"),  # NotImplementedError: Unsupported method 'None'
    ("0.17.0", "", "v1"),  # method = "draft_model" -> DraftModelProposer
)
_LAST_V0 = "0.9.2"  # the last release that ships V0 spec decode (SpecDecodeWorker)
_REFUSED = "refuses a draft model without a method at start-up (NotImplementedError)"


@dataclass(frozen=True, slots=True)
class Inferred:
    """What the config gives once vLLM's inference is applied."""

    method: str | None  # the method vLLM sets (None: depends on the release)
    reason: str
    points_to: str | None  # "other" when one class ran, else None
    worker: str | None
    condition: str | None = None  # "X if vLLM <= 0.9.2, Y if vLLM >= 0.17 ..." with no release


def _release(text: str) -> Version | None:
    """``0.9.2.dev121+g4c8f64faa`` -> 0.9.2 (rules are per release; a dev build sits with it)."""
    try:
        return Version(Version(text.removeprefix("v")).base_version)
    except InvalidVersion:
        return None


def _within(release: Version, first: str, last: str) -> bool:
    return Version(first) <= release and (not last or release <= Version(last))


def method_for(model: str, release: Version) -> str:
    """The method ``release`` infers from a draft model's name (``draft_model`` when no name
    rule matches; medusa / MLP / MTP heads are told by their config, which a log rarely shows,
    so a name saying medusa is taken as the head's own word)."""
    name = model.lower()
    named = [
        m for first, last, word, m in NAME_RULES if word in name and _within(release, first, last)
    ]
    if named:
        return named[0]
    hinted = method_from_model(model)
    return hinted if hinted in ("medusa", "mlp_speculator") else "draft_model"


def _outcome(release: Version) -> str:
    return next((o for first, last, o in PLAIN_OUTCOMES if _within(release, first, last)), "v1")


def _at(model: str, release: Version, version: str) -> Inferred:
    method = method_for(model, release)
    said = f"vLLM config: draft model '{model}' with no method: vLLM {version} infers '{method}'"
    if release <= Version(_LAST_V0):  # no method key: the V1 oracle falls back to V0
        reason, points_to, worker = proposer_verdict(method, version, v1=False)
        return Inferred(method, said + reason.partition(f"'{method}'")[2], points_to, worker)
    if method == "draft_model" and _outcome(release) == "refused":
        return Inferred(method, f"{said}, and {_REFUSED}: no proposer ran", None, None)
    reason, points_to, worker = proposer_verdict(method, version, v1=True)
    return Inferred(method, said + reason.partition(f"'{method}'")[2], points_to, worker)


def infer(model: object, version: str | None, legacy: bool = False) -> Inferred | None:
    """vLLM's reading of a method-less draft model. ``version``: the release the log prints;
    ``legacy``: the model came from V0's ``--speculative-model`` (gone after 0.8.4, so V0).
    None for values that are no model name (ngram, a shell variable)."""
    if not isinstance(model, str) or not model or model.strip("[]") == "ngram":
        return None
    if "$" in model:  # a shell variable: only V0's flag still names the worker family
        return _unresolved(model) if legacy else None
    release = _release(version) if version else None
    if release is None and legacy:
        release, version = Version(_LAST_V0), None
    if release is not None:
        found = _at(model, release, version or f"<= {_LAST_V0} (V0 flag)")
        return _maybe_mtp(model, found, release, version) if found.method == "draft_model" else found
    v0 = _at(model, Version(_LAST_V0), _LAST_V0)
    v1 = _at(model, Version("0.17.0"), "0.17.0")
    if v0.worker == v1.worker:
        return Inferred(v1.method, v1.reason, v1.points_to, v1.worker)
    condition = f"{v0.worker} (V0) if vLLM <= {_LAST_V0}, else {v1.worker}"
    if v1.method == "draft_model":  # the releases between refused it
        condition = (
            f"{v0.worker} (V0) if vLLM <= {_LAST_V0}, {v1.worker} if vLLM >= 0.17; "
            "0.10-0.16 refuse it at start-up"
        )
    reason = (
        f"vLLM config: draft model '{model}' with no method: vLLM infers the method and its "
        f"class by release, and the log prints none -> {condition}"
    )
    return Inferred(v1.method if v0.method == v1.method else None, reason, None, None, condition)


# Draft names that suggest an MTP head (Gemma's "-assistant" drafters, "*-MTP", "nextn"):
# vLLM tells an MTP head by its config's model_type, which the log does not show
_MTP_HINT = re.compile(r"mtp|assistant|nextn", re.I)


def _maybe_mtp(model: str, plain: Inferred, release: Version, version: str | None) -> Inferred:
    """A name that may be an MTP head: vLLM would infer ``mtp`` from its config instead of
    ``draft_model``; the verdict names both rather than guess."""
    if _MTP_HINT.search(model) is None or release < Version("0.9.0"):
        return plain
    _reason, _points, mtp = proposer_verdict("mtp", version, v1=release > Version(_LAST_V0))
    other = plain.worker or "no proposer (refused at start-up)"
    condition = f"{mtp} (mtp) if {model}'s config is an MTP head, else {other} (draft_model)"
    reason = (f"vLLM config: draft model '{model}' with no method: its name suggests an MTP head, "
              f"whose config model_type vLLM reads -> {condition}")
    return Inferred(None, reason, None, None, condition)


def _unresolved(model: str) -> Inferred:
    """V0's ``--speculative-model ${var}``: V0 ran every draft model and EAGLE head on
    MultiStepWorker; only a Medusa or MLP-speculator head (told by its config) ran elsewhere."""
    condition = (
        f"MultiStepWorker (V0) unless {model} is a Medusa or MLP-speculator head "
        "(MedusaWorker / MLPSpeculatorWorker)"
    )
    reason = (
        f"vLLM launch command: V0 --speculative-model {model} (a shell variable the paste "
        f"does not resolve) -> {condition}"
    )
    return Inferred(None, reason, None, None, condition)


# A DeepSeek-V3-architecture target (V3, R1; not the R1 distills, which are Qwen/Llama models)
_DEEPSEEK_V3 = re.compile(r"deepseek[-_]?(?:v3|r1)(?![-_.]?distill)", re.I)
# num_speculative_tokens with no draft model: vLLM 0.7.3-0.10.x used a deepseek_v3 target's own
# MTP layers as the draft (method deepseek_mtp); other targets, and 0.11+ without
# method "mtp", refuse it (ValueError at start-up).
SELF_MTP = ("0.7.3", "0.10.2")
_V0_FLAG = re.compile(r"--num[-_]speculative[-_]tokens|\bnum_speculative_tokens\s*=")


def v0_tokens_spelling(text: str) -> bool:
    """``--num-speculative-tokens`` / ``num_speculative_tokens=`` (V0's flag and LLM keyword;
    the flag is gone after 0.8.4), not the JSON key of ``--speculative-config``."""
    return _V0_FLAG.search(text) is not None


def self_mtp(target: object, version: str | None, legacy: bool) -> Inferred | None:
    """A token count with no draft model on a DeepSeek-V3/R1 target: its own MTP layers."""
    if not isinstance(target, str) or _DEEPSEEK_V3.search(target) is None:
        return None
    said = (
        f"vLLM config: num_speculative_tokens with no draft model on {target} (a DeepSeek-V3 "
        "target): vLLM 0.7.3-0.10 drafts with its own MTP layers (deepseek_mtp)"
    )
    release = _release(version) if version else (Version("0.8.4") if legacy else None)
    if release is None:
        condition = (
            f"MultiStepWorker (V0) if vLLM <= {_LAST_V0}, EagleProposer on 0.10; "
            "other releases refuse it at start-up"
        )
        return Inferred("deepseek_mtp", f"{said} -> {condition}", None, None, condition)
    if not _within(release, *SELF_MTP):
        return Inferred(None, f"{said}; vLLM {release} refuses it at start-up", None, None)
    if release <= Version(_LAST_V0):  # no method key: the V1 oracle falls back to V0
        return Inferred(
            "deepseek_mtp",
            f"{said} -> MultiStepWorker (V0 spec_decode, other)",
            "other",
            "MultiStepWorker",
        )
    return Inferred("deepseek_mtp", f"{said} -> EagleProposer (other)", "other", "EagleProposer")


# A speculators-format checkpoint served as the model (``vllm serve org/Qwen3-8B-speculator.eagle3``,
# the speculators library's naming): from 0.10.1 vLLM reads its ``speculators_config`` and
# builds the speculative config itself (``EngineArgs.create_speculative_config``).
_SPECULATORS = re.compile(r"speculators?[._-](eagle3|eagle)\b", re.I)
SPECULATORS_FIRST = "0.10.1"


def speculators_checkpoint(target: object, version: str | None) -> Inferred | None:
    """The method a served speculators checkpoint carries, and the proposer that ran it."""
    m = _SPECULATORS.search(target) if isinstance(target, str) else None
    if m is None:
        return None
    method = m.group(1).lower()
    said = (f"vLLM serves {target}, a speculators checkpoint ({method}): vLLM reads its "
            f"speculators_config from {SPECULATORS_FIRST}")
    release = _release(version) if version else None
    if release is None:
        condition = f"EagleProposer if vLLM >= {SPECULATORS_FIRST}, else no speculation"
        return Inferred(method, f"{said} -> {condition}", None, None, condition)
    if release < Version(SPECULATORS_FIRST):
        return Inferred(None, f"{said}; vLLM {release} does not: no speculation", None, None)
    return Inferred(method, f"{said} -> EagleProposer (other)", "other", "EagleProposer")

