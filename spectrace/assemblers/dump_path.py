"""The worker path implied by the final values in a ``server_args=`` dump (LOG_FORMATS.md 1.6).

The dump is printed after SGLang forced ``disable_overlap_schedule`` for speculation, so
algorithm + overlap (+ multi-layer flag, + the release era a warning told) name the class.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from spectrace.assemblers.pyrepr import SourceText
from spectrace.assemblers.sglang_version import OLD_ERA

EAGLE_FAMILY = {"EAGLE", "EAGLE3", "NEXTN", "STANDALONE", "FROZEN_KV_MTP"}
V2_ONLY_ERAS = {"0.5.13+", "0.5.17+"}
_DEFAULT_ERAS = {"0.5.4", "0.5.5-0.5.6", "0.5.7-0.5.10", "0.5.11-0.5.12"}
_SHOWN = (
    "speculative_algorithm",
    "disable_overlap_schedule",
    "speculative_eagle_topk",
    "enable_multi_layer_eagle",
)


@dataclass(frozen=True, slots=True)
class DumpVerdict:
    """Where the dump points, which class it names, and the fields it rests on."""

    points_to: str | None
    worker_class: str | None
    reason: str
    excerpt: str  # "server_args=ServerArgs(…, speculative_algorithm='EAGLE3', …)"


def _show(name: str, value: object) -> str:
    return f"{name}={value.text if isinstance(value, SourceText) else repr(value)}"


def _excerpt(values: Mapping[str, object]) -> str:
    parts = [_show(name, values[name]) for name in _SHOWN if name in values]
    return "server_args=ServerArgs(…, " + ", …, ".join(parts) + ", …)"


def _base_class(algo: str, values: Mapping[str, object]) -> str:
    if values.get("enable_multi_layer_eagle") is True:
        return "MultiLayerEagleWorker"
    return "StandaloneWorker" if algo == "STANDALONE" else "EAGLEWorker"


def verdict_from_dump(
    values: Mapping[str, object], era: str | None, spec_v2_env: object = None
) -> DumpVerdict | None:
    """The dump's verdict, or None when neither the dump nor the release's defaults decide.

    ``spec_v2_env``: SGLANG_ENABLE_SPEC_V2 as the log set it (env vars are never dumped).
    """
    if "speculative_algorithm" not in values:
        return None
    raw = values["speculative_algorithm"]
    algo = str(raw).upper() if raw is not None else "NONE"
    excerpt = _excerpt(values)
    if algo == "NONE":
        return DumpVerdict(
            None,
            None,
            "server_args dump: speculative decoding is off "
            "(speculative_algorithm=None), no speculative worker ran",
            excerpt,
        )
    if algo == "NGRAM":
        return DumpVerdict(
            "other",
            "NGRAMWorker",
            "server_args dump: speculative_algorithm='NGRAM' -> NGRAMWorker",
            excerpt,
        )
    if algo not in EAGLE_FAMILY:
        return DumpVerdict(
            "other",
            None,
            f"server_args dump: speculative_algorithm={raw!r} is not an EAGLE-family algorithm",
            excerpt,
        )
    return _eagle_verdict(algo, values, era, excerpt, spec_v2_env)


def _eagle_verdict(
    algo: str, values: Mapping[str, object], era: str | None, excerpt: str, env: object
) -> DumpVerdict | None:
    base = _base_class(algo, values)
    disabled = values.get("disable_overlap_schedule")
    if era in V2_ONLY_ERAS:
        return DumpVerdict(
            "v2",
            base + "V2",
            f"server_args dump: {algo} on sglang {era}, where "
            "the v1 worker no longer exists -> v2 whatever the overlap setting",
            excerpt,
        )
    if disabled is True:
        topk = values.get("speculative_eagle_topk")
        why = (
            f"; speculative_eagle_topk={topk} (v2 needs topk=1)"
            if isinstance(topk, int) and topk > 1
            else ""
        )
        return DumpVerdict(
            "v1",
            base,
            f"server_args dump: speculative_algorithm='{algo}' with "
            f"disable_overlap_schedule=True -> v1 ({base}, non-overlap){why}",
            excerpt,
        )
    if disabled is False:
        return DumpVerdict(
            "v2",
            base + "V2",
            f"server_args dump: speculative_algorithm='{algo}' "
            f"with disable_overlap_schedule=False -> v2 ({base}V2, overlap)",
            excerpt,
        )
    return _era_default(algo, base, values, era, excerpt, env)


def _era_default(
    algo: str, base: str, values: Mapping[str, object], era: str | None, excerpt: str, env: object
) -> DumpVerdict | None:
    """No ``disable_overlap_schedule`` in the dump (cut, wrapped, quoted in part): the
    release's own rule (LOG_FORMATS.md 1.5) decides where its defaults leave no choice."""
    overlap, why = _overlap_by_era(values, era, env)
    if overlap is None:
        return None
    points_to, worker = ("v2", base + "V2") if overlap else ("v1", base)
    reason = (
        f"server_args dump: speculative_algorithm='{algo}' but no disable_overlap_schedule; "
        f"sglang {era}: {why} -> {points_to} ({worker})"
    )
    return DumpVerdict(points_to, worker, reason, excerpt)


