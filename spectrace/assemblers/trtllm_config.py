"""TensorRT-LLM's speculative settings as threads show them -> flags, as plain data for config.

trtllm-serve takes them from the ``extra_llm_api_options`` YAML that users paste beside the
log (``speculative_config:`` / ``decoding_type: MTP`` / ``max_draft_len: 3``, older files
``speculative_decoding_config:``); the LLM API prints its arguments (``TorchLlmArgs(...,
speculative_config=EagleDecodingConfig(max_draft_len=3, eagle3_one_model=True, ...))``, or the
YAML's dict); trtllm-build takes ``--speculative_decoding_mode lookahead_decoding``; modes show
as ``SpeculativeDecodingMode.EAGLE3_ONE_MODEL`` in logs and reprs; run.py prints
``[TRT-LLM] [I] draft_len: 3`` and the C++ runtime ``TRTGptModel maxDraftLen: 3``.
``speculative_config.one_model`` (EAGLE-3 / MTP one-model vs two-model) picks the worker.
This module reads one line with every reader in turn: ``trtllm_yaml`` (pasted configs and
dumps), ``trtllm_commands`` (the engine flow, Triton, quickstart_advanced.py), ``trtllm_apart``
(sentences that set a config apart); ``trtllm_modes`` says what a mode and a release run.
"""

from __future__ import annotations

import re

from spectrace.assemblers.trtllm_apart import mode_apart, unless_apart
from spectrace.assemblers.trtllm_commands import EXECUTOR_LITERALS, command_flags
from spectrace.assemblers.trtllm_commands import trtllm_command_flags as trtllm_command_flags
from spectrace.assemblers.trtllm_modes import (  # callers read these from here too
    DRAFT_TARGET_CONDITION as DRAFT_TARGET_CONDITION,
)
from spectrace.assemblers.trtllm_modes import NGRAM_CONDITION as NGRAM_CONDITION
from spectrace.assemblers.trtllm_modes import PYTORCH_DEFAULT as PYTORCH_DEFAULT
from spectrace.assemblers.trtllm_modes import PYTORCH_FIRST as PYTORCH_FIRST
from spectrace.assemblers.trtllm_modes import eagle_mode as eagle_mode
from spectrace.assemblers.trtllm_modes import mtp_mode as mtp_mode
from spectrace.assemblers.trtllm_modes import prose_method as prose_method
from spectrace.assemblers.trtllm_modes import resolved_method as resolved_method
from spectrace.assemblers.trtllm_modes import trtllm_release as trtllm_release
from spectrace.assemblers.trtllm_yaml import dump_flags, kwarg_flags, yaml_line_flags

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
    b"use_dynamic_tree",
    b"mtp=vanilla", b"mtp=eagle",  # the MTP accuracy tests' parameter in a test id (trtllm_yaml)
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
    *EXECUTOR_LITERALS,  # the engine flow: draft and target executors orchestrated
    b"ReDrafterFor", b"MedusaForCausalLm", b"EagleForCausalLM",  # a built engine's network class
    b"--redrafter_",  # examples/redrafter/convert_checkpoint.py's options
    *(f"--{flag}".encode() for flag in ("medusa_choices", "lookahead_config", "eagle_choices",
                                        "draft_target_model_config", "prompt_lookup_config",
                                        "draft_engine_dir", "tensorrt_llm_model_name")),
    b"tensorrt_llm_draft_model_name", b"TENSORRT_LLM_DRAFT_MODEL_NAME",  # Triton's draft model
    # the release as an environment report's field, padded or keyed (``TensorRT-LLM:   1.2.0``,
    # ``"tensorrt_llm_version": "1.2.0"``; trtllm_modes.trtllm_release reads it)
    b"TensorRT-LLM:", b"TensorRT-LLM :", b"tensorrt_llm:", b"tensorrt_llm :", b"tensorrt_llm_version",
    b"TRTLLM_VERSION", b'"tensorrt_llm": "', b'"tensorrt_llm":"', b"TRT-LLM:", b"trtllm_version",
    b"speculative_decoding_test.py", b"e2e_grpc_speculative_decoding_client",  # its clients
    b"--execute-bls-speculative-decoding", b"-tensorrt-llm-model-name",
    b"--spec_decode_algo", b"--spec_decode_max_draft_len", b"--spec_decode_nextn",
    b"use_one_model",
    b"decoding_mode", b"DecodingMode.",  # Triton's model config, the executor's bindings
    b"TP vanilla", b"tp vanilla", b"TP Vanilla",  # "MTP vanilla": TensorRT-LLM's MTPWorker mode
    b"2-model is deprecated",
    b"2-model style MTP is deprecated",
    *(
        f"{name}{sep}".encode()
        for name in ("TensorRT-LLM", "tensorrt_llm", "tensorrt-llm", "TRTLLM", "TRT-LLM", "trtllm")
        for sep in (" version", " 0.", " 1.", " v", "==", "-0.", "-1.", "/release:", " |", "|", "**")
    ),
)
_DRAFT_LEN = re.compile(r"(?:draft_len|TRTGptModel maxDraftLen): (\d{1,6})$")  # run.py, C++
_MODE = re.compile(r"\bSpeculativeDecodingMode\.([A-Z][A-Z0-9_]{1,40})\b")
# a one-model mode's name written alone, as a PR or a maintainer writes it (``MTP_EAGLE_ONE_MODEL``
# / one-model speculative decoding): upper case, only TensorRT-LLM's enum spells it
_BARE_MODE = re.compile(r"(?<![\w.])((?:MTP_EAGLE|EAGLE3|DRAFT_TARGET)_ONE_MODEL)(?!\w)")
_TYPE_ERROR = re.compile(r"Invalid decoding type: ['\"]?(\w{1,40})")  # DecodingBaseConfig.from_dict


