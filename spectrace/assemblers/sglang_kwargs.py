"""SGLang's server arguments written as Python keywords in a script: ``sgl.Engine(model_path=...,
speculative_algorithm="EAGLE3", speculative_eagle_topk=1)`` on one line, or one keyword a line
inside a multi-line call. The offline engine takes ServerArgs' fields as keywords, so these
are the run's launch flags when no command line or dump shows them.
"""

from __future__ import annotations

import ast
import re

# Prefilter literals: every line kwarg_flags can use contains one.
KWARG_LITERALS: tuple[bytes, ...] = (
    b"speculative_algorithm=", b"speculative_algorithm =", b"speculative_eagle_topk",
    b"speculative_num_steps", b"speculative_num_draft_tokens", b"disable_overlap_schedule=",
    b"enable_multi_layer_eagle",
)  # fmt: skip
# the ServerArgs fields the worker-path rule reads, with a Python literal value
_FIELDS = ("speculative_algorithm", "speculative_eagle_topk", "speculative_num_steps",
           "speculative_num_draft_tokens", "disable_overlap_schedule", "enable_multi_layer_eagle")  # fmt: skip
_KWARG = re.compile(
    r"(?<![\w.\"'-])(" + "|".join(_FIELDS) + r")\s*=\s*"
    r"(\"[^\"\n]{0,60}\"|'[^'\n]{0,60}'|-?\d{1,6}|True|False|None)\s*(?=[,)]|$)"
)


def kwarg_flags(text: str) -> dict[str, object]:
    """The fields a line sets as Python keywords (``speculative_algorithm="EAGLE3",``); not
    a dump's ``server_args=ServerArgs(...)`` (read whole elsewhere) nor a command's flags."""
    if "ServerArgs(" in text or "--speculative" in text:
        return {}
    out: dict[str, object] = {}
    for m in _KWARG.finditer(text):
        try:
            out[m.group(1)] = ast.literal_eval(m.group(2))
        except (ValueError, SyntaxError):
            continue
    return out
