"""A vLLM speculative method on the vllm-ascend plugin -> the plugin's own proposer class.

On Ascend NPUs vLLM's model runner is the plugin's, and the plugin builds its own proposer for
each method (``get_spec_decode_method``: ``AscendEagleProposer``, ``AscendDflashProposer``...),
so vLLM's CUDA class (``DFlashProposer``) never runs there. The classes come from
rules/paths/vllm_ascend.toml's [[method]] rows, generated from every vllm-ascend tag.
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from importlib import resources
from types import MappingProxyType

from packaging.version import Version

from spectrace.assemblers.vllm_proposers import method_classes
from spectrace.assemblers.vllm_release import parse_release, spans_holding


@cache
def _table(name: str) -> MappingProxyType[str, list[object]]:
    """A rules table by its path (``paths/vllm_ascend.toml``); empty where absent or unreadable."""
    node = resources.files("spectrace.rules").joinpath(name)
    try:
        data = tomllib.loads(node.read_text("utf-8")) if node.is_file() else {}
    except tomllib.TOMLDecodeError:
        data = {}
    return MappingProxyType(data)


@cache
def _methods() -> MappingProxyType[str, tuple[tuple[str, str, str], ...]]:
    """method value -> ((class, first, last plugin release), ...) from vllm_ascend.toml."""
    rows: dict[str, list[tuple[str, str, str]]] = {}
    for r in _table("paths/vllm_ascend.toml").get("method", []):
        if isinstance(r, dict) and r.get("worker"):
            first, last = (list(r.get("releases") or []) + ["", ""])[:2]
            rows.setdefault(str(r.get("value", "")).lower(), []).append(
                (str(r["worker"]), str(first), str(last))
            )
    return MappingProxyType({k: tuple(v) for k, v in rows.items()})


def ascend_method(name: str) -> bool:
    """vllm-ascend's tables list ``name`` (lower case) as a speculative method."""
    return name in _methods()


def _row_at(name: str, release: Version) -> tuple[str, str, str] | None:
    """The row of ``name`` a build of ``release`` runs (``spans_holding``: a dev build between
    two tags of different classes has none, so the condition over the rows stands)."""
    rows = spans_holding(release, _methods().get(name, ()), _newest())
    return rows[0] if len({row[0] for row in rows}) == 1 else None


def newest_plugin_release() -> Version | None:
    """The newest vllm-ascend release the tables were read from (what a text's release is
    checked against)."""
    return _newest()


@cache
def _newest() -> Version | None:
    """The newest plugin release any [[method]] row reaches."""
    lasts = [parse_release(row[2]) for rows in _methods().values() for row in rows]
    return max((v for v in lasts if v is not None), default=None)


def _model_mtp_row(release: Version) -> tuple[str, str, str] | None:
    """The row of a model-named MTP method (``deepseek_mtp``) at ``release``, for MTP named as
    a family: before the plugin matched vLLM's unified ``mtp`` (v0.12.0rc1) its dispatch
    spelled the model's method, and every MTP spelling of one release builds one class."""
    rows = {row for value in _methods() if value.endswith("_mtp")
            if (row := _row_at(value, release)) is not None}  # fmt: skip
    return rows.pop() if len({row[0] for row in rows}) == 1 else None


def _rows(name: str) -> tuple[tuple[str, str, str], ...]:
    """The rows of ``name``; for a model-named MTP method (``deepseek_mtp``, ``qwen3_5_mtp``)
    also the rows of ``mtp`` after its own end: vLLM accepts the model's spelling on every
    release and folds it into ``mtp`` before the plugin's dispatch sees it, so a release past
    the plugin's last ``deepseek_mtp`` branch builds the class of ``mtp``."""
    rows = _methods().get(name, ())
    if not name.endswith("_mtp"):
        return rows
    ends = [v for row in rows if (v := parse_release(row[2])) is not None]
    last = max(ends, default=None)
    later = tuple(row for row in _methods().get("mtp", ())
                  if last is None or (parse_release(row[1]) or last) > last)  # fmt: skip
    return _merged(rows + later)