# Warnings llm_args.py logs only when a two-model mode is configured (deprecated for 1.4); a
# warning that the request falls back to one-model (the validators from
# trtllm_modes.TWO_MODEL_COERCED) shows no two-model run.
_TWO_MODEL = (
    ("Eagle3 2-model is deprecated", {"speculative_config.method": "eagle",
                                      "speculative_config.one_model": False}),
    ("2-model style MTP is deprecated", {"speculative_config.method": "mtp_eagle"}),
)  # fmt: skip
_FALLS_BACK = re.compile(r"(?i)\bfall(?:s|ing)?[ -]back\b|\bfuture release\b|\b(?:1|one)-model\b")


def trtllm_spec_flags(text: str) -> dict[str, object]:
    """One YAML, argument-dump, command or log line -> {flag: value}; {} for any other."""
    for said, flags in _TWO_MODEL:
        if said in text and not _FALLS_BACK.search(text):
            return dict(flags)
    if (m := _DRAFT_LEN.fullmatch(text.strip())) is not None:
        draft = int(m.group(1))  # the C++ runtime prints 0 when the engine does not speculate
        if draft:
            return {"speculative_config.num_spec_tokens": draft}
        return {"speculative_config.method": None} if "TRTGptModel" in text else {}
    if (found := yaml_line_flags(text)) is not None:
        return found
    if "DecodingConfig(" in text or "_config" in text:
        if flags := dump_flags(text):
            return unless_apart(text, flags)
    if flags := kwarg_flags(text):  # ``eagle3_one_model=True,`` (a call's line, a test's id)
        return unless_apart(text, flags)
    if (found := command_flags(text)) is not None:
        return found
    if (m := _TYPE_ERROR.search(text)) is not None:
        return {"speculative_config.method": m.group(1).lower()}
    if (m := _MODE.search(text)) is not None:
        mode = m.group(1).lower()
        return {"speculative_config.method": None if mode == "none" else mode}
    if (m := _BARE_MODE.search(text)) is not None and not mode_apart(text, m.start()):
        return {"speculative_config.method": m.group(1).lower()}
    if _VANILLA.search(text) and not _MTP_EAGLE.search(text):
        return unless_apart(text, {"speculative_config.mtp_vanilla": True})
    return {}


def worded_mode(text: str, flags: dict[str, object]) -> bool:
    """``flags`` came from the mode's name in words ("the vanilla MTP path"), not from a
    config key, keyword or test id: a sentence's (or a title's) word, as weak as prose; a
    pull request's title names the mode its code changes, no run's setting."""
    return set(flags) == {"speculative_config.mtp_vanilla"} and "mtp_vanilla" not in text \
        and "mtp=" not in text and _VANILLA.search(text) is not None  # fmt: skip


# TensorRT-LLM's names of its two MTP modes (MTPDecodingConfig.use_mtp_vanilla): "MTP vanilla"
# runs MTPWorker, "MTP Eagle" MTPEagleWorker. A line naming vanilla alone says which mode the
# run (a PR's measured fix, a report) used; one naming both compares them and says neither.
_VANILLA = re.compile(r"(?i)\bMTP[ _-]?vanilla\b|\bvanilla[ _-]MTP\b")
_MTP_EAGLE = re.compile(r"(?i)\bMTP[ _-]?Eagle\b")