def _overlap_by_era(
    values: Mapping[str, object], era: str | None, env: object
) -> tuple[bool | None, str]:
    """(overlap on?, why) from the era's defaults; (None, "") when they do not decide."""
    topk, pp = values.get("speculative_eagle_topk"), values.get("pp_size")
    if era == OLD_ERA:
        return False, "EAGLE always ran without the overlap scheduler before 0.5.4"
    if era not in _DEFAULT_ERAS:
        return None, ""
    if isinstance(pp, int) and not isinstance(pp, bool) and pp > 1:
        return False, f"pp_size={pp} turns the overlap scheduler off"
    if era == "0.5.4":
        beta = values.get("enable_beta_spec")
        return beta is True, f"enable_beta_spec={beta!r} (off by default)"
    if env is True or env is False:
        return env, f"SGLANG_ENABLE_SPEC_V2={env} as the log set it"
    if era in ("0.5.5-0.5.6", "0.5.7-0.5.10"):
        return False, "SGLANG_ENABLE_SPEC_V2 not set in the log (off by default before 0.5.11)"
    if isinstance(topk, int) and not isinstance(topk, bool) and topk > 1:
        return False, f"speculative_eagle_topk={topk} forces the overlap scheduler off"
    return True, "spec v2 on by default (SGLANG_ENABLE_SPEC_V2 not set in the log)"


def verdict_from_launch(
    flags: Mapping[str, object], era: str | None, spec_v2_env: object = None
) -> DumpVerdict | None:
    """No dump, but a launch command (``flags``: name -> value) and a release: the release's
    rule decides as it would for a dump. The command's ``--disable-overlap-schedule`` is a
    request the server may overrule; it is final only on 0.5.11-0.5.12."""
    if era is None or flags.get("speculative_algorithm") is None:
        return None
    keep = ("speculative_algorithm", "speculative_eagle_topk", "enable_multi_layer_eagle")
    values = {name: flags[name] for name in keep if name in flags}
    if era == "0.5.11-0.5.12" and flags.get("disable_overlap_schedule") is True:
        values["disable_overlap_schedule"] = True
    verdict = verdict_from_dump(values, era, spec_v2_env)
    if verdict is None:
        return None
    shown = ", ".join(f"{name}={value!r}" for name, value in values.items())
    why = verdict.reason.split(": ", 1)[-1].replace(" but no disable_overlap_schedule", "")
    return DumpVerdict(
        verdict.points_to,
        verdict.worker_class,
        f"launch command (no server_args dump): {why}",
        f"launch command: {shown}",
    )
