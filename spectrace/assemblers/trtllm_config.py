"""TensorRT-LLM's speculative settings as threads show them -> flags, as plain data for config.

trtllm-serve takes them from the ``extra_llm_api_options`` YAML that users paste beside the
log (``speculative_config:`` / ``decoding_type: MTP`` / ``max_draft_len: 3``, older files
``speculative_decoding_config:``); the LLM API prints its arguments (``TorchLlmArgs(...,
speculative_config=EagleDecodingConfig(max_draft_len=3, eagle3_one_model=True, ...))``, or the
YAML's dict); trtllm-build takes ``--speculative_decoding_mode lookahead_decoding``; modes show
as ``SpeculativeDecodingMode.EAGLE3_ONE_MODEL`` in logs and reprs; run.py prints
``[TRT-LLM] [I] draft_len: 3`` and the C++ runtime ``TRTGptModel maxDraftLen: 3``.
Methods are kept lower case; rules/paths/trtllm.toml's [[method]] rows name their family.
``speculative_config.one_model`` (EAGLE-3 / MTP one-model vs two-model) picks the worker.
"""

from __future__ import annotations

import re

from packaging.version import InvalidVersion, Version

from spectrace.assemblers.pyconfig import commented
from spectrace.assemblers.pyrepr import SourceText, bracketed, parse_call_kwargs, split_top_level
from spectrace.assemblers.spec_prose import set_apart

