"""Crash chains written as ``file.py:N`` steps -> the table rows of the code they went through.

A note, a patch's docstring or an issue often retells a crash as a chain of steps instead of
pasting the traceback: ``gpu_model_runner.py:5794  self.drafter.dummy_run(...)`` ->
``llm_base_proposer.py:1494`` -> ``gemma4_mtp.py:550``, on one line joined by arrows or one step
a line (indented, arrow-led). Each step is a frame of code that ran. A step's bare name is read
as the one framework whose tables hold every row it could be; where several hold it
(``llama_eagle3.py``: vLLM's and SGLang's) as the framework another step of the same chain
names alone (``gpu_model_runner.py``: vLLM's V1 runner). Only a line that is nothing but steps
is read (a lead-in such as "Chain:" before them, the exception after the last): a sentence that
cites a file while it tells of code is no frame.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from spectrace.path_frames import FrameSignature, frame_signatures

_ARROW = re.compile(r"\s*(?:->|→|⟶|=>)\s*")
# a step: a file (its folders optional) and a line number; not a grep hit (``x.py:74:``), a range
# (``x.py:51-61``) or a list of lines (``x.py:51,60``)
_STEP = re.compile(r"(?P<path>(?:[\w.-]+/)*[\w-]+\.py):(?P<line>\d+)(?![\d:,-])(?P<rest>.*)$")
# what a step may carry after it: the function, or the code line it ran (a call, an assignment
# from one, a return or raise); never the words of a sentence
_CODE = re.compile(
    r"(?:in\s+)?[A-Za-z_][\w.]*(?:\(.*)?|[\w.]+(?:\s*,\s*[\w.*]+)*\s*=\s*[\w.]+\(.*"
    r"|(?:return|raise|assert|await|yield)\b.*"
)
_EXCEPTION = re.compile(r"[\w.]*(?:Error|Exception|Interrupt|Exit|Failure)\b.*")
_LEAD_IN = re.compile(r"[^`]{0,60}[:—–]")  # "Chain:", "Stack frames —" before the first step
_LEAD = re.compile(r"[^`:—–]{0,60}[:—–]\s+(?=[`'\"*]*(?:[\w.-]+/)*[\w-]+\.py:\d)")
_DECOR = " \t`'\"*>|"


def chain_steps(text: str) -> list[str]:
    """The ``path:N`` steps of a line that is one piece of a crash chain, outermost first: steps
    joined by arrows, or one step with its function or code (a stack printed a frame a line, its
    line opening with an arrow or not); none for any other line."""
    if ".py:" not in text:
        return []
    parts = _ARROW.split(text)
    steps: list[str] = []
    said = False  # a step carries its function or code
    for i, raw in enumerate(parts):
        part = raw.strip(_DECOR).lstrip("-+•").strip(_DECOR)
        if i == 0 and len(parts) > 1 and (lead := _LEAD.match(part)) is not None:
            part = part[lead.end() :].strip(_DECOR)  # "The chain: `a.py:1 f` -> ..."
        if not part and i == 0:
            continue  # the line opens with an arrow: it goes on with the chain above it
        if (m := _STEP.match(part)) is not None and _code(m["rest"]):
            steps.append(f"{m['path']}:{m['line']}")
            said = said or bool(m["rest"].strip(_DECOR + ":"))
        elif steps and i == len(parts) - 1 and _EXCEPTION.fullmatch(part):
            continue  # the crash the chain ends in
        elif not steps and i == 0 and len(parts) > 1 and _LEAD_IN.fullmatch(part):
            continue
        else:
            return []
    if len(steps) == 1 and len(parts) == 1 and not said:
        return []  # a file and a line alone: an anchor, a reference
    return steps


def _code(rest: str) -> bool:
    rest = rest.strip(_DECOR + ":")
    return not rest or _CODE.fullmatch(rest) is not None


@dataclass(frozen=True, slots=True)
class ChainStep:
    """One step of a chain, read as a file of the framework the chain's steps agree on."""

    source: str
    lineno: int
    text: str
    step: str  # "gemma4_mtp.py:548" as written
    framework: str
    name: str  # the table's file ("v1/worker/gpu_model_runner.py")
    signature: FrameSignature | None  # its file row (None: only rows of its functions)


@cache
def _rows(path: str) -> tuple[FrameSignature, ...]:
    """The rows (a file's, or of its functions) a step's path could be."""
    return tuple(sig for sig in frame_signatures() if sig.name == path or sig.name.endswith("/" + path))


def chain_rows(steps: Sequence[tuple[str, int, str, str]], gap: int = 2) -> list[ChainStep]:
    """``(source, lineno, text, step)`` of the steps the text's lines show, in line order ->
    each step as its file, chain by chain (steps at most ``gap`` lines apart are one chain):
    the chain's framework is the one its steps that one framework alone holds agree on (none
    where they disagree); a step that could be several of its files names none."""
    out: list[ChainStep] = []
    chain: list[tuple[str, int, str, str]] = []
    for step in [*steps, ("", -gap - 1, "", "")]:
        if chain and (step[0] != chain[-1][0] or step[1] - chain[-1][1] > gap):
            out += _resolved(chain)
            chain = []
        chain.append(step)
    return out


def _resolved(chain: Sequence[tuple[str, int, str, str]]) -> list[ChainStep]:
    rows = [_rows(step.rsplit(":", 1)[0].lstrip("./")) for *_, step in chain]
    alone = {found[0].framework for found in rows if found and len({s.framework for s in found}) == 1}
    if len(alone) != 1:
        return []
    (framework,) = alone
    out: list[ChainStep] = []
    for (source, lineno, text, step), found in zip(chain, rows, strict=True):
        own = [sig for sig in found if sig.framework == framework]
        names = {sig.name for sig in own}
        if len(names) == 1:
            (name,) = names
            row = next((sig for sig in own if sig.function is None), None)
            out.append(ChainStep(source, lineno, text, step, framework, name, row))
    return out