def _merged(rows: tuple[tuple[str, str, str], ...]) -> tuple[tuple[str, str, str], ...]:
    """Neighbouring rows of one class as one span (MtpProposer for ``deepseek_mtp`` to
    v0.11.0, then for ``mtp`` to v0.15.0rc1: one class on v0.10.2rc1-v0.15.0rc1)."""
    out: list[tuple[str, str, str]] = []
    for row in rows:
        if out and out[-1][0] == row[0]:
            out[-1] = (row[0], out[-1][1], row[2])
        else:
            out.append(row)
    return tuple(out)


def ascend_proposer(
    method: object, plugin: object = None, newest: Version | None = None
) -> tuple[str | None, str, str | None]:
    """(the plugin's class for ``method`` or None, why, condition or None). With the plugin's
    release (``0.17.0rc1``) the row of that release is taken; a model-named MTP method
    (``deepseek_mtp``) that the release no longer lists is vLLM's renamed ``mtp``. With no
    release the class is named only when every release that builds one builds the same (no
    later than ``newest``, the release the text's dates allow); else the condition names each
    class with its releases."""
    name = str(method).lower().strip("[]")
    release = parse_release(str(plugin)) if plugin is not None else None
    if release is not None:
        row = _row_at(name, release) or (_row_at("mtp", release) if name.endswith("_mtp") else None)
        row = row or (_model_mtp_row(release) if name == "mtp" else None)
        if row is not None:
            return row[0], f"vllm-ascend {plugin} builds {row[0]} for '{name}'", None
    rows = _rows(name)
    dated = tuple(r for r in rows if newest is None or (parse_release(r[1]) or newest) <= newest)
    if newest is not None and dated and len({r[0] for r in dated}) < len({r[0] for r in rows}):
        found, why, condition = _by_rows(name, dated)
        return (
            found,
            f"{why} (the text's dates allow vllm-ascend {newest} at the newest)",
            condition,
        )
    return _by_rows(name, rows)


def _by_rows(
    name: str, rows: tuple[tuple[str, str, str], ...]
) -> tuple[str | None, str, str | None]:
    """One class over the rows, or the condition naming each with its releases."""
    if not rows:
        return None, f"no vllm-ascend release read builds a proposer for '{name}'", None
    if len({row[0] for row in rows}) == 1:
        return rows[0][0], f"vllm-ascend builds {rows[0][0]} for '{name}' (from {rows[0][1]})", None
    condition = ", ".join(f"{cls} on vllm-ascend {first}-{last}" for cls, first, last in rows)
    return None, f"vllm-ascend's class for '{name}' changed by release: {condition}", condition


@cache
def _renames() -> tuple[tuple[re.Pattern[str], str], ...]:
    """vLLM class -> the plugin's class for the same method (EagleProposer -> AscendEagleProposer)."""
    plugin = _methods()
    pairs = {cls: plugin[value][-1][0] for value, cls in method_classes().items()
             if cls and plugin.get(value) and plugin[value][-1][0] != cls}  # fmt: skip
    return tuple((re.compile(rf"\b{re.escape(cls)}\b"), new) for cls, new in sorted(pairs.items()))


def on_ascend(text: str) -> str:
    """A verdict's wording with each vLLM proposer class named as the plugin's."""
    for pattern, new in _renames():
        text = pattern.sub(new, text)
    return text


