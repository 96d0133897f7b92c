"""TensorRT-LLM's speculative settings as commands show them: the TensorRT engine flow's
per-mode example scripts and builds (``examples/<mode>/convert_checkpoint.py``, ``trtllm-build
--speculative_decoding_mode``, examples/run.py's mode options and Draft-Target-Model lines),
Triton's tensorrtllm_backend serving a draft engine, and examples/llm-api/
quickstart_advanced.py's flags on the PyTorch backend.
"""

from __future__ import annotations

import re

from spectrace.assemblers.pyconfig import commented
from spectrace.assemblers.trtllm_apart import unless_apart
from spectrace.assemblers.trtllm_modes import SCRIPT_ONE_MODEL

# trtllm-build's flag, or the keyword as Python / prose writes it (``speculative_decoding_mode=
# lookahead_decoding``, in backticks or quotes).
_CLI_MODE = re.compile(
    r"(?:--|\b)speculative_decoding_mode(?:[=\s]+|\s*[:=]\s*)[`\"']?([a-z_]{2,40})\b"
)
# The TensorRT engine flow's per-method example scripts (convert_checkpoint.py, run.py): the
# engine is built for that mode, and no PyTorch worker runs it.
_EXAMPLE = re.compile(
    r"examples/(eagle|medusa|redrafter|lookahead|draft_target_model)/\w+\.py\b"
    r"|examples/(prompt_lookup)/run_dtm_pld\.py\b"  # DTM and PLD both feed the target's tokens
)
# examples/run.py's Draft-Target-Model lines (engine flow): the target engine takes the draft's
# tokens from outside (speculative_decoding_mode draft_tokens_external).
_DTM = re.compile(r"Device\(s\) for draft model: \[|Using Draft-Target-Model speculative decoding")
# trtllm-build run as a command: its flags or a continuation follow, or it heads the line; not
# the tool named in a sentence ("Remove builder_opt from the `trtllm-build` command", a changelog)
_BUILD = re.compile(
    r"(?:^|[\s$`>])trtllm-build(?=\s+(?:-|\\)|\s*$)|^\W{0,4}trtllm-build(?![\w-]|`\s+\w)"
)
# examples/run.py's (examples/utils.py add_common_args) options for the mode its engine was
# built with; the draft-target ones feed the target engine the draft's tokens from outside
_RUN_FLAG = re.compile(
    r"(?<![\w-])--(medusa_choices|lookahead_config|eagle_choices|draft_target_model_config"
    r"|prompt_lookup_config|draft_engine_dir)(?=[=\s]|$)"
)
# The engine's network classes of the speculative modes (tensorrt_llm/models: ReDrafterForLLaMALM
# and ReDrafterForQWenLM of models/redrafter, MedusaForCausalLm, EagleForCausalLM) as only a
# built engine shows them: the TensorRT builder's layer names (``[TRT] [W] ReDrafterForLLaMALM/
# _fwd_helper_L75/...``) and the checkpoint's ``"architecture": "MedusaForCausalLm"`` that
# convert_checkpoint.py writes (a Hugging Face config says ``architectures``, a list)
_ENGINE_CLASS = re.compile(
    r"(?<![\w.])(ReDrafterFor[A-Za-z0-9]{1,20}LM|MedusaForCausalLm|EagleForCausalLM)/[\w/]"
    r"|\"architecture\"\s*:\s*\"(ReDrafterFor[A-Za-z0-9]{1,20}LM|MedusaForCausalLm|EagleForCausalLM)\""
)
_CLASS_MODES = {"ReDrafter": "explicit_draft_tokens", "Medusa": "medusa", "Eagle": "eagle"}
# examples/redrafter/convert_checkpoint.py's own options (no other program has them): the
# checkpoint is converted for the engine's ReDrafter mode
_REDRAFTER_FLAG = re.compile(r"(?<![\w-])--redrafter_(?:num_beams|draft_len_per_beam)(?=[=\s]|$)")
# trtllm-bench's backend as its command states it (its default moved from the engine flow to
# PyTorch across releases, so only the written option says which): ``--backend pytorch``, or an
# ``--engine_dir`` (a built engine: the engine flow)
_BENCH = re.compile(r"(?:^|[\s$`>])trtllm-bench(?=\s)")
_BENCH_BACKEND = re.compile(r"(?<![\w-])--backend(?:=|\s+)[\"']?(pytorch|tensorrt|_autodeploy)\b")
_BENCH_ENGINE = re.compile(r"(?<![\w-])--engine_dir(?:=|\s+)\S")
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
# launch_triton_server.py's model list: on the command line, its own line of a command split
# over lines, or an item of a Python / JSON argument list (``"--tensorrt_llm_model_name", "a,b"``)
_TRITON_LIST = re.compile(r"""--tensorrt_llm_model_name["']?(?:\s*[=,]\s*|\s+)["']?([\w.,-]+)""")
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


