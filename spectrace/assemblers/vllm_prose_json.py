"""A speculative config written inline in a sentence (``... {"method": "eagle3", ...} ...``).

Downstream repositories and issue threads often write the run's config inside a sentence
rather than a launch line, and the config readers take such a mapping as the run's. The
sentence around it can say otherwise: the config is the docs' or a colleague's suggestion,
one the writer removed or never enabled ("even after removing {...} the server crashes",
"{...} would hide it; we don't want speculation", "from the vLLM blog: ... {...} gives 2.1x"),
or what a framework supports ("Medusa runs natively in vLLM ({...}) and TGI", an RFC's motivation).
Such a line sets no method. A sentence
naming two configs of different methods ("we tried {ngram} and {eagle3}") decides neither:
their classes become a condition.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from spectrace.assemblers.pyconfig import bare_spec_configs, parse_dict_repr
from spectrace.assemblers.run_config import Evidence, RunConfig
from spectrace.assemblers.sentences import contrast_clauses
from spectrace.assemblers.vllm_proposers import method_classes
from spectrace.dialects.base import LogLine

# words of a sentence that put its config apart from the run it reports
_APART = re.compile(
    r"(?i)\b(?:not|never|without|remov\w*|drop\w*|disabl\w*|would|could|should|might|docs?"
    r"|documentation|colleague|suggest\w*|recommend\w*|instead|don't|didn't|haven't"
    r"|wasn't|isn't|blog|article|tutorial|readme|guide|paper|announcement|according"
    # what a framework supports, not a run: "it runs natively in vLLM ({...})", "vLLM supports"
    r"|natively|supports?|supported|lacks?|available|capabilit\w*)\b|\?"
)
_PROSE = re.compile(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}\s+[A-Za-z]{2,}")  # three words: a sentence
# a command's option (``--disable-log-requests``, ``--no-enable-prefix-caching``): its words are
# the option's name, never a sentence setting the config apart
_OPTION = re.compile(r"(?<![\w-])--?[A-Za-z][\w.-]*")


def prose_json(config: RunConfig, lines: Sequence[LogLine] = ()) -> None:
    """Drop the method a set-apart sentence's inline config gave; two configs of different
    methods on one sentence become a condition naming both classes. ``lines``: the whole
    lines (an evidence's text is trimmed, and a long paragraph's config may be cut off)."""
    whole = {(ln.source, ln.lineno): ln.text for ln in lines}
    dropped: set[tuple[str, int]] = set()
    evidence = []
    for e in config.path_evidence:
        text = whole.get((e.source, e.lineno), e.text)
        configs = bare_spec_configs(text) if "{" in text else []
        rest = text
        for found in configs:
            rest = rest.replace(found, " ")
        rest = _OPTION.sub(" ", rest)
        if not configs or not _PROSE.search(rest):
            evidence.append(e)
        elif _APART.search(_own_clauses(text, configs)):
            dropped.add((e.source, e.lineno))
        else:
            evidence.append(_two_methods(e, configs))
    config.path_evidence = evidence
    config.flags = {k: f for k, f in config.flags.items()
                    if not (k.startswith("speculative_config.") and (f.source, f.lineno) in dropped)}  # fmt: skip


def _own_clauses(text: str, configs: list[str]) -> str:
    """The words of the clauses of ``text`` that hold one of its inline ``configs`` (the whole
    text where none holds one whole), without the configs and options: what sets a config apart
    is said in its own clause, not in the other arm of a contrast the sentence draws."""
    own = [c for c in contrast_clauses(text) if any(found in c for found in configs)] or [text]
    rest = " ".join(own)
    for found in configs:
        rest = rest.replace(found, " ")
    return _OPTION.sub(" ", rest)


def _two_methods(e: Evidence, configs: list[str]) -> Evidence:
    """``e`` as a condition over the classes of the sentence's configs, when they differ."""
    methods = []
    for found in configs:
        values, _complete = parse_dict_repr(found)
        methods.append(str(values.get("method", "")).lower())
    classes = dict.fromkeys(method_classes().get(m, m) for m in methods)
    if len(classes) < 2:
        return e
    condition = " or ".join(f"{cls} ({m})" for cls, m in zip(classes, dict.fromkeys(methods), strict=False))
    condition += ": the sentence names several configs"
    return replace(e, points_to=None, worker_class=None, condition=condition,
                   reason=f"{e.reason.split(' -> ', 1)[0]}: {condition}")  # fmt: skip