# Lines the pipeline must keep for the collector (every match below holds one).
LITERALS: tuple[bytes, ...] = (
    b"decoding_type",
    b"max_draft_len",
    b"num_nextn_predict_layers:",
    b"speculative_model_dir:",
    b"draft_len: ",
    b"maxDraftLen: ",
    b"DecodingConfig(",
    b"SpeculativeDecodingMode.",
    b"speculative_decoding_mode",
    b"_one_model",
    b"_ONE_MODEL",
    b"use_mtp_vanilla",
    b"Invalid decoding type: ",
    b"examples/eagle/",
    b"examples/medusa/",
    b"examples/redrafter/",
    b"examples/lookahead/",
    b"examples/draft_target_model/",
    b"prompt_lookup/run_dtm_pld.py",
    b"Device(s) for draft model: ",
    b"Using Draft-Target-Model speculative decoding",
    b"trtllm-build",  # the engine flow: a TensorRT engine is built
    *(f"--{flag}".encode() for flag in ("medusa_choices", "lookahead_config", "eagle_choices",
                                        "draft_target_model_config", "prompt_lookup_config",
                                        "draft_engine_dir", "tensorrt_llm_model_name")),
    b"tensorrt_llm_draft_model_name", b"TENSORRT_LLM_DRAFT_MODEL_NAME",  # Triton's draft model
    b"speculative_decoding_test.py", b"e2e_grpc_speculative_decoding_client",  # its clients
    b"--execute-bls-speculative-decoding", b"-tensorrt-llm-model-name",
    b"--spec_decode_algo", b"--spec_decode_max_draft_len", b"--spec_decode_nextn",
    b"use_one_model",
    b"TP vanilla", b"tp vanilla", b"TP Vanilla",  # "MTP vanilla": TensorRT-LLM's MTPWorker mode
    b"2-model is deprecated",
    b"2-model style MTP is deprecated",
    *(
        f"{name}{sep}".encode()
        for name in ("TensorRT-LLM", "tensorrt_llm", "tensorrt-llm", "TRTLLM", "TRT-LLM", "trtllm")
        for sep in (" version", " 0.", " 1.", " v", "==", "-0.", "-1.", "/release:")
    ),
)
# One key a line: YAML (``  decoding_type: MTP  # ...``) or pasted JSON (``"max_draft_len": 3,``);
# a line a diff adds (``+  decoding_type: NGram``, a config file under review) states it too.
_YAML = re.compile(
    r"""\s*[-+]?\s*["']?(decoding_type|max_draft_len|num_nextn_predict_layers|speculative_model_dir|"""
    r"""speculative_decoding_mode|eagle3_one_model|mtp_eagle_one_model|use_mtp_vanilla)["']?\s*:\s*"""
    r"""["']?([\w./-]{1,200})["']?\s*,?\s*(?:#.*)?$"""
)
# The whole section on one line: JSON, a YAML flow mapping, a Python dict repr.
_INLINE = re.compile(r"""["']?speculative(?:_decoding)?_config["']?\s*[:=]\s*\{""")
_DRAFT_LEN = re.compile(r"(?:draft_len|TRTGptModel maxDraftLen): (\d{1,6})$")  # run.py, C++
# trtllm-build's flag, or the keyword as Python / prose writes it (``speculative_decoding_mode=
# lookahead_decoding``, in backticks or quotes).
_CLI_MODE = re.compile(
    r"(?:--|\b)speculative_decoding_mode(?:[=\s]+|\s*[:=]\s*)[`\"']?([a-z_]{2,40})\b"
)
_MODE = re.compile(r"\bSpeculativeDecodingMode\.([A-Z][A-Z0-9_]{1,40})\b")
# a one-model mode's name written alone, as a PR or a maintainer writes it (``MTP_EAGLE_ONE_MODEL``
# / one-model speculative decoding): upper case, only TensorRT-LLM's enum spells it
_BARE_MODE = re.compile(r"(?<![\w.])((?:MTP_EAGLE|EAGLE3|DRAFT_TARGET)_ONE_MODEL)(?!\w)")
_TYPE_ERROR = re.compile(r"Invalid decoding type: ['\"]?(\w{1,40})")  # DecodingBaseConfig.from_dict
# The LLM API's config classes; any other stem only right after speculative_config= (vLLM
# prints a plain decoding_config=DecodingConfig(...) that is not speculative).
_CONFIG_CLASS = re.compile(
    r"(?:speculative_config=\s*(\w{2,40})|\b(Medusa|Eagle3?|MTP|Lookahead|NGram|DraftTarget|"
    r"SaveHiddenStates|UserProvided|PARD|DFlash|DSpark))DecodingConfig\("
)
_TRT_MARK = ("LlmArgs", "[TRT-LLM]", "tensorrt_llm")
# The TensorRT engine flow's per-method example scripts (convert_checkpoint.py, run.py): the
# engine is built for that mode, and no PyTorch worker runs it.
_EXAMPLE = re.compile(
    r"examples/(eagle|medusa|redrafter|lookahead|draft_target_model)/\w+\.py\b"
    r"|examples/(prompt_lookup)/run_dtm_pld\.py\b"  # DTM and PLD both feed the target's tokens
)
# examples/run.py's Draft-Target-Model lines (engine flow): the target engine takes the draft's
# tokens from outside (speculative_decoding_mode draft_tokens_external).
_DTM = re.compile(r"Device\(s\) for draft model: \[|Using Draft-Target-Model speculative decoding")
_BUILD = re.compile(r"(?:^|[\s$`>])trtllm-build\b")
# examples/run.py's (examples/utils.py add_common_args) options for the mode its engine was
# built with; the draft-target ones feed the target engine the draft's tokens from outside
_RUN_FLAG = re.compile(
    r"(?<![\w-])--(medusa_choices|lookahead_config|eagle_choices|draft_target_model_config"
    r"|prompt_lookup_config|draft_engine_dir)(?=[=\s]|$)"
)
_RUN_MODES = {"medusa_choices": "medusa", "lookahead_config": "lookahead_decoding",
              "eagle_choices": "eagle", "draft_target_model_config": "draft_tokens_external",
              "prompt_lookup_config": "draft_tokens_external",
              "draft_engine_dir": "draft_tokens_external"}  # fmt: skip
# Triton's tensorrtllm_backend serving a draft engine beside the target (the BLS model's
# ``tensorrt_llm_draft_model_name``, its template's variable, or the launcher's model list
# naming a draft model): draft-target decoding over two TensorRT engines
_TRITON_NAME = re.compile(
    r"""(?i)\btensorrt_llm_draft_model_name["']?\s*[:=]\s*["']?([\w.-]*)(?=["']?\s*(?:[,}]|$))"""
)  # the value alone (a template's ``key:value,``, a shell variable), not a docs sentence
_TRITON_LIST = re.compile(r"""--tensorrt_llm_model_name(?:=|\s+)["']?([\w.,-]+)""")
# tensorrtllm_backend's speculative clients (tools/inflight_batcher_llm/
# speculative_decoding_test.py, inflight_batcher_llm/client/
# e2e_grpc_speculative_decoding_client.py): a draft engine's tokens fed to the target engine, by
# the client or by the BLS model (--execute-bls-speculative-decoding)
_TRITON_CLIENT = re.compile(
    r"\b(?:speculative_decoding_test|e2e_grpc_speculative_decoding_client)\.py\b"
    r"|(?<![\w-])--(?:execute-bls-speculative-decoding|draft-tensorrt-llm-model-name"
    r"|bls-speculative-tensorrt-llm-model-name)\b"
)


