"""Throughput lines (SGLang ``Decode batch``, vLLM ``SpecDecoding metrics``, TensorRT-LLM
``iter = N, ... num_scheduled_requests: R``) -> load samples."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from spectrace.assemblers.pyrepr import bracketed, split_top_level
from spectrace.dialects.base import LogLine

if TYPE_CHECKING:
    import polars


@dataclass(frozen=True, slots=True)
class LoadSample:
    source: str
    lineno: int
    rank: str | None
    ts: datetime | None
    running_req: int | None = None
    accept_len: float | None = None
    accept_rate: float | None = None  # a fraction 0..1 (vLLM's percentages are divided by 100)
    gen_throughput: float | None = None
    queue_req: int | None = None
    cuda_graph: bool | None = None
    fields: dict[str, str] = field(default_factory=dict, hash=False, compare=False)
    kind: str = "decode"  # "decode" | "prefill" | "spec_metrics" | "engine_stats" | "crash_dump"
    node: str | None = None  # host, pod or container the line's wrapper names


LOAD_LITERALS: tuple[bytes, ...] = (
    b"Decode batch",
    b"Prefill batch",
    b"SpecDecoding metrics:",
    b"Speculative metrics:",
    b"Avg prompt throughput:",
    b"Dumping scheduler output",
    b"num_scheduled_requests: ",
    b"accept len: ",  # SGLang's decode record cut at its first speculative field (grep)
)

_SGLANG = re.compile(r"\b(Decode|Prefill) batch(?: \[\d+\])?[,.] ")  # "." in 0.4.x
# SGLang's decode record's own keys (the scheduler's decode stats): a record cut by grep at
# "accept len" ("accept len: 2.41, accept rate: 0.35, cuda graph: True, gen throughput ...")
# is still the record where another of them follows
_DECODE_KEYS = frozenset({"#running-req", "#token", "token usage", "accept len", "accept rate",
                          "cuda graph", "cpu graph", "npu graph", "gen throughput (token/s)",
                          "#queue-req"})  # fmt: skip
_SGLANG_OWN = frozenset({"#running-req", "accept len", "#queue-req"})
_VLLM_SPEC = re.compile(r"\b(?:SpecDecoding|Speculative) metrics: ")
_VLLM_ENGINE = re.compile(r"\bEngine \d+: (?=Avg prompt throughput:)")
_VLLM_DUMP = re.compile(r"Dumping scheduler output for model execution: ")
# TensorRT-LLM's print_iter_log: "iter = 5559, host_step_time = 50.5ms, num_scheduled_requests: 3,
# states = {'num_ctx_requests': 2, 'num_ctx_tokens': 16384, 'num_generation_tokens': 0}"
_TRTLLM_ITER = re.compile(r"\biter = (\d{1,12}), .*?\bnum_scheduled_requests: (\d{1,9})")
_TOTAL = re.compile(r"\btotal_num_scheduled_tokens=(\d{1,12})")
_DIGITS = re.compile(r"\d+")
_NUMBER = re.compile(r"-?\d{1,18}(?:\.\d{1,18})?")  # bounded: int() of huge text raises
_GRAPH_KEYS = ("cuda graph", "cpu graph", "npu graph")


def split_fields(rest: str) -> dict[str, str]:
    """``#running-req: 10, accept len: 2.87, `` -> {"#running-req": "10", ...}.

    Keys hold '#', spaces and parentheses, so split on ", " then on the first ": ";
    a piece with no ": " continues the previous value (vLLM's per-position list).
    """
    out: dict[str, str] = {}
    last: str | None = None
    for piece in rest.strip().rstrip(",").split(", "):
        key, sep, value = piece.partition(": ")
        if sep and key.strip():
            last = key.strip()
            out[last] = value.strip().rstrip(".")
        elif last is not None and piece.strip():
            out[last] = f"{out[last]}, {piece.strip()}"
    return out


def _num(text: str | None) -> float | None:
    match = _NUMBER.search(text) if text else None
    return float(match.group(0)) if match else None


def _int(text: str | None) -> int | None:
    value = _num(text)
    return int(value) if value is not None else None


def _bool(text: str | None) -> bool | None:
    return {"True": True, "False": False}.get((text or "").strip())


def _sample(line: LogLine, kind: str, fields: dict[str, str], **values: object) -> LoadSample:
    return LoadSample(
        line.source, line.lineno, line.rank, line.ts, fields=fields, kind=kind, node=line.node,
        **values,
    )  # type: ignore[arg-type]


def spec_metrics_shape(text: str) -> str | None:
    """The shape of vLLM's speculative metrics line (V1 ``SpecDecoding metrics:``, V0
    ``Speculative metrics:``) with its numbers taken out, so a run's repeats share one shape and
    another engine's or era's line does not; None for any other line."""
    if _VLLM_SPEC.search(text) is None:
        return None
    return _DIGITS.sub("", text)


def sglang_record(sample: LoadSample) -> bool:
    """The sample is SGLang's own decode or prefill record (its keys; TensorRT-LLM's iteration
    lines are decode samples too): a line only an SGLang server prints."""
    return sample.kind in ("decode", "prefill") and bool(sample.fields.keys() & _SGLANG_OWN)


def _cut_record(text: str) -> dict[str, str] | None:
    """The fields of SGLang's decode record cut at ``accept len``, or None."""
    if not text.startswith("accept len: "):
        return None
    fields = split_fields(text)
    return fields if len(fields.keys() & _DECODE_KEYS) >= 2 else None


