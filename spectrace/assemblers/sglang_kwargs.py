"""SGLang's server arguments written as Python keywords in a script: ``sgl.Engine(model_path=...,
speculative_algorithm="EAGLE3", speculative_eagle_topk=1)`` on one line, or one keyword a line
inside a multi-line call. The offline engine takes ServerArgs' fields as keywords, so these
are the run's launch flags when no command line or dump shows them. So are the keys of a YAML
file given to ``--config`` (``speculative-algorithm: EAGLE``, one a line; SGLang turns each key
into its flag) and the same keys in a Helm values or compose block of server arguments.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

# Prefilter literals: every line kwarg_flags can use contains one.
KWARG_LITERALS: tuple[bytes, ...] = (
    b"speculative_algorithm=", b"speculative_algorithm =", b"speculative_eagle_topk",
    b"speculative_num_steps", b"speculative_num_draft_tokens", b"disable_overlap_schedule=",
    b"enable_multi_layer_eagle", b"speculative-algorithm:", b"speculative-eagle-topk:",
    b"speculative-num-steps:", b"speculative-num-draft-tokens:", b"disable-overlap-schedule:",
    b"speculative_algorithm:", b"enable-multi-layer-eagle:",
)  # fmt: skip
# the ServerArgs fields the worker-path rule reads, with a Python literal value
_FIELDS = ("speculative_algorithm", "speculative_eagle_topk", "speculative_num_steps",
           "speculative_num_draft_tokens", "disable_overlap_schedule", "enable_multi_layer_eagle")  # fmt: skip
_KWARG = re.compile(
    r"(?<![\w.\"'-])(" + "|".join(_FIELDS) + r")\s*=\s*"
    r"(\"[^\"\n]{0,60}\"|'[^'\n]{0,60}'|-?\d{1,6}|True|False|None)\s*(?=[,)]|$)"
)


# one field of ServerArgs' repr: "tp_size=8", "attention_backend='fa3'", "cuda_graph_bs=[1, 2]"
_DUMP_FIELD = re.compile(
    r"(?<![\w.])[a-z][a-z0-9_]{1,48}=(?:None|True|False|'[^']*'|-?[\d.]+(?:e-?\d+)?|\[[^\]]*\]"
    r"|\{[^}]*\})(?=, |\)|$)"
)
_FRAGMENT_FIELDS = 8


def dump_fragment(text: str) -> bool:
    """The line is a piece of a ``server_args=ServerArgs(...)`` dump whose head was cut (the
    dump wrapped, or pasted from its middle): eight or more of the repr's ``name=value, ``
    fields, ``speculative_algorithm`` among them. Its values are the server's own final ones."""
    if "ServerArgs(" in text or "speculative_algorithm=" not in text:
        return False
    return len(_DUMP_FIELD.findall(text)) >= _FRAGMENT_FIELDS


# a YAML key line: "speculative-algorithm: EAGLE3", "  speculative_eagle_topk: 1  # comment"
# and a dict member one a line ("speculative_algorithm": "EAGLE", in sgl.Engine(**kwargs)'s dict)
_YAML = re.compile(
    r"^\s*(?:-\s+)?([\"']?)(" + "|".join(f.replace("_", "[-_]") for f in _FIELDS) + r")\1\s*:\s*"
    r"([\"']?)([\w.-]{1,40})\3\s*,?\s*(?:#.*)?$"
)
_UNSET = ("none", "null", "~")
_YAML_BOOL = {"true": True, "false": False, "yes": True, "no": False}


def yaml_flags(text: str) -> dict[str, object]:
    """The field a YAML key line sets (``speculative-algorithm: EAGLE`` in a ``--config`` file),
    its value as SGLang's parser takes it (the algorithm upper case, numbers, booleans)."""
    m = _YAML.match(text)
    if m is None:
        return {}
    name, value = m.group(2).replace("-", "_"), m.group(4)
    if value.lower() in _UNSET:
        return {}  # unset: the default, which another line may state
    if name == "speculative_algorithm":
        return {name: value.upper()}
    if value.lower() in _YAML_BOOL:
        return {name: _YAML_BOOL[value.lower()]}
    return {name: int(value)} if value.isdigit() else {}


