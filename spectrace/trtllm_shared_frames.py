"""A TensorRT-LLM frame in a speculative file several workers share, read by the function it runs.

Why: the frame table names no class for ``_torch/speculative/eagle3.py`` or ``mtp.py``: each
holds more than one worker (and metadata, resource managers and samplers other modes use), so a
frame there left the run unknown even when the function it ran belongs to one worker's code
(``Eagle3OneModelWorker.forward`` shows a one-model run; ``update_mtp_hidden_states`` only MTP
vanilla calls). The [[shared]] rows of rules/paths/trtllm_shared.toml, read from the files' own
source, give each such function's classes: the run's stated ``decoding_type`` picks one of them
(a frame in the one-model worker's ``forward`` settles an ``Eagle`` config whose
``eagle3_one_model`` the paste does not show); with none stated the classes are a condition.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources

from spectrace.assemblers.run_config import Evidence, RunConfig
from spectrace.errors import RuleError

TABLE = "paths/trtllm_shared.toml"
# the frame line as a traceback (``File ".../eagle3.py", line 402, in forward``) or a py-spy
# dump (``forward (tensorrt_llm/_torch/speculative/eagle3.py:402)``) writes it
_TRACEBACK = re.compile(r"""File ["']?([^"',]+\.py)["']?, line \d+, in (\w+)""")
_PY_SPY = re.compile(r"^\s*(\w+) \(([^():]+\.py):\d+\)")
_FRAME_HEAD = re.compile(r"^[\w -]*frame in ")


@dataclass(frozen=True, slots=True)
class SharedFile:
    """A [[shared]] row: the functions of ``file`` that only ``classes`` run."""

    file: str
    functions: frozenset[str]
    family: str
    classes: tuple[str, ...]
    by_method: Mapping[str, str]  # stated decoding_type -> the class it runs there ("": open)
    why: str

    def covers(self, path: str, function: str) -> bool:
        path = path.replace("\\", "/")
        return function in self.functions and (path == self.file or path.endswith("/" + self.file))


@cache
def shared_files() -> tuple[SharedFile, ...]:
    node = resources.files("spectrace.rules").joinpath(TABLE)
    try:
        data = tomllib.loads(node.read_text("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise RuleError(f"rules/{TABLE}: {exc}") from None
    return tuple(
        SharedFile(str(raw["file"]), frozenset(raw["functions"]), str(raw["family"]),
                   tuple(raw["classes"]), dict(raw.get("by_method", {})), str(raw["why"]))
        for raw in data.get("shared", [])
    )  # fmt: skip


def _frame(evidence: Evidence) -> tuple[str, str] | None:
    """(file, function) of a frame's evidence that names no class, else None."""
    if evidence.points_to is not None or evidence.condition is not None:
        return None
    if _FRAME_HEAD.match(evidence.reason) is None:
        return None
    if (m := _TRACEBACK.search(evidence.text)) is not None:
        return m.group(1), m.group(2)
    if (m := _PY_SPY.search(evidence.text)) is not None:
        return m.group(2), m.group(1)
    return None


def _stated(config: RunConfig) -> tuple[str | None, bool]:
    """(the run's TensorRT-LLM decoding_type or mode as the config readers keep it, lower case;
    whether only a sentence names it)."""
    if config.engine not in (None, "trtllm"):
        return None, False
    flag = config.flags.get("speculative_config.method")
    if flag is None or flag.value is None:
        return None, False
    return str(flag.value).lower(), flag.origin == "prose"


def restate_shared(evidence: Sequence[Evidence], config: RunConfig) -> list[Evidence]:
    """``evidence`` with each classless frame in a [[shared]] row's function restated: the
    class the stated decoding_type runs there, the row's classes as a condition where none is
    stated, unchanged where the stated type runs none of them (another run's frame, or a type
    that leaves the row open: its own condition stands). Unchanged where another frame names a
    class (a subclass's own file) or the config turns on the dynamic tree, whose workers
    (``Eagle3OneModelDynamicTreeWorker``) subclass the one-model ones and run these methods."""
    tree = config.flags.get("speculative_config.dynamic_tree")
    if (tree is not None and tree.value is True) or any(
        e.points_to is not None and _FRAME_HEAD.match(e.reason) for e in evidence
    ):  # a dynamic-tree subclass inherits these methods; a frame that names a class decides
        return list(evidence)
    stated, worded = _stated(config)
    out: list[Evidence] = []
    for e in evidence:
        found = _frame(e)
        row = next((r for r in shared_files() if found and r.covers(*found)), None)
        if row is None:
            out.append(e)
            continue
        head = e.reason.split(": ", 1)[0]
        # a sentence's algorithm the row's classes never run is weaker than the frame
        method = None if worded and stated not in row.by_method else stated
        if method is not None:
            cls = row.by_method.get(method)
            if not cls:
                out.append(e)
                continue
            reason = f"{head}: {row.why}; the run's decoding_type is {method} -> other ({cls})"
            out.append(replace(e, reason=reason, points_to="other", worker_class=cls,
                               family=row.family))  # fmt: skip
            continue
        if len(row.classes) == 1:
            reason = f"{head}: {row.why} -> other ({row.classes[0]})"
            out.append(replace(e, reason=reason, points_to="other", worker_class=row.classes[0],
                               family=row.family))  # fmt: skip
            continue
        condition = f"{' or '.join(row.classes)} (TensorRT-LLM: {row.why})"
        out.append(replace(e, reason=f"{head}: {condition}", condition=condition,
                           family=row.family))  # fmt: skip
    return out