# The decoding mode the Triton backend's tensorrt_llm model gives the executor (its config.pbtxt
# parameter ``decoding_mode``, filled by tools/fill_template.py ``decoding_mode:medusa``; its
# model.py maps medusa, redrafter, lookahead and eagle to the executor's DecodingMode), and that
# DecodingMode as the executor's Python bindings write it (``trtllm.DecodingMode.Medusa()``):
# the engine's speculative mode. The sampling modes (top_k, top_p, beam_search) are none.
_DECODING_MODE = re.compile(
    r"""(?<![\w-])decoding_mode["']?\s*[:=]\s*["']?(medusa|redrafter|lookahead|eagle)(?![\w-])"""
    r"|\bDecodingMode\.(Medusa|ExplicitDraftTokens|Lookahead|Eagle|ExternalDraftTokens)\(\)"
)
_DECODING_MODES = {"medusa": "medusa", "redrafter": "explicit_draft_tokens",
                   "explicitdrafttokens": "explicit_draft_tokens",
                   "lookahead": "lookahead_decoding", "eagle": "eagle",
                   "externaldrafttokens": "draft_tokens_external"}  # fmt: skip


def _decoding_mode(text: str) -> dict[str, object]:
    """The engine's speculative mode a Triton model config or an executor call sets; {}."""
    if (m := _DECODING_MODE.search(text)) is None:
        return {}
    mode = _DECODING_MODES[(m.group(1) or m.group(2)).lower()]
    return {"speculative_config.method": mode, "backend": "tensorrt"}


# examples/llm-api/quickstart_advanced.py (the PyTorch backend's LLM-API example, also run by
# TensorRT-LLM's own tests): --spec_decode_algo picks the config class setup_llm builds (MTP ->
# MTPDecodingConfig, EAGLE3 -> EagleDecodingConfig, DRAFT_TARGET, NGRAM, AUTO, DFLASH), its
# draft length (--spec_decode_max_draft_len, --spec_decode_nextn before it) and the one-model
# switch (--use_one_model; its default changed across releases, so only a flag shown counts)
_QUICKSTART = re.compile(r"(?<![\w-])--spec_decode_algo(?:=|\s+)[\"']?([A-Za-z0-9_]{2,20})")
_QUICKSTART_LEN = re.compile(r"(?<![\w-])--spec_decode_(?:max_draft_len|nextn)(?:=|\s+)(\d{1,3})\b")
_ONE_MODEL_FLAG = re.compile(r"(?<![\w-])--(no-)?use_one_model(?![\w-])")
_QUICKSTART_TYPES = {"eagle3": "eagle", "draft_target": "drafttarget"}


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


