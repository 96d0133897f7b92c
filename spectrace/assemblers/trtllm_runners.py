"""Programs that run TensorRT-LLM under another name, read from ``rules/paths/trtllm_entry.toml``.

Why: a TensorRT-LLM run is often shown only by the program that wrapped it (NVIDIA Dynamo's
``python3 -m dynamo.trtllm``, its ``tensorrtllm-runtime`` image or ``dynamo serve`` graph
components, Triton's TensorRT-LLM backend, ``trtllm-bench``) or by its engine YAML's keys, with
no ``trtllm-serve`` and no release line; a family the text names (MTP in the title) then has no
engine to be read for. ``RunnerReader`` notes which engines' programs the lines name; the run
is TensorRT-LLM's only where TensorRT-LLM's are the only ones named.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

from spectrace.assemblers.release_dates import rules_table
from spectrace.dialects.base import LogLine

TABLE = "paths/trtllm_entry.toml"
ENGINE_YAML_KEYS = 2  # distinct TensorRT-LLM-only YAML keys that show its engine YAML
# the LLM API's ``backend:`` in an engine YAML (the MoE's and the cache transceiver's
# ``backend:`` keys take other values: CUTLASS, TRTLLM, DEFAULT, UCX, NIXL)
_BACKEND = re.compile(r"^\s*backend\s*:\s*[\"']?(pytorch|tensorrt|trt|_autodeploy)[\"']?\s*(?:#.*)?$")


@dataclass(frozen=True, slots=True)
class Runner:
    """One program's literal, the engine it runs, and whether it builds the PyTorch backend."""

    literal: str
    engine: str
    what: str
    pytorch: bool


@cache
def _table() -> dict:
    return rules_table(TABLE)


@cache
def runners() -> tuple[Runner, ...]:
    return tuple(Runner(**row) for row in _table()["runner"])


@cache
def _yaml_key() -> re.Pattern[str]:
    # ``key:`` opening a block or holding a plain scalar (not ``key: KVCacheConfig,`` in a
    # Python signature), optionally a YAML list item or after a ConfigMap's indentation
    keys = "|".join(map(re.escape, _table()["yaml_keys"]))
    return re.compile(
        rf"^\s*(?:-\s+)?({keys})\s*:\s*(?:[a-z0-9][\w.-]*|\d[\d.]*|\"[^\"]*\"|'[^']*')?\s*(?:#.*)?$"
    )


def literals() -> tuple[bytes, ...]:
    """What a line must hold for this reader to use it (the collector's pre-filter)."""
    return (*(r.literal.encode() for r in runners()),
            *(k.encode() for k in _table()["yaml_keys"]),
            *(f"backend: {b}".encode() for b in ("pytorch", "tensorrt", "trt", "_autodeploy")))  # fmt: skip


@dataclass
class RunnerReader:
    """Which engines' wrapper programs the fed lines name, and TensorRT-LLM's YAML keys."""

    named: dict[str, tuple[Runner, LogLine]] = field(default_factory=dict)  # engine -> first
    keys: dict[str, LogLine] = field(default_factory=dict)  # TRT-LLM-only YAML key -> its line
    backend: tuple[str, LogLine] | None = None  # the engine YAML's ``backend:`` and its line

    def feed(self, line: LogLine) -> None:
        text = line.text
        for runner in runners():
            if runner.literal in text and runner.engine not in self.named:
                self.named[runner.engine] = (runner, line)
        if ":" in text and (m := _yaml_key().match(text)) is not None:
            self.keys.setdefault(m.group(1), line)
        elif "backend" in text and (m := _BACKEND.match(text)) is not None:
            self.backend = (m.group(1), line)

    def engines(self) -> frozenset[str]:
        """Every engine whose wrapper program or image the fed lines name."""
        return frozenset(self.named)

    def trtllm(self) -> tuple[Runner | None, LogLine] | None:
        """(the program, its line) where the lines show TensorRT-LLM's run and no other
        engine's program; (None, line) for an engine YAML alone; None otherwise."""
        if set(self.named) - {"trtllm"}:
            return None
        if "trtllm" in self.named:
            return self.named["trtllm"]
        if len(self.keys) >= ENGINE_YAML_KEYS:
            return None, next(iter(self.keys.values()))
        return None


def named_engines(lines: Iterable[LogLine]) -> frozenset[str]:
    """The engines whose wrapper programs or images ``lines`` name (a reader placing a run by
    one engine's image asks whether another engine's is named too: then neither is the run's)."""
    reader = RunnerReader()
    for line in lines:
        reader.feed(line)
    return reader.engines()