def _triton_draft(text: str) -> bool:
    """The line names a draft model Triton serves beside the target (an empty name or a
    template's ``${...}`` is none), or runs the backend's draft-target client."""
    if _TRITON_CLIENT.search(text) is not None:
        return True
    if (m := _TRITON_NAME.search(text)) is not None and m.group(1):
        return True
    names = m.group(1).split(",") if (m := _TRITON_LIST.search(text)) is not None else []
    return len([n for n in names if n]) > 1 and any("draft" in n.lower() for n in names)
# examples/llm-api/quickstart_advanced.py (the PyTorch backend's LLM-API example, also run by
# TensorRT-LLM's own tests): --spec_decode_algo picks the config class setup_llm builds (MTP ->
# MTPDecodingConfig, EAGLE3 -> EagleDecodingConfig, DRAFT_TARGET, NGRAM, AUTO, DFLASH), its
# draft length (--spec_decode_max_draft_len, --spec_decode_nextn before it) and the one-model
# switch (--use_one_model; its default changed across releases, so only a flag shown counts)
_QUICKSTART = re.compile(r"(?<![\w-])--spec_decode_algo(?:=|\s+)[\"']?([A-Za-z0-9_]{2,20})")
_QUICKSTART_LEN = re.compile(r"(?<![\w-])--spec_decode_(?:max_draft_len|nextn)(?:=|\s+)(\d{1,3})\b")
_ONE_MODEL_FLAG = re.compile(r"(?<![\w-])--(no-)?use_one_model(?![\w-])")
_QUICKSTART_TYPES = {"eagle3": "eagle", "draft_target": "drafttarget"}
# setup_llm passes eagle3_one_model=args.use_one_model itself, and the flag's default was False
# (store_true) before it became True (BooleanOptionalAction): with no flag shown, neither
# llm_args.py's default nor a release line settles it
SCRIPT_ONE_MODEL = "quickstart_advanced.py's --use_one_model default"


def _quickstart(text: str) -> dict[str, object]:
    """quickstart_advanced.py's speculative flags on one command line -> flags."""
    flags: dict[str, object] = {}
    if (m := _QUICKSTART.search(text)) is not None:
        algo = m.group(1).lower()
        flags["speculative_config.method"] = _QUICKSTART_TYPES.get(algo, algo)
        flags["backend"] = "pytorch"  # setup_llm builds LLM(backend='pytorch')
    if (m := _QUICKSTART_LEN.search(text)) is not None:
        flags["speculative_config.num_spec_tokens"] = int(m.group(1))
    if (m := _ONE_MODEL_FLAG.search(text)) is not None:
        flags["speculative_config.one_model"] = m.group(1) is None
    elif flags.get("speculative_config.method") in ("eagle", "mtp"):
        flags["speculative_config.one_model"] = SCRIPT_ONE_MODEL
    return flags


_EXAMPLE_MODES = {
    "eagle": "eagle",
    "medusa": "medusa",
    "redrafter": "explicit_draft_tokens",
    "lookahead": "lookahead_decoding",
    "draft_target_model": "draft_tokens_external",  # the target takes the draft's tokens
    "prompt_lookup": "draft_tokens_external",
}
_NAMES = {
    "decoding_type": "speculative_config.method",
    "speculative_decoding_mode": "speculative_config.method",
    "max_draft_len": "speculative_config.num_spec_tokens",
    "num_nextn_predict_layers": "speculative_config.num_spec_tokens",  # MTP before max_draft_len
    "speculative_model_dir": "speculative_config.model",
    "speculative_model": "speculative_config.model",
    "eagle3_one_model": "speculative_config.one_model",
    "mtp_eagle_one_model": "speculative_config.one_model",
    "use_mtp_vanilla": "speculative_config.mtp_vanilla",
}
# Config classes whose decoding_type differs from the class name's stem.
_CLASS_TYPES = {"savehiddenstates": "savestate", "base": ""}
_TRUTH = {"true": True, "false": False}