# the engine flow's draft-target orchestration as a writer tells it: a draft and a target executor
# (the C++ executor API's orchestrator mode, before the PyTorch backend ran both in one)
_EXECUTORS = re.compile(
    r"(?i)\btwo executors\b|\b(?:draft|target)[ _-]executors?\b|\borchestrator mode\b"
)
# the C++ batch manager of a built TensorRT engine in a native backtrace or an assertion's
# source (``batch_manager/trtGptModelInflightBatching.cpp:1045``,
# ``TrtGptModelInflightBatching::forwardAsync``): the PyTorch backend's executor never runs it.
# Only as a run prints it: the source of a failed check (``[TensorRT-LLM][ERROR] Assertion
# failed: ... (.../trtGptModelInflightBatching.cpp:1045)``) or a numbered native frame with its
# address, never a sentence naming the code
_ENGINE_BATCHER = re.compile(
    r"(?:\[ERROR\]|Assertion failed|[Ee]rror:|[Ee]xception).*/batch_manager/trtGptModelInflightBatching\.cpp:\d+"
    r"|^\s*\d{1,3}\s+0x[0-9a-f]{6,16}\s+.*\bTrtGptModelInflightBatching::"
)
# what a line must hold for _EXECUTORS and _ENGINE_BATCHER (the pre-filter's literals,
# trtllm_config.LITERALS)
EXECUTOR_LITERALS = (b"two executors", b"raft executor", b"arget executor", b"raft_executor",
                     b"arget_executor", b"rchestrator mode", b"trtGptModelInflightBatching.cpp",
                     b"TrtGptModelInflightBatching::")  # fmt: skip


def command_flags(text: str) -> dict[str, object] | None:
    """One line of the engine flow (a build, an example script, run.py's options or lines),
    of Triton's draft-target serving or of quickstart_advanced.py -> its flags, {} where its
    sentence sets them apart or the line is a comment; None for a line that is none of these."""
    if _DTM.search(text) is not None:
        return {"speculative_config.method": "draft_tokens_external", "backend": "tensorrt"}
    engine = {"backend": "tensorrt", "engine_flow": True}  # the engine flow's modes and builds
    if (m := _EXAMPLE.search(text)) is not None:
        mode = _EXAMPLE_MODES[m.group(1) or m.group(2)]
        return unless_apart(text, {"speculative_config.method": mode, **engine})
    if (m := _CLI_MODE.search(text)) is not None:  # BuildConfig's field: a TensorRT engine
        return unless_apart(text, {"speculative_config.method": m.group(1).lower(), **engine})
    if commented(text):  # a comment in a script: nothing it names was passed
        return {}
    if quick := _quickstart(text):
        return unless_apart(text, quick)
    if (m := _RUN_FLAG.search(text)) is not None:
        return unless_apart(text, {"speculative_config.method": _RUN_MODES[m.group(1)], **engine})
    if _triton_draft(text):
        return unless_apart(text, {"speculative_config.method": "draft_tokens_external", **engine})
    if (m := _ENGINE_CLASS.search(text)) is not None:  # a built engine's network class
        name = m.group(1) or m.group(2)
        mode = next(v for k, v in _CLASS_MODES.items() if name.startswith(k))
        return {"speculative_config.method": mode, **engine}
    if _REDRAFTER_FLAG.search(text) is not None:
        return unless_apart(text, {"speculative_config.method": "explicit_draft_tokens", **engine})
    if mode := _decoding_mode(text):
        return unless_apart(text, mode)
    if _BUILD.search(text) is not None:  # an engine built for the engine flow's runtime
        return unless_apart(text, engine)
    if _EXECUTORS.search(text) is not None:  # the executor API orchestrating draft and target
        return unless_apart(text, engine)
    if _ENGINE_BATCHER.search(text) is not None:  # a frame of the engine's C++ batch manager: it ran
        return engine
    if _BENCH.search(text) is not None and (bench := _bench_backend(text)):
        return unless_apart(text, bench)
    return None


def _bench_backend(text: str) -> dict[str, object]:
    """The backend a trtllm-bench command line states; {} where it states none."""
    if (m := _BENCH_BACKEND.search(text)) is not None:
        return {"backend": m.group(1)}
    return {"backend": "tensorrt"} if _BENCH_ENGINE.search(text) is not None else {}


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
    if _triton_draft(text):  # (launch_triton_server.py's model list naming a draft, split over lines)
        return {"speculative_config.method": "draft_tokens_external", "backend": "tensorrt", "engine_flow": True}
    if _REDRAFTER_FLAG.search(text) is not None:
        return {"speculative_config.method": "explicit_draft_tokens", "backend": "tensorrt"}
    return _decoding_mode(text)
