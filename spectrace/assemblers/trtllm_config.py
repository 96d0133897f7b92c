"""TensorRT-LLM's speculative settings as threads show them -> flags, as plain data for config.

trtllm-serve takes them from the ``extra_llm_api_options`` YAML that users paste beside the
log (``speculative_config:`` / ``decoding_type: MTP`` / ``max_draft_len: 3``); run.py prints
``[TRT-LLM] [I] draft_len: 3`` and the C++ runtime ``TRTGptModel maxDraftLen: 3``. All name
the draft length T (T + 1 verify rows).
"""

from __future__ import annotations

import re

# Lines the pipeline must keep for the collector (every match below holds one).
LITERALS: tuple[bytes, ...] = (
    b"decoding_type:",
    b"max_draft_len:",
    b"num_nextn_predict_layers:",
    b"speculative_model_dir:",
    b"draft_len: ",
    b"maxDraftLen: ",
)
_YAML = re.compile(
    r"\s*(decoding_type|max_draft_len|num_nextn_predict_layers|speculative_model_dir)\s*:\s*"
    r"""["']?([\w./-]{1,200})["']?\s*(?:#.*)?$"""
)
_DRAFT_LEN = re.compile(r"(?:draft_len|TRTGptModel maxDraftLen): (\d{1,6})$")  # run.py, C++
_NAMES = {
    "decoding_type": "speculative_config.method",
    "max_draft_len": "speculative_config.num_spec_tokens",
    "num_nextn_predict_layers": "speculative_config.num_spec_tokens",  # MTP before max_draft_len
    "speculative_model_dir": "speculative_config.model",
}


def trtllm_spec_flags(text: str) -> dict[str, object]:
    """One YAML or run.py line -> {flag: value}; {} for any other line."""
    if (m := _DRAFT_LEN.fullmatch(text.strip())) is not None:
        draft = int(m.group(1))  # the C++ runtime prints 0 when the engine does not speculate
        return {"speculative_config.num_spec_tokens": draft} if draft else {}
    m = _YAML.fullmatch(text)
    if m is None:
        return {}
    key, value = m.groups()
    if key == "decoding_type":
        return {_NAMES[key]: value.lower()}
    return {_NAMES[key]: int(value) if value.isdigit() else value}