@cache
def _plugin_rows() -> MappingProxyType[tuple[str, str], tuple[tuple[str, str, str], ...]]:
    """(plugin framework, method) -> ((class, first, last release), ...) from vllm_plugins.toml
    (generated) and vllm_plugin_hand.toml (methods the generator cannot read, such as the
    ``mtp`` vLLM's ``use_eagle()`` folds into a plugin's EAGLE branch)."""
    methods = [*_table("paths/vllm_plugins.toml").get("method", []),
               *_table("paths/vllm_plugin_hand.toml").get("method", [])]  # fmt: skip
    rows: dict[tuple[str, str], list[tuple[str, str, str]]] = {}
    for r in methods:
        if isinstance(r, dict) and r.get("worker"):
            first, last = (list(r.get("releases") or []) + ["", ""])[:2]
            key = (str(r.get("framework", "")), str(r.get("value", "")).lower())
            rows.setdefault(key, []).append((str(r["worker"]), str(first), str(last)))
    return MappingProxyType({k: tuple(v) for k, v in rows.items()})


def plugin_proposer(
    framework: str, method: object, release: str | None = None
) -> tuple[str | None, str | None]:
    """(class, None) when one class runs ``method`` in every release of the plugin that builds
    proposers by method, or in ``release`` (the plugin's, where the text gives it); else (None,
    the condition naming each class with its releases); (None, None) when no row names the
    method."""
    name = str(method).lower().strip("[]")
    rows = _plugin_rows().get((framework, name), ())
    if not rows:
        return None, None
    at = parse_release(release) if release else None
    if at is not None:
        held = [cls for cls, _first, _last in spans_holding(at, rows)]
        if len(set(held)) == 1:
            return held[0], None
    spans = [parse_release(v) for key, found in _plugin_rows().items() if key[0] == framework
             for _c, first, last in found for v in (first, last)]  # fmt: skip
    known = [v for v in spans if v is not None]
    lows = [parse_release(first) for _c, first, _l in rows]
    highs = [parse_release(last) for _c, _f, last in rows]
    whole = (
        None not in lows
        and None not in highs
        and known
        and min(lows) <= min(known)
        and max(highs) >= max(known)
    )  # type: ignore[type-var]
    if whole and len({cls for cls, _f, _l in rows}) == 1:
        return rows[0][0], None
    named = ", ".join(f"{cls} on {framework} {first}-{last}" for cls, first, last in rows)
    return None, f"{named}; no class of its own on its other releases" if not whole else named


def ascend_proposers(release: Version | None, newest: Version | None = None) -> tuple[str, ...]:
    """Every class the plugin builds for some method on ``release`` (a dev build: what the
    tags around it built); with no release, on every release read up to ``newest`` (the
    newest the text's days allow), else on every release read."""
    found: dict[str, None] = {}
    for rows in _methods().values():
        if release is not None:
            held = spans_holding(release, rows, _newest())
        else:
            held = tuple(r for r in rows if newest is None or (parse_release(r[1]) or newest) <= newest)
        found.update(dict.fromkeys(cls for cls, _first, _last in held))
    return tuple(found)


@cache
def verifier_files() -> tuple[str, ...]:
    """vLLM's files that run only to verify drafts (vllm_plugin_hand.toml's [[verifier]] rows)."""
    rows = _table("paths/vllm_plugin_hand.toml").get("verifier", [])
    return tuple(str(r["file"]) for r in rows if isinstance(r, dict) and r.get("file"))


@cache
def _packages() -> MappingProxyType[str, str]:
    """Each plugin's installed package (the first folder of its frame tables' files:
    ``vllm_ascend``, ``vllm_gaudi``, ``tpu_inference``...) -> the plugin's framework."""
    found: dict[str, str] = {}
    for name in ("paths/vllm_ascend.toml", "paths/vllm_plugins.toml"):
        for r in _table(name).get("frame", []):
            if isinstance(r, dict) and "/" in str(r.get("file", "")) and r.get("framework"):
                found.setdefault(str(r["file"]).split("/", 1)[0], str(r["framework"]))
    return MappingProxyType(found)


