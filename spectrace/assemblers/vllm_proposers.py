"""A vLLM speculative method -> the class that ran it, by engine generation and release.

V0 (``vllm/spec_decode/``, up to the last release that ships it) runs every method through
``SpecDecodeWorker`` with a proposer worker (``NGramWorker``, ``MedusaWorker``,
``MLPSpeculatorWorker``, ``MultiStepWorker`` for draft models, EAGLE and MTP heads); V1 runs a
proposer class (``NgramProposer``, ``EagleProposer``...). Both shipped side by side for some
releases, so the release a log prints, or the ``V1 LLM engine`` line, decides which; with
neither the verdict names the family and both classes rather than guess. Every release bound
and class comes from rules/paths/vllm.toml, generated from vLLM's own wheels.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType

from packaging.version import Version

from spectrace.assemblers.vllm_release import parse_release

_V0_DRAFT_WORKER = "MultiStepWorker"  # V0's proposer worker for draft models and heads


@dataclass(frozen=True, slots=True)
class _Tables:
    methods: MappingProxyType[str, tuple[str, str, str, str]]  # value -> (family, proposer,
    # first, last release)
    spans: MappingProxyType[str, tuple[str, str]]  # class -> (first, last) release
    v0_workers: MappingProxyType[str, str]  # family -> V0 proposer worker
    # a value's later rows: the class that replaced its proposer, (class, first, last) release
    # (the model runner v2's speculators, once the V1 runner is gone)
    later: MappingProxyType[str, tuple[tuple[str, str, str], ...]]
    family_first: MappingProxyType[str, Version]  # family -> first release with a file of it
    kin: MappingProxyType[str, tuple[tuple[str, Version, Version], ...]]  # base -> subclasses


@cache
def _tables() -> _Tables:
    """vllm.toml's [[method]] and [[frame]] rows, read once (a broken or missing table gives
    empty ones: the path-table loader reports it)."""
    node = resources.files("spectrace.rules").joinpath("paths/vllm.toml")
    try:
        data = tomllib.loads(node.read_text("utf-8")) if node.is_file() else {}
    except tomllib.TOMLDecodeError:
        data = {}
    methods: dict[str, tuple[str, str, str, str]] = {}
    later: dict[str, list[tuple[str, str, str]]] = {}
    for r in data.get("method", []):
        if not isinstance(r, dict):
            continue
        value, releases = str(r.get("value", "")).lower(), list(r.get("releases") or ["", ""])
        row = (
            str(r.get("family", "")),
            str(r.get("worker", "")),
            str(releases[0]),
            str(releases[-1]),
        )
        if value in methods:  # a second row of a value holds for its own releases
            later.setdefault(value, []).append((row[1], str(releases[0]), str(releases[-1])))
        else:
            methods[value] = row
    spans: dict[str, tuple[str, str]] = {}
    v0: dict[str, str] = {}
    firsts: dict[str, Version] = {}
    kin: dict[str, list[tuple[str, Version, Version]]] = {}
    for row in data.get("frame", []):
        worker, releases = str(row.get("worker", "")), row.get("releases", ["", ""])
        if row.get("family") and (at := parse_release(str(releases[0]))) is not None:
            family = str(row["family"])
            firsts[family] = min(firsts.get(family, at), at)
        lo, hi = (parse_release(str(r)) for r in releases)
        for child, parents in (row.get("bases") or {}).items():
            if child == worker and lo is not None and hi is not None:
                for parent in parents:
                    kin.setdefault(parent, []).append((child, lo, hi))
        if worker and not row.get("function") and all(releases):
            spans.setdefault(worker, (str(releases[0]), str(releases[1])))
            if (
                worker.endswith("Worker")
                and row.get("family")
                and not row.get("file", "").startswith("v1/")
            ):
                v0.setdefault(str(row["family"]), worker)
    frozen = MappingProxyType({value: tuple(rows) for value, rows in later.items()})
    return _Tables(MappingProxyType(methods), MappingProxyType(spans), MappingProxyType(v0), frozen,
                   MappingProxyType(firsts),
                   MappingProxyType({k: tuple(v) for k, v in kin.items()}))  # fmt: skip


def method_classes() -> dict[str, str]:
    """Method value -> the V1 class vLLM builds for it (vllm.toml's [[method]] rows)."""
    return {value: row[1] for value, row in _tables().methods.items() if row[1]}


def _runs_on(cls: str, version: Version) -> bool:
    first, last = (parse_release(v) for v in _tables().spans.get(cls, ("", "")))
    return first is not None and last is not None and first <= version <= last


def subclasses(cls: str) -> tuple[tuple[str, Version, Version], ...]:
    """(class, first, last release) of each drafting class whose bases include ``cls`` in
    the tables' frame rows (LiLiCorrSpeculator derives from DFlash2Speculator, 0.31+)."""
    return _tables().kin.get(cls, ())


def family_first(value: str) -> Version | None:
    """The first release holding any file of the family the method ``value`` belongs to (its
    draft model, proposer or worker): before it, no vLLM could load that family's checkpoint."""
    family = _tables().methods.get(value.lower(), ("",))[0]
    return _tables().family_first.get(family) if family else None


def method_family(value: str) -> str:
    """The family of the method ``value`` in vLLM's method table ("" for a method it lacks)."""
    return _tables().methods.get(value.lower().strip("[]"), ("",))[0]


def first_release(cls: str) -> Version | None:
    """The first release whose tree holds ``cls`` (its frame rows' span)."""
    return parse_release(_tables().spans.get(cls, ("", ""))[0])


def runs_on(cls: str, version: str) -> bool:
    """``cls`` ships in vLLM ``version`` (its frame rows' release span; a dev build counts as
    its base release)."""
    found = parse_release(version)
    return found is not None and _runs_on(cls, Version(found.base_version))


# families V0 ran before the oldest wheel the tables read (draft models from 0.4.1, n-gram,
# Medusa and MLP-speculator heads by 0.5): EAGLE and MTP heads came later
_V0_EARLY = ("DRAFT_MODEL", "NGRAM", "MEDUSA", "MLP_SPECULATOR")


def _before_tables(release: Version, family: str) -> bool:
    """``release`` predates the oldest wheel the tables read (0.6.0), where V0 was vLLM's only
    engine (V1 came in 0.8): a family V0 ran then ran on V0's worker."""
    first = parse_release(_tables().spans.get("SpecDecodeWorker", ("", ""))[0])
    return family in _V0_EARLY and first is not None and Version(release.base_version) < first


def _gone(last: str, release: Version) -> bool:
    """The method's rows end before ``release``, a release the tables read (not a newer one)."""
    end, newest = (
        parse_release(last),
        max(
            (v for _f, _p, _first, lst in _tables().methods.values() if (v := parse_release(lst))),
            default=None,
        ),
    )
    at = Version(release.base_version)
    return end is not None and newest is not None and end < at <= newest


def _replaced(name: str, family: str, release: Version) -> str | None:
    """The class a later row gives ``name`` at ``release`` ("" when the release is past every
    proposer yet registers none for it); None before any later row (the first row decides). A
    model-named MTP method (``qwen3_next_mtp``) is vLLM's ``mtp``."""
    later = _tables().later
    wanted = (name, "mtp" if family == "MTP" else "")
    spans = [(cls, parse_release(first), parse_release(last), key) for key, rows in later.items()
             for cls, first, last in rows if key in wanted]  # fmt: skip
    starts = [lo for _c, lo, _h, _k in spans if lo is not None]
    at = Version(release.base_version)
    if not starts or at < min(starts):
        return None
    newest = max((hi for _c, _l, hi in later_spans() if hi is not None), default=None)
    held = [(key, cls) for cls, lo, hi, key in spans  # past the newest release: rows hold
            if lo is not None and lo <= at and (at <= hi or hi == newest)]  # fmt: skip
    for want in wanted:  # a class of its own first, then vLLM's mtp's for a model-named one
        if cls := next((c for k, c in held if k == want and c), None):
            return cls
    return ""


@cache
def later_spans() -> tuple[tuple[str, Version | None, Version | None], ...]:
    """Every later row's (class, first, last): the newest release any of them reaches."""
    return tuple((cls, parse_release(first), parse_release(last)) for rows in _tables().later.values()
                 for cls, first, last in rows)  # fmt: skip


def legacy_spelling(text: str) -> bool:
    """The config spelled the V0 way (``speculative_model``, ``[ngram]``, ``draft_model=``):
    V0, or an early V1 release that still took it, so never the V1 class without a release."""
    return any(
        word in text
        for word in (
            "speculative_model",
            "speculative-model",
            "[ngram]",
            "SpeculativeConfig(draft_model=",
        )
    )


def engine_line_v1(text: str) -> bool | None:
    """``Initializing a V1 LLM engine`` -> True, V0's ``Initializing an LLM engine`` -> False,
    any other line -> None (it does not say)."""
    if "V1 LLM engine" in text:
        return True
    return False if "LLM engine" in text else None


def proposer_verdict(
    method: object, version: str | None = None, v1: bool | None = None, legacy: bool = False
) -> tuple[str, str | None, str | None]:
    """(reason, points_to, class) for a speculative method (None: spec off). ``version`` is
    the vLLM release the log prints, ``v1`` what its engine line says (None: not said),
    ``legacy`` whether the config was spelled the V0 way (``legacy_spelling``); a ``method``
    spelled the V1 way on a release that ships both engines runs on V1, the default."""
    if method is None:  # the engine's own statement: no proposer, the plain runner ran
        return "vLLM config: speculative_config=None, speculative decoding is off", "none", None
    name = str(method).lower().strip("[]")
    tables = _tables()
    family, proposer, first, last = tables.methods.get(name, ("", "", "", ""))
    if not proposer and (name.startswith("eagle") or name == "mtp" or name.endswith("_mtp")):
        proposer = "EagleProposer"
    worker = tables.v0_workers.get(family, _V0_DRAFT_WORKER) if family or proposer else ""
    said = f"vLLM config: speculative method '{name}'" + (f" {family}" if family else "")
    if legacy and name != "ngram" and v1 is not True and worker:
        # V0's speculative_model spelling (gone after 0.8.2): every release that took it ran a
        # draft model or head on V0 (0.8.0-0.8.2's V1 oracle falls back for all but ngram)
        return f"{said} -> {worker} (V0 spec_decode: a V0 spelling, other)", "other", worker
    release = parse_release(version)
    born = first_release(proposer) if proposer else None
    since = parse_release(first)
    if release is not None and born is not None and since is not None \
            and since <= Version(release.base_version) < born and family == "MTP" and name != "mtp":  # fmt: skip
        # a model-named MTP method whose own class came later than the release (step3p5_mtp
        # from 0.15.1, Step3p5MTPProposer from 0.23): vLLM's config read it as mtp, and the
        # release's runner built mtp's class for it (use_eagle() took mtp)
        proposer = tables.methods.get("mtp", ("", "EagleProposer"))[1] or "EagleProposer"
    replaced = _replaced(name, family, release) if release is not None else None
    if release is not None and not replaced and _gone(last, release):
        return (
            f"{said}: vLLM {version} no longer takes it (last in {last}): no proposer ran",
            None,
            None,
        )
    if release is not None and replaced is not None:
        cls = replaced or "no speculator: vLLM refuses the method at start-up"
        reason = f"{said} -> {cls} (vLLM {version}'s model runner v2)"
        return reason, "other" if replaced else None, replaced or None
    on_v1 = v1 is not False and proposer and (
        v1 is True or (release is not None and _runs_on(proposer, release))
        or (release is None and not legacy))  # fmt: skip
    v0_last = parse_release(tables.spans.get("SpecDecodeWorker", ("", ""))[1])
    if v0_last is not None and (parse_release(first) or v0_last) > v0_last:
        worker = ""  # the method came after V0's last release: V1 only
    on_v0 = (
        bool(worker)
        and v1 is not True
        and release is not None
        and (_runs_on("SpecDecodeWorker", release) or _before_tables(release, family))
    )
    on_v1 = on_v1 or (proposer and not worker)
    on_v0 = on_v0 and (legacy or not on_v1)  # both ship: the V1 spelling runs on V1
    if on_v1 and not on_v0:
        return f"{said} -> {proposer} (other)", "other", proposer
    if on_v0 and not on_v1 or (v1 is False and worker):
        return f"{said} -> {worker} (V0 spec_decode, other)", "other", worker
    if not proposer and not worker:
        return f"{said} (no proposer known for it)", None, None
    both = f"{proposer} on the V1 engine, {worker} on V0"
    why = (
        "the log prints neither the release nor the engine line"
        if release is None
        else (f"vllm {version} ships both engines")
    )
    return f"{said} -> {both} ({why})", "other", None


# V0's proposer workers by a draft model's name hint where no method is given (V0 read the
# draft's config model_type: medusa / mlp_speculator heads had workers of their own)
_V0_HINTS = (("medusa", "MedusaWorker", "MEDUSA"), ("mlp_speculator", "MLPSpeculatorWorker",
             "MLP_SPECULATOR"), ("mlp-speculator", "MLPSpeculatorWorker", "MLP_SPECULATOR"))  # fmt: skip


def v0_worker(method: object, model: object = None) -> tuple[str, str] | None:
    """(proposer worker, family) V0's ``SpecDecodeWorker.create_worker`` builds for the run's
    method (or, with none, for its draft model): NGramWorker for ngram, MedusaWorker,
    MLPSpeculatorWorker, else MultiStepWorker (draft models, EAGLE and MTP heads). None for a
    method V0 never ran (EAGLE-3 and every later one) or no method and no model."""
    if method is None and isinstance(model, str) and model.startswith("[") and model.endswith("]"):
        return None  # V0's bracketed special value, not a checkpoint (method_from_model reads it)
    if method is None and isinstance(model, str) and model and "$" not in model:
        name = model.lower()
        worker, family = next(((w, f) for hint, w, f in _V0_HINTS if hint in name),
                              (_V0_DRAFT_WORKER, ""))  # fmt: skip
        return worker, family
    if method is None:
        return None
    _reason, points_to, worker = proposer_verdict(method, None, v1=False)
    if points_to != "other" or not worker or not worker.endswith("Worker"):
        return None
    family = _tables().methods.get(str(method).lower().strip("[]"), ("",))[0]
    return worker, family



def family_v0_worker(method: str) -> tuple[str, str] | None:
    """V0's worker for ``method`` or, where V0 never took that name, for another name of its
    family V0 ran: a text saying only "MTP" may be a V0 run of DeepSeek MTP (V0's
    ``deepseek_mtp``, vLLM 0.7.3 on), which V0 built as MultiStepWorker, before "mtp" was
    a method name."""
    if (own := v0_worker(method)) is not None:
        return own
    family = _tables().methods.get(method, ("",))[0]
    others = (v0_worker(name) for name, row in _tables().methods.items() if family and row[0] == family)
    return next((worker for worker in others if worker is not None), None)

def v1_proposers(bound: Version | None = None) -> tuple[str, ...]:
    """Every class the V1 runner built for some method (each value's first ``[[method]]`` row:
    the later rows are the model runner v2's), in a release no newer than ``bound`` (None:
    any): the classes a V1 speculative run whose method no line names may have drafted with.
    A value born with V0's worker (``...Worker``) or MRV2's speculator (``...Speculator``) as
    its first row had no V1-runner class."""
    return tuple(dict.fromkeys(cls for _value, _family, cls, born, _last in method_spans()
                               if cls.endswith(("Proposer", "ProposerGPU"))
                               and (bound is None or born <= bound)))  # fmt: skip


def method_spans() -> tuple[tuple[str, str, str, Version, Version], ...]:
    """(method value, family, its first row's class, first, last release) where the value and
    the class both lived (a value may predate its class)."""
    out = []
    for value, (family, proposer, first, last) in _tables().methods.items():
        born = [v for v in (parse_release(first), first_release(proposer)) if v is not None]
        end = parse_release(last)
        if proposer and born and end is not None:
            out.append((value, family, proposer, max(born), end))
    return tuple(out)


def method_family(value: str) -> str:
    """The family of a method value (its ``[[method]]`` row), "" for none."""
    return _tables().methods.get(value.lower(), ("",))[0]