# Warnings llm_args.py logs only when a two-model mode is configured (deprecated for 1.4).
_TWO_MODEL = (
    ("Eagle3 2-model is deprecated", {"speculative_config.method": "eagle",
                                      "speculative_config.one_model": False}),
    ("2-model style MTP is deprecated", {"speculative_config.method": "mtp_eagle"}),
)  # fmt: skip


def trtllm_spec_flags(text: str) -> dict[str, object]:
    """One YAML, argument-dump, command or log line -> {flag: value}; {} for any other."""
    for said, flags in _TWO_MODEL:
        if said in text:
            return dict(flags)
    if (m := _DRAFT_LEN.fullmatch(text.strip())) is not None:
        draft = int(m.group(1))  # the C++ runtime prints 0 when the engine does not speculate
        if draft:
            return {"speculative_config.num_spec_tokens": draft}
        return {"speculative_config.method": None} if "TRTGptModel" in text else {}
    if (m := _YAML.fullmatch(text)) is not None:
        return _named({m.group(1): m.group(2)})
    if "DecodingConfig(" in text or "_config" in text:
        if flags := _dump_flags(text):
            return _unless_apart(text, flags)
    if _DTM.search(text) is not None:
        return {"speculative_config.method": "draft_tokens_external", "backend": "tensorrt"}
    engine = {"backend": "tensorrt"}  # the engine flow's modes and builds
    if (m := _EXAMPLE.search(text)) is not None:
        mode = _EXAMPLE_MODES[m.group(1) or m.group(2)]
        return _unless_apart(text, {"speculative_config.method": mode, **engine})
    if (m := _CLI_MODE.search(text)) is not None:  # BuildConfig's field: a TensorRT engine
        return _unless_apart(text, {"speculative_config.method": m.group(1).lower(), **engine})
    if commented(text):  # a comment in a script: nothing it names was passed
        return {}
    if quick := _quickstart(text):
        return _unless_apart(text, quick)
    if (m := _RUN_FLAG.search(text)) is not None:
        return _unless_apart(text, {"speculative_config.method": _RUN_MODES[m.group(1)], **engine})
    if _triton_draft(text):
        return _unless_apart(text, {"speculative_config.method": "draft_tokens_external", **engine})
    if _BUILD.search(text) is not None:  # an engine built for the engine flow's runtime
        return _unless_apart(text, engine)
    if (m := _TYPE_ERROR.search(text)) is not None:
        return {"speculative_config.method": m.group(1).lower()}
    if (m := _MODE.search(text)) is not None:
        mode = m.group(1).lower()
        return {"speculative_config.method": None if mode == "none" else mode}
    if (m := _BARE_MODE.search(text)) is not None and not _mode_apart(text, m.start()):
        return {"speculative_config.method": m.group(1).lower()}
    if _VANILLA.search(text) and not _MTP_EAGLE.search(text):
        return _unless_apart(text, {"speculative_config.mtp_vanilla": True})
    return {}


def _unless_apart(text: str, flags: dict[str, object]) -> dict[str, object]:
    """``flags``, or none where the line's sentence sets its config apart (read only for a
    line that holds one: most lines hold none)."""
    return {} if _sentence_apart(text) else flags


# TensorRT-LLM's names of its two MTP modes (MTPDecodingConfig.use_mtp_vanilla): "MTP vanilla"
# runs MTPWorker, "MTP Eagle" MTPEagleWorker. A line naming vanilla alone says which mode the
# run (a PR's measured fix, a report) used; one naming both compares them and says neither.
_VANILLA = re.compile(r"(?i)\bMTP[ _-]?vanilla\b|\bvanilla[ _-]MTP\b")
_MTP_EAGLE = re.compile(r"(?i)\bMTP[ _-]?Eagle\b")


# code spans, brackets (a mapping, a call's arguments) and ``key: value`` / ``key=value`` pairs:
# what is left of a line once the config it holds is taken out
_NOT_WORDS = re.compile(r"`[^`]*`|\{[^{}]*\}|\([^()]*\)|\[[^\[\]]*\]|[\w.-]+\s*[:=]\s*\S+")
_PROSE = re.compile(r"\b[A-Za-z']+\s+[A-Za-z']+\s+[A-Za-z']+\b")  # three words: a sentence