def parse_load_line(line: LogLine) -> LoadSample | None:
    """One sample per throughput line of any known version; None for anything else."""
    text = line.text
    match = _SGLANG.search(text)
    if match is not None or (cut := _cut_record(text)) is not None:
        fields = split_fields(text[match.end() :]) if match is not None else cut
        graph = next((fields[k] for k in _GRAPH_KEYS if k in fields), None)
        return _sample(
            line,
            match.group(1).lower() if match is not None else "decode",
            fields,
            running_req=_int(fields.get("#running-req")),
            accept_len=_num(fields.get("accept len")),
            accept_rate=_num(fields.get("accept rate")),
            gen_throughput=_num(fields.get("gen throughput (token/s)")),
            queue_req=_int(fields.get("#queue-req")),
            cuda_graph=_bool(graph),
        )
    if (match := _VLLM_SPEC.search(text)) is not None:
        return _vllm_spec(line, split_fields(text[match.end() :]))
    if (match := _VLLM_ENGINE.search(text)) is not None:
        fields = split_fields(text[match.end() :])
        return _sample(
            line,
            "engine_stats",
            fields,
            running_req=_int(fields.get("Running")),
            queue_req=_int(fields.get("Waiting")),
            gen_throughput=_num(fields.get("Avg generation throughput")),
        )
    if (match := _VLLM_DUMP.search(text)) is not None:
        return _vllm_crash_dump(line, text[match.end() :])
    if (match := _TRTLLM_ITER.search(text)) is not None:
        fields = {"iter": match.group(1), "num_scheduled_requests": match.group(2)}
        return _sample(line, "decode", fields, running_req=int(match.group(2)))
    return None


def _vllm_crash_dump(line: LogLine, rest: str) -> LoadSample | None:
    """vLLM's SchedulerOutput dump before it re-raises: the crashing step's exact batch."""
    fields: dict[str, str] = {}
    for name in ("num_scheduled_tokens", "scheduled_spec_decode_tokens"):
        at = rest.find(f"{name}={{")
        body = bracketed(rest, at + len(name) + 1) if at >= 0 else None
        if body is not None:
            fields[name] = str(len(split_top_level(body)[0]))  # requests in the step
    if (total := _TOTAL.search(rest)) is not None:
        fields["total_num_scheduled_tokens"] = total.group(1)
    if not fields:
        return None
    return _sample(line, "crash_dump", fields, running_req=_int(fields.get("num_scheduled_tokens")))


def _vllm_spec(line: LogLine, fields: dict[str, str]) -> LoadSample:
    """vLLM spec metrics of every period (LOG_FORMATS.md 2.5), rates made fractions."""
    rate = next(
        (fields[k] for k in ("Avg Draft acceptance rate", "Draft acceptance rate") if k in fields),
        None,
    )
    rate_value = _num(rate)
    if rate_value is not None and rate is not None and "%" in rate:
        rate_value /= 100.0
    return _sample(
        line,
        "spec_metrics",
        fields,
        accept_len=_num(fields.get("Mean acceptance length")),
        accept_rate=rate_value,
    )


_COLUMNS = ("running_req", "accept_len", "accept_rate", "gen_throughput", "queue_req")


def load_table(samples: Sequence[LoadSample]) -> polars.DataFrame:
    """One row per sample, for the TUI's charts and the reports."""
    import polars as pl

    data = {
        "source": [s.source for s in samples],
        "lineno": [s.lineno for s in samples],
        "rank": [s.rank for s in samples],
        "ts": [s.ts for s in samples],
        "kind": [s.kind for s in samples],
        "cuda_graph": [s.cuda_graph for s in samples],
    }
    schema: dict[str, object] = {
        "source": pl.Utf8,
        "lineno": pl.Int64,
        "rank": pl.Utf8,
        "ts": pl.Datetime("us"),
        "kind": pl.Utf8,
        "cuda_graph": pl.Boolean,
        "running_req": pl.Int64,
        "accept_len": pl.Float64,
        "accept_rate": pl.Float64,
        "gen_throughput": pl.Float64,
        "queue_req": pl.Int64,
    }
    for name in _COLUMNS:
        data[name] = [getattr(s, name) for s in samples]
    return pl.DataFrame(data, schema=schema)  # type: ignore[arg-type]