def plugin_package(path: str) -> str | None:
    """The plugin whose installed package a file path runs through (``.../site-packages/
    vllm_ascend/spec_decode/x.py``, ``vllm_gaudi/v1/worker/y.py``), or None: one test for every
    plugin, driven by the plugins' frame tables."""
    parts = path.replace("\\", "/").split("/")
    return next((_packages()[p] for p in parts[:-1] if p in _packages()), None)


def ascend_rows(method: str) -> tuple[tuple[str, str, str], ...]:
    """(class, first, last release) of each of the plugin's [[method]] rows for ``method`` (a
    model-named MTP method also through ``mtp`` after its own rows end)."""
    return _rows(str(method).lower().strip("[]"))


@cache
def plugin_v0_span(framework: str) -> tuple[str, str] | None:
    """(first, last release) of the plugin's releases that ran vLLM's V0 spec decode: the span
    of the releases holding the files of its [[v0]] row (vllm_plugin_hand.toml) in its frame
    table; None where it has none."""
    files = {str(f) for r in _table("paths/vllm_plugin_hand.toml").get("v0", [])
             if isinstance(r, dict) and r.get("framework") == framework for f in r.get("files", ())}  # fmt: skip
    table = "paths/vllm_ascend.toml" if framework == "vllm_ascend" else "paths/vllm_plugins.toml"
    spans = [(v, str(x)) for r in _table(table).get("frame", []) if isinstance(r, dict)
             and r.get("file") in files for x in (r.get("releases") or [])[:2]
             if (v := parse_release(str(x))) is not None]  # fmt: skip
    if not spans:
        return None
    return min(spans)[1], max(spans)[1]


def early_proposers(family: str) -> tuple[tuple[str, str, str], ...]:
    """(class, first, last release) of vllm-ascend's proposer files from before its [[method]]
    rows begin (its V1 runner of v0.9.x: ``eagle_proposer_v1.py``'s EagleProposer,
    ``mtp_proposer_v1.py``'s MtpProposer) whose family ``family`` is or extends (EAGLE3 ran on
    the EAGLE file)."""
    firsts = [v for rows in _methods().values() for row in rows if (v := parse_release(row[1]))]
    start = min(firsts, default=None)
    out: dict[tuple[str, str, str], None] = {}
    for r in _table("paths/vllm_ascend.toml").get("frame", []):
        if not isinstance(r, dict) or r.get("role") != "proposer" or not r.get("worker"):
            continue
        first, last = (list(r.get("releases") or []) + ["", ""])[:2]
        end = parse_release(str(last))
        own = str(r.get("family", ""))
        if start is None or end is None or end >= start or not own or not family.startswith(own):
            continue
        out[(str(r["worker"]), str(first), str(last))] = None
    return tuple(sorted(out, key=lambda row: parse_release(row[1]) or Version("0")))


@cache
def _since() -> tuple[tuple[re.Pattern[str], str, Version, Version | None], ...]:
    """(a class name's pattern, framework, first release, last or None) of each name of
    vllm_plugin_hand.toml's [[since]] rows."""
    out = []
    for r in _table("paths/vllm_plugin_hand.toml").get("since", []):
        if not isinstance(r, dict) or (first := parse_release(str(r.get("first", "")))) is None:
            continue
        last = parse_release(str(r["last"])) if r.get("last") else None
        framework = str(r.get("framework", ""))
        for name in r.get("names", ()):
            out.append((re.compile(rf"(?<![\w.]){re.escape(str(name))}(?!\w)"), framework, first, last))
    return tuple(out)


def named_span(framework: str, text: str) -> tuple[Version, Version | None] | None:
    """(first, last or None) of ``framework``'s releases defining every class of its
    [[since]] rows that ``text`` names (``AscendSpecDecodeBaseProposer``: 0.19.1rc1 on), or None
    where it names none."""
    hits = [(first, last) for pattern, fw, first, last in _since() if fw == framework and pattern.search(text)]
    if not hits:
        return None
    lasts = [last for _first, last in hits if last is not None]
    return max(first for first, _last in hits), min(lasts) if lasts else None