def _sentence_apart(text: str) -> bool:
    """The config a line holds sits in a sentence that asks, supposes, negates or sets it
    apart ("we do not set `speculative_config: {...}`", "should I try ...?"): not the run's.
    A line with no sentence around its config (YAML, a dump, a table cell) is never apart."""
    rest = text
    for _ in range(4):  # nested brackets, innermost first
        rest, n = _NOT_WORDS.subn(" ", rest)
        if not n:
            break
    return _PROSE.search(rest) is not None and set_apart(rest)


def trtllm_command_flags(text: str) -> dict[str, object]:
    """One continuation line of a pasted command -> the TensorRT-LLM-only flags it holds
    (quickstart_advanced.py's, examples/run.py's mode options, trtllm-build's
    --speculative_decoding_mode, tensorrtllm_backend's speculative client); {} for others."""
    if commented(text):
        return {}
    if quick := _quickstart(text):
        return quick
    if (m := _RUN_FLAG.search(text)) is not None:
        return {"speculative_config.method": _RUN_MODES[m.group(1)], "backend": "tensorrt"}
    if (m := _CLI_MODE.search(text)) is not None and "--speculative_decoding_mode" in text:
        return {"speculative_config.method": m.group(1).lower(), "backend": "tensorrt"}
    if _TRITON_CLIENT.search(text) is not None:
        return {"speculative_config.method": "draft_tokens_external", "backend": "tensorrt"}
    return {}


def _mode_apart(text: str, at: int) -> bool:
    """The sentence naming a bare mode asks, supposes or sets it apart (its code spans aside:
    ``if self.drafter is not None`` is the code's condition, not the writer's)."""
    start = max(text.rfind(". ", 0, at) + 1, 0)
    end = len(text) if (stop := text.find(". ", at)) < 0 else stop
    return _MODE_APART.search(re.sub(r"`[^`]*`", " ", text[start:end])) is not None


# a sentence that asks about a mode or names it beside another run (the words of a technical
# sentence, "never reserved" / "is not None", are the bug's, not a contrast)
_MODE_APART = re.compile(
    r"(?i)\?|\b(?:without|unlike|instead of|not using|rather than|compared|vs\.?|versus|whether"
    r"|support(?:s|ed)?|plan\w*|roadmap|would|could|should)\b"
)


def _named(values: dict[str, object]) -> dict[str, object]:
    """Known keys -> flags: methods lower case, counts as ints, one-model switches as bools."""
    flags: dict[str, object] = {}
    for key, value in values.items():
        name = _NAMES.get(key)
        if name is None or value is None or isinstance(value, SourceText):
            continue
        if str(value).lower() in ("null", "none", "~", ""):  # YAML's null: the key is unset
            continue
        if name == "speculative_config.method":  # ``Eagle3`` (1.2+) is ``Eagle``'s new name
            value = "eagle" if str(value).lower() == "eagle3" else str(value).lower()
        elif name in ("speculative_config.one_model", "speculative_config.mtp_vanilla"):
            value = _TRUTH.get(str(value).lower(), value)
        elif isinstance(value, str) and value.isdigit():
            value = int(value)
        flags.setdefault(name, value)
    return flags


def _dump_flags(text: str) -> dict[str, object]:
    """``speculative_config=XDecodingConfig(k=v, ...)`` (LLM API dumps, reprs) or
    ``speculative_config={'decoding_type': ..., ...}`` -> flags."""
    m = _CONFIG_CLASS.search(text)
    if m is not None:
        inside = bracketed(text, m.end() - 1)
        values, _complete = parse_call_kwargs(
            "C(" + (inside if inside is not None else text[m.end() :]) + ")"
        )
        stem = (m.group(1) or m.group(2)).lower()
        values.setdefault("decoding_type", _CLASS_TYPES.get(stem, stem))
        return _named(values)
    if (inline := _INLINE.search(text)) is not None:
        return _inline_flags(text, inline.end() - 1)
    at = text.find("speculative_config=")
    if (
        at >= 0
        and text[at + len("speculative_config=") :].startswith("None")
        and any(mark in text for mark in _TRT_MARK)
    ):
        return {"speculative_config.method": None}
    return {}


