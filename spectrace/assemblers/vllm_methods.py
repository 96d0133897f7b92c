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
from dataclasses import dataclass, replace

from packaging.version import Version

from spectrace.assemblers.mtp_models import mtp_draft_model
from spectrace.assemblers.vllm_config import method_from_model
from spectrace.assemblers.vllm_release import base_release
from spectrace.assemblers.vllm_proposers import family_first, proposer_verdict, runs_on

# (first release, last release or "" = still, substring of the lower-cased name, method)
NAME_RULES: tuple[tuple[str, str, str, str], ...] = (
    ("0.8.2", "", "eagle-", "eagle"),
    ("0.8.5", "0.10.1.1", "eagle3-", "eagle"),  # EAGLE-3 heads ran as "eagle" then
    ("0.10.2", "", "eagle3", "eagle3"),  # 0.10.1.1 still had the "eagle3-" rule (re-read 2026-12-05)
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
LAST_V0 = "0.9.2"  # the last release that ships V0 spec decode (SpecDecodeWorker)
_REFUSED = "refuses a draft model without a method at start-up (NotImplementedError)"


@dataclass(frozen=True, slots=True)
class Inferred:
    """What the config gives once vLLM's inference is applied."""

    method: str | None  # the method vLLM sets (None: depends on the release)
    reason: str
    points_to: str | None  # "other" when one class ran, else None
    worker: str | None
    condition: str | None = None  # "X if vLLM <= 0.9.2, Y if vLLM >= 0.17 ..." with no release


def _within(release: Version, first: str, last: str) -> bool:
    return Version(first) <= release and (not last or release <= Version(last))


# Published checkpoints vLLM reads as an MTP head, by the name they carry: its
# ``hf_config_override`` rewrites their config's model_type to an MTP type (gemma4_assistant ->
# gemma4_mtp, deepseek_v3 -> deepseek_mtp...) and the method inferred is MTP's. The rows (name
# pattern, model_type, first release that rewrites it) are rules/paths/mtp_models.toml's.
_MTP_RENAMED = "0.11.0"  # deepseek_mtp became the one ``mtp`` method here


def mtp_draft(model: str) -> tuple[str, str] | None:
    """(model_type, first release) of a draft whose name is a published MTP-head checkpoint."""
    row = mtp_draft_model(model)
    return (row.model_type, row.vllm_first) if row is not None else None


# MTP heads with a proposer of their own (the runner's ``use_gemma4_mtp()``), newest last
_HEAD_CLASSES = {"gemma4_assistant": ("Gemma4Proposer", "Gemma4Speculator")}


def head_class(model: object, version: str | None) -> str | None:
    """The class of its own an MTP head runs on in ``version`` (no release: the first engine's);
    None when it has none there, and the release's MTP proposer runs it."""
    mtp = mtp_draft(model) if isinstance(model, str) else None
    classes = _HEAD_CLASSES.get(mtp[0], ()) if mtp is not None else ()
    if not classes or version is None:
        return classes[0] if classes else None
    return next((cls for cls in classes if runs_on(cls, version)), None)


# MTP heads the text names by their model that vLLM drafts with through a proposer of their own,
# not the release's MTP proposer. Rows: (pattern, classes newest last, only). A target's own MTP
# layers (SpeculativeConfig rewrites step3p5 -> step3p5_mtp; the runner asks use_step3p5_mtp()
# before use_eagle() where the class ships): before it, the release's MTP proposer ran them
# (only False). A Gemma-4 assistant head (gemma4_assistant -> gemma4_mtp, use_gemma4_mtp(): V1's
# Gemma4Proposer 0.21-0.33, MRV2's Gemma4Speculator from 0.23): vLLM runs it on nothing else
# (only True). The Gemma-4 pattern asks for the head itself ("Gemma4 MTP", "gemma-4-26B-A4B-it
# -assistant", "MTP for Gemma 4"), not a Gemma-4 target, whose name alone says no MTP.
# its size, tuning and quantization: "gemma-4-31B-it", "gemma-4-31B w4a16", "Gemma 4 26B QAT NVFP4"
_GEMMA4_SIZE = (r"(?:[-_ .](?:e?\d+(?:\.\d+)?b|a\d+b|it|moe|models?|unified|qat|w\d+a\d+|(?:nv|mx)?fp[48]"
                r"|int[48]|awq|gptq|bf16|fp16))*")
# the head joined to the Gemma-4 model it drafts for ("gemma-4-31B-it + its MTP assistant draft",
# "Gemma 4 31B with MTP", "the MTP assistant of gemma-4-E4B"); another model's name or a clause
# break between them leaves it out ("Gemma-4 works, but Qwen3.5 MTP fails")
_JOINED = r"\s*(?:\+|&|\bwith\b|\band\b|\bw/|\busing\b)\s*(?:(?:its|the|a|an|own|official|published|matching)\s+)*"
_HEAD_OF = r"(?:mtp|assistant)(?:[- ](?:assistant|drafter|draft|head|model))?\s+(?:for|on|with|of)\s+"
# or the head word later in the same clause as the checkpoint ("Gemma-4 26B: MTP-K3 vs plain",
# "gemma-4-E4B-it served with 4 MTP tokens"): no sentence or cell break, no contrast or negation
# ("gemma-4-31B without MTP", "Gemma-4 works, but Qwen3.5 MTP fails"), no other model between
_CLAUSE_GAP = (r"(?:(?!\b(?:but|however|while|whereas|without|except|not|no|non|off|plain|disabled?|vs|versus)\b"
               r"|\b(?:qwen|llama|deepseek|kimi|glm|mistral|mixtral|minimax|gpt-oss|nemotron|mimo|step|phi|eagle)"
               r")[^.;!?|\n])")
TARGET_HEADS: tuple[tuple[re.Pattern[str], tuple[str, ...], bool], ...] = (
    (re.compile(r"step[-_ ]?3(?:\.|p)?5", re.I), ("Step3p5MTPProposer",), False),
    (re.compile(rf"gemma[-_ ]?4{_GEMMA4_SIZE}(?:[-_ ]|{_JOINED})(?:mtp|assistant)\b"
                rf"|\b{_HEAD_OF}(?:(?:the|a)\s+)?(?:google/)?gemma[-_ ]?4"
                rf"|(?<![\w.-])gemma[-_ ]?4[-_ ](?:\d+(?:\.\d+)?b|e\d+b)\b{_CLAUSE_GAP}{{0,60}}?\b(?:mtp|assistant)\b", re.I),
     ("Gemma4Proposer", "Gemma4Speculator"), True),
)


# a Gemma-4 checkpoint as a name writes it, with its size ("Gemma-4-31B-it-AWQ", "gemma-4-26b-a4b",
# "Gemma 4 E4B", "gemma4-31b-tq"): the model, not the family in words ("Gemma 4 support")
GEMMA4_MODEL = re.compile(r"(?i)(?<![\w.-])gemma[-_ ]?4[-_ ](?:\d+(?:\.\d+)?b|e\d+b)(?![\w])")
GEMMA4_LITERALS: tuple[bytes, ...] = (b"emma-4", b"emma_4", b"emma4", b"emma 4", b"EMMA")  # its pre-filter's
# vLLM drafts a Gemma-4 target with MTP only through its assistant head (hf_config_override:
# gemma4_assistant -> gemma4_mtp; the target's checkpoint has no MTP layers of its own), which
# use_gemma4_mtp() puts on these classes, first in 0.21.0
GEMMA4_HEAD = ("Gemma4Proposer", "0.21.0")


def own_head_classes() -> frozenset[str]:
    """The classes of heads vLLM runs on nothing else (no run of them predates their class)."""
    return frozenset(c for _p, classes, only in TARGET_HEADS if only for c in classes)


# the draft told as an assistant ("its assistant model as the drafter", "the assistant head",
# "gemma-4-26B-it-assistant"): what vLLM calls a Gemma-4 checkpoint's MTP head (gemma4_assistant)
_ASSISTANT_DRAFT = re.compile(
    r"(?i)\bassistant[- ](?:drafters?|drafts?|models?|heads?|checkpoints?)\b|(?<=[\w.])-assistant\b"
)


def assistant_draft(text: str) -> bool:
    """The line calls the run's draft an assistant (a Gemma-4 checkpoint's MTP head)."""
    return _ASSISTANT_DRAFT.search(text) is not None


def target_head(target: str, version: str | None) -> tuple[str | None, str | None]:
    """(class, None) or (None, condition) of ``method: mtp`` drafting with a head ``target``
    names that has a proposer of its own; (None, None) for any other."""
    row = next(((c, only) for pattern, c, only in TARGET_HEADS if pattern.search(target)), None)
    if row is None:
        return None, None
    classes, only = row
    if version is not None and (cls := next((c for c in classes if runs_on(c, version)), None)):
        return cls, None
    if only and version is None:  # no other class ever ran it: the runner's reader picks
        return classes[0], None
    if only:
        return None, f"{' / '.join(classes)} (vLLM {version} is not known to ship them)"
    if version is not None:
        return None, None  # a release without that class: the method's own rows decide
    return None, f"{classes[0]} on the vLLM releases that ship it, else the release's MTP proposer"


def with_head_class(
    model: object, version: str | None, reason: str, worker: str | None
) -> tuple[str, str | None]:
    """(reason, class) with the MTP head's own class in place of the MTP proposer."""
    own = head_class(model, version)
    if own is None or not worker or worker == own:
        return reason, worker
    said = f"{own} (its MTP head has a proposer of its own)"
    return reason.replace(f"-> {worker}", f"-> {said}", 1), own


def method_for(model: str, release: Version) -> str:
    """The method ``release`` infers from a draft model's name (``draft_model`` when no name
    rule matches; medusa / MLP / MTP heads are told by their config, which a log rarely shows,
    so a name saying medusa, or a published MTP checkpoint's name, is taken as its word)."""
    name = model.lower()
    if custom_path(model) and release >= Version(CUSTOM_FIRST):
        return "custom_class"
    named = [
        m for first, last, word, m in NAME_RULES if word in name and _within(release, first, last)
    ]
    if named:
        return named[0]
    mtp = mtp_draft(model)
    if mtp is not None and release >= Version(mtp[1]):
        return "mtp" if release >= Version(_MTP_RENAMED) else "deepseek_mtp"
    hinted = method_from_model(model)
    return hinted if hinted in ("medusa", "mlp_speculator") else "draft_model"


# A draft "model" written as a dotted import path (``my_pkg.spec.MyProposer``): from 0.22.0
# SpeculativeConfig takes it as method ``custom_class`` (``_is_custom_proposer_path``: no "/",
# no URL, two or more identifiers) and loads the user's class; an older release would look
# for a checkpoint of that name and fail.
CUSTOM_FIRST = "0.22.0"
_CUSTOM_PATH = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


def custom_path(model: str) -> bool:
    """``model`` is a dotted import path of identifiers, not a checkpoint (``a/b``, ``x.gguf``
    paths have a slash; ``Qwen3-8B.eagle3`` has a dash)."""
    return _CUSTOM_PATH.fullmatch(model) is not None and "/" not in model


def marked(model: str) -> tuple[str, str] | None:
    """(method, first release) a draft's name marks for a method whose family came with its name
    rule: no release before the rule holds a file of that family, so a checkpoint of it
    (``...speculator.dspark``, ``...-DFlash-b16``) ran as that method or not at all (an older
    release cannot load it). EAGLE heads ran on V0 long before the ``eagle-`` rule: not marked."""
    if custom_path(model):
        return "custom_class", CUSTOM_FIRST
    name = model.lower()
    for first, _last, word, method in NAME_RULES:
        came = family_first(method)
        if word in name and came is not None and came >= Version(first):
            return method, first
    return None


def _outcome(release: Version) -> str:
    return next((o for first, last, o in PLAIN_OUTCOMES if _within(release, first, last)), "v1")


def _at(model: str, release: Version, version: str) -> Inferred:
    method = method_for(model, release)
    said = f"vLLM config: draft model '{model}' with no method: vLLM {version} infers '{method}'"
    later = marked(model)
    if method == "draft_model" and later is not None:  # a checkpoint of a method still to come
        why = f"vLLM {version} predates '{later[0]}' (first in {later[1]}), which that name marks"
        return Inferred(None, f"vLLM config: draft model '{model}' with no method: {why}: "
                        "it cannot load that checkpoint, so no proposer ran", None, None)  # fmt: skip
    if release <= Version(LAST_V0):  # no method key: the V1 oracle falls back to V0
        reason, points_to, worker = proposer_verdict(method, version, v1=False)
        return Inferred(method, said + reason.partition(f"'{method}'")[2], points_to, worker)
    if method == "draft_model" and _outcome(release) == "refused":
        return Inferred(method, f"{said}, and {_REFUSED}: no proposer ran", None, None)
    reason, points_to, worker = proposer_verdict(method, version, v1=True)
    reason, worker = with_head_class(model, str(release), reason, worker)
    return Inferred(method, said + reason.partition(f"'{method}'")[2], points_to, worker)


def infer(
    model: object, version: str | None, legacy: bool = False, v1_runner: bool = False
) -> Inferred | None:
    """vLLM's reading of a method-less draft model. ``version``: the release the log prints;
    ``legacy``: the model came from V0's ``--speculative-model`` (gone after 0.8.4, so V0);
    ``v1_runner``: the run's own frames went through the V1 model runner (``v1_ran``, for a
    plain draft; a head named for its method keeps its every-era reading).
    None for values that are no model name (ngram, a shell variable)."""
    if not isinstance(model, str) or not model or model.strip("[]") == "ngram":
        return None
    if "$" in model:  # a shell variable: only V0's flag still names the worker family
        return _unresolved(model) if legacy else None
    release = base_release(version) if version else None
    if release is None and legacy:
        release, version = Version(LAST_V0), None
    if release is not None:
        found = _at(model, release, version or f"<= {LAST_V0} (V0 flag)")
        return (
            _maybe_mtp(model, found, release, version) if found.method == "draft_model" else found
        )
    if (later := marked(model)) is not None:  # only its own method ever ran it
        found = _at(model, Version(later[1]), later[1])
        reason = found.reason.replace(f"vLLM {later[1]} infers", "vLLM infers", 1)
        reason += f" (from {later[1]}, the first release with '{later[0]}'; the log prints none)"
        return replace(found, reason=reason)
    if (mtp := mtp_draft(model)) is not None:
        return _mtp_unversioned(model, mtp[1])
    v0 = _at(model, Version(LAST_V0), LAST_V0)
    v1 = _at(model, Version("0.17.0"), "0.17.0")
    if v1_runner and not legacy and v1.method == "draft_model":
        return v1_ran(model, v1)
    if v0.worker == v1.worker:
        return Inferred(v1.method, v1.reason, v1.points_to, v1.worker)
    condition = f"{v0.worker} (V0) if vLLM <= {LAST_V0}, else {v1.worker}"
    if v1.method == "draft_model":  # the releases between refused it
        condition = (
            f"{v0.worker} (V0) if vLLM <= {LAST_V0}, {v1.worker} if vLLM >= 0.17; "
            "0.10-0.16 refuse it at start-up"
        )
        if mrv2 := mrv2_of("draft_model", Version("0.17.0")):
            condition += f"; on the model runner v2: {mrv2}"
    reason = (
        f"vLLM config: draft model '{model}' with no method: vLLM infers the method and its "
        f"class by release, and the log prints none -> {condition}"
    )
    return Inferred(v1.method if v0.method == v1.method else None, reason, None, None, condition)


def v1_ran(model: str, v1: Inferred) -> Inferred:
    """A method-less plain draft whose run the text's own frames put in the V1 model runner,
    no release shown: not V0 (its oracle sent such a config to V0's workers, whose frames are
    not the V1 runner's), not the model runner v2, and not 0.10-0.16 (they refuse the config
    at start-up, before any runner code): the class 0.17 on builds (``DraftModelProposer``).
    A name that may be an MTP head keeps both readings (``_maybe_mtp``)."""
    why = (" (no release shown; the run's frames are the V1 model runner's: not V0's workers, "
           "not the model runner v2, and 0.10-0.16 refuse a method-less draft before the runner)")
    found = _maybe_mtp(model, v1, Version("0.17.0"), "0.17.0")
    if found is not v1:
        return replace(found, reason=found.reason + why)
    reason = v1.reason.replace("vLLM 0.17.0 infers", "vLLM infers", 1)
    return replace(v1, reason=reason + why)


# Draft names that suggest an MTP head (Gemma's "-assistant" drafters, "*-MTP", "nextn"):
# vLLM tells an MTP head by its config's model_type, which the log does not show
_MTP_HINT = re.compile(r"mtp|assistant|nextn", re.I)


def _maybe_mtp(model: str, plain: Inferred, release: Version, version: str | None) -> Inferred:
    """A name that may be an MTP head: vLLM would infer ``mtp`` from its config instead of
    ``draft_model``; the verdict names both rather than guess."""
    if _MTP_HINT.search(model) is None or release < Version("0.9.0"):
        return plain
    known = mtp_draft(model)
    if known is not None and release < Version(known[1]):
        return plain  # a published head whose model_type this release does not rewrite to MTP
    _reason, _points, mtp = proposer_verdict("mtp", version, v1=release > Version(LAST_V0))
    other = plain.worker or "no proposer (refused at start-up)"
    condition = f"{mtp} (mtp) if {model}'s config is an MTP head, else {other} (draft_model)"
    reason = (
        f"vLLM config: draft model '{model}' with no method: its name suggests an MTP head, "
        f"whose config model_type vLLM reads -> {condition}"
    )
    return Inferred(None, reason, None, None, condition)


def _mtp_unversioned(model: str, first: str) -> Inferred:
    """A published MTP-head checkpoint and no release: its class from ``first`` on, and what
    the releases before it made of it (a plain draft model, or V0's worker)."""
    v1 = max(first, "0.10.0", key=Version)  # the V1 engine runs a method-less MTP head
    head = _at(model, Version(v1), v1)
    condition = f"{head.worker} (mtp) if vLLM >= {v1}"
    if Version(first) <= Version(LAST_V0):
        condition += f", MultiStepWorker (V0) on {first}-{LAST_V0}"
    condition += f" (they read {model} as an MTP head); earlier releases load it as a plain draft"
    if mrv2 := _mrv2_heads(model, Version(v1)):
        condition += f"; on the model runner v2: {mrv2}"
    reason = (
        f"vLLM config: draft model '{model}' with no method, a published MTP-head "
        f"checkpoint: vLLM infers its method by release, and the log prints none -> "
        f"{condition}"
    )
    return Inferred("mtp", reason, None, None, condition)


def _mrv2_heads(model: str, first: Version) -> str:
    """The model runner v2's classes for an MTP head from ``first`` on (vllm_runner.toml): its
    own (a Gemma-4 assistant's Gemma4Speculator), else the ``mtp`` speculators by release. With
    no release shown the run may have been on either runner (the env, or auto mode from 0.22)."""
    mtp = mtp_draft(model)
    own = _HEAD_CLASSES.get(mtp[0], ())[1:] if mtp is not None else ()
    return mrv2_of("mtp", first, own)


def mrv2_of(method: str, first: Version, only: tuple[str, ...] = ()) -> str:
    """The model runner v2's speculators for ``method`` (or the classes ``only``) from ``first``
    on, by release (vllm_runner.toml's [[speculator]] rows)."""
    from spectrace.assemblers.vllm_runner import runner_table  # it imports this module's callers

    rows = [r for r in runner_table().speculators if r.last >= first
            and (r.cls in only if only else r.method == method)]  # fmt: skip
    return " / ".join(dict.fromkeys(f"{r.cls} (vLLM {r.first}-{r.last})" for r in rows))


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
    release = base_release(version) if version else (Version("0.8.4") if legacy else None)
    if release is None:
        condition = (
            f"MultiStepWorker (V0) if vLLM <= {LAST_V0}, EagleProposer on 0.10; "
            "other releases refuse it at start-up"
        )
        return Inferred("deepseek_mtp", f"{said} -> {condition}", None, None, condition)
    if not _within(release, *SELF_MTP):
        return Inferred(None, f"{said}; vLLM {release} refuses it at start-up", None, None)
    if release <= Version(LAST_V0):  # no method key: the V1 oracle falls back to V0
        return Inferred(
            "deepseek_mtp",
            f"{said} -> MultiStepWorker (V0 spec_decode, other)",
            "other",
            "MultiStepWorker",
        )
    return Inferred("deepseek_mtp", f"{said} -> EagleProposer (other)", "other", "EagleProposer")


# A speculators-format checkpoint served as the model (``vllm serve org/Qwen3-8B-speculator.eagle3``,
# the speculators library's naming ``<verifier>-speculator.<speculators_model_type>``): vLLM reads
# its ``speculators_config`` and builds the speculative config itself, the method being the
# checkpoint's ``speculators_model_type`` (``SpeculatorsConfig.build_vllm_speculative_config``;
# the types ``SUPPORTED_SPECULATORS_TYPES`` registers in transformers_utils/configs/speculators/
# algos.py). Each type with the first release known to read it (DSpark's method came in 0.25.0,
# its speculators type is read for sure from 0.26.0): on an older release, no verdict.
_SPECULATORS = re.compile(r"speculators?[._-](eagle3|eagle|dflash|dspark)\b", re.I)
SPECULATORS_FIRST = "0.10.1"
_SPECULATORS_TYPES = {"eagle": SPECULATORS_FIRST, "eagle3": SPECULATORS_FIRST, "dflash": "0.20.0",
                      "dspark": "0.26.0"}  # fmt: skip


def speculators_checkpoint(target: object, version: str | None) -> Inferred | None:
    """The method a served speculators checkpoint carries, and the proposer that ran it (the
    method's class on the release, or a condition on the release where none is stated)."""
    m = _SPECULATORS.search(target) if isinstance(target, str) else None
    if m is None:
        return None
    method = m.group(1).lower()
    first = _SPECULATORS_TYPES[method]
    said = (
        f"vLLM serves {target}, a speculators checkpoint ({method}): vLLM reads its "
        f"speculators_config from {first}"
    )
    release = base_release(version) if version else None
    if release is not None and release < Version(first):
        return Inferred(None, f"{said}; vLLM {release} does not: no speculation", None, None)
    reason, points_to, cls = proposer_verdict(method, version)
    if points_to != "other" or cls is None:
        return None  # the release has no class for the method: its own rows say nothing
    if release is None:
        condition = f"{cls} if vLLM >= {first}, else no speculation"
        return Inferred(method, f"{said} -> {condition}", None, None, condition)
    return Inferred(method, f"{said} -> {reason.split(' -> ', 1)[1]}", "other", cls)
