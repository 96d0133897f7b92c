"""TensorRT-LLM's speculative config as pasted: the ``extra_llm_api_options`` YAML one key a line
(``decoding_type: MTP``, ``max_draft_len: 3``; pasted JSON; a diff's added line), the whole
section on one line (JSON, a YAML flow mapping, a dict repr), and the LLM API's argument dumps
(``speculative_config=EagleDecodingConfig(max_draft_len=3, eagle3_one_model=True, ...)``).
Methods are kept lower case; rules/paths/trtllm.toml's [[method]] rows name their family.
"""

from __future__ import annotations

import re

from spectrace.assemblers.pyrepr import SourceText, bracketed, parse_call_kwargs, split_top_level

# One key a line: YAML (``  decoding_type: MTP  # ...``) or pasted JSON (``"max_draft_len": 3,``);
# a line a diff adds (``+  decoding_type: NGram``, a config file under review) states it too.
_YAML = re.compile(
    r"""\s*[-+]?\s*["']?(decoding_type|max_draft_len|num_nextn_predict_layers|speculative_model_dir|"""
    r"""speculative_decoding_mode|eagle3_one_model|mtp_eagle_one_model|use_mtp_vanilla|use_dynamic_tree)["']?\s*:\s*"""
    r"""["']?([\w./-]{1,200})["']?\s*,?\s*(?:#.*)?$"""
)
# A mode switch only TensorRT-LLM's config classes have, set as a Python keyword on a call's
# own line (``    eagle3_one_model=True,`` in a multi-line ``EagleDecodingConfig(...)``) or as a
# parametrized test's parameter (``test_eagle3[eagle3_one_model=False-overlap_scheduler=True]``;
# the MTP accuracy tests' ``mtp=vanilla`` builds MTPDecodingConfig(use_mtp_vanilla=True),
# ``mtp=eagle`` leaves it False): the setting the run or the test used. Not in a sentence ("disallow
# eagle3_one_model=False with ...": code under change), a declaration or a comparison.
_SWITCHES = "eagle3_one_model|mtp_eagle_one_model|use_mtp_vanilla"
_KWARG_LINE = re.compile(
    rf"\s*[-+]?\s*({_SWITCHES})\s*=\s*(True|False|true|false)\s*[,)]*\s*(?:#.*)?"
)
_TEST_ID = re.compile(r"(?<![\w.])test_\w*\[([^\]\s]{1,400})\]")
_ID_PARAM = re.compile(rf"({_SWITCHES})=(True|False)|mtp=(vanilla|eagle)")
# The whole section on one line: JSON, a YAML flow mapping, a Python dict repr.
_INLINE = re.compile(r"""["']?speculative(?:_decoding)?_config["']?\s*[:=]\s*\{""")
# The LLM API's config classes (llmapi/llm_args.py, every release read: Medusa, Eagle, Eagle3,
# MTP, Lookahead, NGram, SA, DraftTarget, SaveHiddenStates, UserProvided, PARD, DFlash, DSpark,
# Auto); any other stem only right after speculative_config= (vLLM prints a plain
# decoding_config=DecodingConfig(...) that is not speculative).
_CONFIG_CLASS = re.compile(
    r"(?:speculative_config=\s*(\w{2,40})|\b(Medusa|Eagle3?|MTP|Lookahead|NGram|SA|DraftTarget|"
    r"SaveHiddenStates|UserProvided|PARD|DFlash|DSpark|Auto))DecodingConfig\("
)
_TRT_MARK = ("LlmArgs", "[TRT-LLM]", "tensorrt_llm")

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
    # the one-model workers' dynamic-tree subclasses (eagle3_dynamic_tree.py, mtp_dynamic_tree.py)
    "use_dynamic_tree": "speculative_config.dynamic_tree",
}
# Config classes whose decoding_type differs from the class name's stem.
_CLASS_TYPES = {"savehiddenstates": "savestate", "base": ""}
_TRUTH = {"true": True, "false": False}


def config_class_call(text: str) -> bool:
    """The line calls one of the LLM API's speculative config classes (``speculative_config=
    Eagle3DecodingConfig(...)``): TensorRT-LLM's ``LLM(...)``, whatever else its keywords share
    with vLLM's (``model=``, ``speculative_model=``)."""
    return _CONFIG_CLASS.search(text) is not None


def yaml_line_flags(text: str) -> dict[str, object] | None:
    """One YAML or JSON key line -> its flags; None for a line that is no such key line."""
    if (m := _YAML.fullmatch(text)) is None:
        return None
    return _named({m.group(1): m.group(2)})


def kwarg_flags(text: str) -> dict[str, object]:
    """The mode switches a call's own line (``eagle3_one_model=True,``) or a test's id
    (``[eagle3_one_model=False-...]``, ``[mtp=vanilla-...]``) sets -> flags; {} when it sets
    none, or one switch both ways (two tests' ids on one line)."""
    if "_one_model" not in text and "mtp_vanilla" not in text and "mtp=" not in text:
        return {}
    found: set[tuple[str, str]] = set()
    if (m := _KWARG_LINE.fullmatch(text)) is not None:
        found.add((m.group(1), m.group(2).lower()))
    for test in _TEST_ID.finditer(text):
        for param in test.group(1).split("-"):
            if (p := _ID_PARAM.fullmatch(param)) is not None:
                key, value = p.group(1) or "use_mtp_vanilla", p.group(2) or str(p.group(3) == "vanilla")
                found.add((key, value.lower()))
    if len({key for key, _v in found}) != len(found):
        return {}
    return _named(dict(found))


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
        elif name in ("speculative_config.one_model", "speculative_config.mtp_vanilla",
                      "speculative_config.dynamic_tree"):
            value = _TRUTH.get(str(value).lower(), value)
        elif isinstance(value, str) and value.isdigit():
            value = int(value)
        flags.setdefault(name, value)
    return flags


def dump_flags(text: str) -> dict[str, object]:
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