def _inline_flags(text: str, open_at: int) -> dict[str, object]:
    """``{"decoding_type": "Eagle", "max_draft_len": 3}`` (JSON, YAML flow, dict repr) ->
    flags; a cut mapping drops its last, broken entry."""
    inside = bracketed(text, open_at)
    pieces, _complete = split_top_level(inside if inside is not None else text[open_at + 1 :])
    if inside is None and pieces:
        pieces = pieces[:-1]
    values: dict[str, object] = {}
    for piece in pieces:
        key, sep, value = piece.partition(":")
        if sep:
            values[key.strip().strip("'\"")] = value.strip().strip("'\"")
    return _named(values) if "decoding_type" in values else {}


# Config values that stand for another method: ``decoding_type: AUTO`` (AutoDecodingConfig)
# drafts with the scheme ``_torch/speculative/auto_heuristic.suggest_spec_config`` picks,
# an NGram one turned off above 32 requests in flight, in every release that has it.
_STANDS_FOR = {
    "auto": ("ngram", "AUTO picks a draft-model-free NGram scheme (auto_heuristic), "
             "off above 32 requests in flight"),
}  # fmt: skip


def resolved_method(method: str) -> tuple[str, str]:
    """(the method that runs, why) for a config value; the value itself when it is one."""
    return _STANDS_FOR.get(method.lower(), (method, ""))


# The TensorRT-LLM release as people write it: the issue template's ``TensorRT-LLM version:
# 1.2.0rc6``, the import banner ``[TensorRT-LLM] TensorRT-LLM version: 0.17.0``, a pin
# ``tensorrt_llm==1.0.0``, a wheel ``tensorrt_llm-1.2.0rc8-cp312-...whl``, an image
# ``tensorrt-llm/release:1.1.0rc2``, prose ``TRT-LLM 1.0``, a nightly
# ``tensorrt_llm==0.16.0.dev2024111900``; not ``tensorrtllm_backend`` or a path.
_RELEASE = re.compile(
    r"(?i)(?<![\w.-])(?:tensorrt[-_]llm|trt[-_]?llm)(?:\s+version)?"
    r"(?:\s*(?:==|:|=)\s*|\s+|-|/release:)[`'\"]?v?"
    r"(\d+\.\d+(?:\.\d+)?(?:rc\d+|\.post\d+|\.dev\d+)*)(?![\w.]*\d)"
)


def trtllm_release(text: str) -> str | None:
    """The TensorRT-LLM release a line names; its defaults (backend, eagle3_one_model) follow."""
    m = _RELEASE.search(text)
    return m.group(1) if m is not None else None


# EagleDecodingConfig.spec_dec_mode on the PyTorch backend: EAGLE3_ONE_MODEL when
# eagle3_one_model, else EAGLE3 (ModelDrafter, two-model). The field defaults to True in every
# llm_args.py read, from its first release (it replaced TRTLLM_EAGLE3_ONE_MODEL in PR #4289,
# 2025-05, so 0.20.0); the TensorRT engine backend (``--backend trt`` / ``tensorrt``) runs the
# engine's own EAGLE. PyTorch became the default backend of the LLM API and trtllm-serve in 1.0
# (PRs #5312 and #5717), so with no ``--backend`` a release names the backend too.
ENGINE_BACKENDS = ("trt", "tensorrt")
ONE_MODEL_FIELD = "0.20.0"  # the first release with EagleDecodingConfig.eagle3_one_model
PYTORCH_DEFAULT = "1.0.0"  # the first release whose default backend is PyTorch
PYTORCH_FIRST = "0.17.0"  # the first release holding the PyTorch backend (tensorrt_llm/_torch)
_ONE_MODEL = "Eagle3OneModelWorker"


def prose_method(named: str, release: object, backend: object) -> str | None:
    """The ``decoding_type`` an algorithm the report's sentences name stands for, where the
    release alone leaves one class: NGram runs ``NGramDrafter`` on the PyTorch backend, the
    default from 1.0 on; an EAGLE-3 or MTP run's class hangs on keys prose never shows."""
    at = _release(release)
    if named != "NGRAM" or at is None or at < Version(PYTORCH_DEFAULT):
        return None
    return None if backend in ENGINE_BACKENDS else "NGram"


def _surely_before(at: Version, first: str) -> bool:
    """``at`` is older than release ``first``; a dev build or rc of ``first`` itself
    (``0.17.0.dev2025011400``, ``1.0.0rc3``) is not: what it holds of ``first`` is unknown."""
    return at < Version(first) and at.base_version != Version(first).base_version


def _release(text: object) -> Version | None:
    try:
        return Version(str(text)) if text else None
    except InvalidVersion:
        return None


