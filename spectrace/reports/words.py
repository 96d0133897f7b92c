"""One wording for every report format: where a line is, which file, who crashed first, the load."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from spectrace.textsafe import one_line

Document = dict[str, Any]
Names = dict[str, str]
MAX_EVIDENCE = 4  # distinct reasons per worker path or finding; the JSON report has them all
_PACKAGES = ("sglang", "vllm", "tensorrt_llm", "torch", "triton", "transformers")
MAX_RANKS = 32  # ranks named in a human report; the JSON report has them all
_LOAD_KEYS = ("running_req", "queue_req", "accept_len", "gen_throughput", "cuda_graph")


def clip(text: object, limit: int = 200) -> str:
    """One evidence line as people scan it: long dumps cut with an ellipsis."""
    value = str(text)
    return value if len(value) <= limit else value[: limit - 1] + "…"


def where(loc: Document | None, names: Names | None = None) -> str:
    """``file:line``, the file under its short display name when the report has one."""
    if not loc:
        return "?"
    file = str(loc.get("file"))
    return one_line(f"{(names or {}).get(file, file)}:{loc.get('line')}")


def display_names(paths: Iterable[str]) -> Names:
    """Each input file by the shortest path suffix that still tells it from the others."""
    unique = list(dict.fromkeys(paths))
    names: Names = {}
    for path in unique:
        parts = path.split("/")
        for n in range(1, len(parts) + 1):
            name = "/".join(parts[-n:])
            if not any(o != path and (o == name or o.endswith("/" + name)) for o in unique):
                break
        names[path] = name
    return names


def short_path(path: str) -> str:
    """A frame's file from its package down (``sglang/srt/...``), as people read it."""
    for marker in ("site-packages/", "dist-packages/"):
        if marker in path:
            return path.rsplit(marker, 1)[1]
    cuts = [path.rfind(f"/{p}/") for p in _PACKAGES]  # a source checkout: .../sglang/python/sglang/
    return path[max(cuts) + 1 :] if max(cuts) >= 0 else path


def rank_list(ranks: list[str], limit: int = MAX_RANKS) -> str:
    """``TP0, TP1, TP2``; past ``limit`` the rest counted (100,000 ranks were 900 KB a line)."""
    shown = ", ".join(str(r) for r in ranks[:limit])
    return shown + (f" and {len(ranks) - limit:,} more" if len(ranks) > limit else "")


def rank_head(incident: Document) -> str:
    """``origin TP7 (also TP2, TP3)`` or ``no rank``."""
    origin = incident.get("origin_rank")
    others = [r for r in incident.get("ranks") or [] if r != origin]
    head = f"origin {origin}" if origin else "no rank"
    return head + (f" (also {rank_list(others)})" if others else "")


def seen_text(incident: Document, at: str) -> str:
    """``first seen <time> at <file:line>, N occurrence(s)``; a missing time said last."""
    first = incident["first_seen"]
    when = first.get("time_text") or first.get("time")
    seen = f"first seen {when} at {at}" if when else f"first seen at {at} (no timestamp)"
    count = incident.get("occurrence_count") or len(incident.get("occurrences") or [])
    return f"{seen}, {count} occurrence(s)"  # occurrences lists only the first 100


def origin_line(incident: Document, at: str) -> str:
    return f"{rank_head(incident)}, {seen_text(incident, at)}"


def load_text(load: Document) -> str:
    """The load line's numbers, in the order people compare them."""
    return ", ".join(f"{n}={load[n]}" for n in _LOAD_KEYS if load.get(n) is not None)


def conditional_head(conditional: str) -> str:
    """What a conditional verdict hangs on: the release (``if sglang >= 0.5.13``, ``if vLLM
    runs its V1 engine``) or a setting the log does not show (TensorRT-LLM's eagle3_one_model,
    a shell variable)."""
    by_release = any(mark in conditional for mark in (">=", "<=", " V1 engine", "release"))
    return "depends on the release" if by_release else "depends on a setting the log does not show"


def path_label(path: Document) -> str:
    """``v1 (EAGLEWorker)``; a bare ``unknown`` says why, so it does not read as a failure."""
    worker = path.get("worker_class")
    if path.get("conditional"):  # the release would settle it: say what each would run
        return f"{conditional_head(path['conditional'])}: {path['conditional']}"
    if path["value"] == "unknown" and not worker and not path.get("evidence"):
        return "unknown (no speculative worker named in the log)"
    if path["value"] == "none":
        return f"none: speculative decoding off ({worker or 'no draft worker'})"
    return path["value"] + (f" ({worker})" if worker else "")


def flags_by_line(flags: Document, names: Names) -> list[tuple[str, str]]:
    """``(file:line, "a=1, b=True")`` per log line, in the order the flags are listed: a
    server_args dump gives ten flags on one line, not ten lines."""
    grouped: dict[str, list[str]] = {}
    for name, flag in flags.items():
        grouped.setdefault(where(flag, names), []).append(f"{name}={flag['value']!r}")
    return [(at, ", ".join(values)) for at, values in grouped.items()]