# a Hydra-style override or a shell/INI assignment with a bare value, as RL trainers pass the
# rollout engine's args ("actor_rollout_ref.rollout.engine_kwargs.sglang.speculative_algorithm=EAGLE3")
_OVERRIDE = re.compile(
    r"(?<![\w\"'-])\+{0,2}(?:\w+\.)*("
    + "|".join(_FIELDS)
    + r")=([A-Za-z0-9_]{1,20})(?=[\s,;]|$)"
)
_FLAGS = ("disable_overlap_schedule", "enable_multi_layer_eagle")  # booleans: true/false


def override_flags(text: str) -> dict[str, object]:
    """The fields a line sets as ``key=VALUE`` with a bare value (a number, an algorithm)."""
    out: dict[str, object] = {}
    for m in _OVERRIDE.finditer(text):
        name, value = m.group(1), m.group(2)
        if name == "speculative_algorithm" and value.lower() not in _UNSET:
            out[name] = value.upper()
        elif name in _FLAGS and value.lower() in ("true", "false"):
            out[name] = value.lower() == "true"
        elif value.isdigit() and name not in _FLAGS:
            out[name] = int(value)
    return out


# one ServerArgs field written whole as inline code in a sentence ("the log prints TP=8,
# `speculative_algorithm='DSPARK'`, block size 5"): the server's own repr of the field (vLLM
# prints ``method='dspark'`` inside its SpeculativeConfig, TensorRT-LLM ``decoding_type``)
_CODE_FIELD = re.compile(
    r"`(" + "|".join(_FIELDS) + r")\s*=\s*(\"[^\"\n]{0,60}\"|'[^'\n]{0,60}'|-?\d{1,6}|True|False|None)`"
)

_CLAUSE_END = re.compile(r"[,;，；、。]|\.(?:\s|$)")  # a clause's end, the CJK marks too


def code_field_flags(text: str, apart: Callable[[str], bool]) -> dict[str, object]:
    """The fields a sentence quotes whole as inline code (```speculative_algorithm='DSPARK'```),
    as Python literals, each unless ``apart`` sets its own clause apart (a clause ends at a
    comma, a semicolon or a stop, the CJK ones too: "CUDA graph 均 disabled" is another's)."""
    out: dict[str, object] = {}
    for m in _CODE_FIELD.finditer(text):
        start = max((b.end() for b in _CLAUSE_END.finditer(text, 0, m.start())), default=0)
        stop = next((b.start() for b in _CLAUSE_END.finditer(text, m.end())), len(text))
        if apart(text[start:stop]):
            continue
        try:
            out[m.group(1)] = ast.literal_eval(m.group(2))
        except (ValueError, SyntaxError):
            continue
    return out


# the sentence tells what the run's log or server printed: the log / server_args / banner, then
# a verb of what it did print ("the server log printed", "Server args confirm", "日志打印",
# "本次日志已确认", "`server_args` 明确记录"); not a generic present ("SGLang records it as"), an
# imperative ("Confirm the launch log contains"), a criterion or an expectation
_PRINTED = re.compile(
    r"(?i)\b(?:logs?|server[ _]args|banner|dump|start-?up output)\b`?[^.;:]{0,30}?\b(?:printed|showed|shown|"
    r"confirms?|confirmed|recorded|reported|logged)\b"
    r"|(?:日志|server_args`?|启动参数)[^。；：:\n]{0,8}?(?:打印|显示|确认|记录|输出)"
)
_EXPECTED = re.compile(
    r"(?i)\b(?:expect\w*|must|should|needs?|required?|criteri\w*|gate|will|would)\b"
    r"|必须|应该|需要|期望|预期|要求|证明|条件|标准"
)


def printed_told(text: str) -> bool:
    """The sentence tells what the run's own log or server printed (``_PRINTED``), not what a
    reader should see or a check requires (``_EXPECTED``)."""
    return _PRINTED.search(text) is not None and _EXPECTED.search(text) is None


def kwarg_flags(text: str) -> dict[str, object]:
    """The fields a line sets as Python keywords (``speculative_algorithm="EAGLE3",``) or as a
    YAML key (a ``ServerArgs(...)`` call the user wrote too); not a dump (read whole elsewhere)
    nor a command's flags."""
    if "server_args=" in text or "--speculative" in text or text.lstrip().startswith("#"):
        return {}  # (a commented-out keyword or key sets nothing)
    if yaml := yaml_flags(text):
        return yaml
    out: dict[str, object] = {}
    for m in _KWARG.finditer(text):
        try:
            out[m.group(1)] = ast.literal_eval(m.group(2))
        except (ValueError, SyntaxError):
            continue
    return override_flags(text) | out