def eagle_mode(
    one_model: object, backend: object, release: object = None
) -> tuple[str | None, str | None, str]:
    """(mode, condition, why) of a ``decoding_type: Eagle`` run: the [[method]] value that names
    its class, or a condition when neither the paste nor its release settles eagle3_one_model;
    (None, None, why) on the TensorRT engine backend. ``release``: the TensorRT-LLM release the
    text names, whose defaults stand for what the paste does not set."""
    if str(backend).lower() in ENGINE_BACKENDS:
        return None, None, ""
    if one_model is True or one_model is False:
        return ("EAGLE3_ONE_MODEL" if one_model else "EAGLE3"), None, ""
    if one_model == SCRIPT_ONE_MODEL:
        return None, (
            f"{_ONE_MODEL} where quickstart_advanced.py's --use_one_model defaults to True, "
            "ModelDrafter (two-model) where it defaults to False (older scripts): the command "
            "passes neither --use_one_model nor --no-use_one_model"
        ), ""
    at = _release(release)
    if backend is None and at is not None and _surely_before(at, PYTORCH_FIRST):
        return None, None, ""  # no PyTorch backend yet: the TensorRT engine's EAGLE
    pytorch = backend is not None or (at is not None and at >= Version(PYTORCH_DEFAULT))
    if at is not None and pytorch and at >= Version(ONE_MODEL_FIELD):
        why = f"eagle3_one_model is not set and defaults to True in TensorRT-LLM {release}" + (
            "" if backend is not None else ", whose default backend is PyTorch"
        )
        return "EAGLE3_ONE_MODEL", None, why
    if at is not None and not pytorch:
        return (
            None,
            (
                f"the TensorRT engine's EAGLE (TensorRT-LLM {release}'s default backend); with "
                f"--backend pytorch {_ONE_MODEL} (eagle3_one_model defaults to True from "
                f"{ONE_MODEL_FIELD}), or ModelDrafter if the run set eagle3_one_model: false"
            ),
            "",
        )
    return (
        None,
        (
            f"{_ONE_MODEL} if eagle3_one_model keeps its default (True), "
            "ModelDrafter (two-model) if the run set eagle3_one_model: false; "
            "the TensorRT engine's EAGLE with --backend tensorrt"
        ),
        "",
    )


# MTPDecodingConfig.spec_dec_mode: a checkpoint with one MTP module (the official DeepSeek-V3
# and R1) runs "MTP Eagle" (MTPEagleWorker, one-model by mtp_eagle_one_model's default True)
# unless use_mtp_vanilla; several modules, or use_mtp_vanilla: true, run MTPWorker. The
# checkpoint's module count is in its config, not the paste.
def mtp_mode(vanilla: object, one_model: object) -> tuple[str | None, str | None]:
    """(mode, condition) of a ``decoding_type: MTP`` run: MTP when the paste sets
    use_mtp_vanilla, else a condition naming both workers."""
    if vanilla is True:
        return "MTP", None
    eagle = "ModelDrafter (two-model MTP Eagle)" if one_model is False else "MTPEagleWorker"
    return None, (
        f"{eagle} if the checkpoint has one MTP module (DeepSeek-V3/R1) and use_mtp_vanilla "
        "keeps its default (False), else MTPWorker (MTP vanilla)"
    )


# DraftTargetDecodingConfig.spec_dec_mode: DRAFT_TARGET (ModelDrafter, two-model) in the releases
# that read it first; newer llm_args.py hold ``_draft_target_one_model = PrivateAttr(True)`` and
# run DRAFT_TARGET_ONE_MODEL (DraftTargetOneModelWorker). The release that switched is not read.
DRAFT_TARGET_CONDITION = (
    "DraftTargetOneModelWorker (one-model, the default where llm_args.py has "
    "_draft_target_one_model) or ModelDrafter (two-model, the releases before it)"
)


# NGramDecodingConfig: NGramDrafter (ngram.py, drafting between iterations from NGramPoolManager)
# in the releases that read first, NGramWorker (ngram_worker.py, drafting inside the model
# forward from the suffix automaton) in newer main, where one __init__.py imports it alone. The
# release that switched is not read.
NGRAM_CONDITION = (
    "NGramDrafter (ngram.py, the drafter of the releases read first) or NGramWorker "
    "(ngram_worker.py, drafting inside the model forward in newer releases)"
)
