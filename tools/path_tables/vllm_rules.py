"""vLLM and vLLM-Ascend: which files and methods the tables hold, and what a frame proves.

Scope: every ``spec_decode`` folder (V0 ``spec_decode/``, V1 ``v1/spec_decode/``, the model
runner v2's ``v1/worker/gpu/spec_decode/``, Ascend's own), files named for a proposer or
speculator, draft model files (EAGLE/MTP/Medusa/MLP-speculator heads), the model runner's
draft functions, and the plugin's patches of speculative code. vLLM has one proposer per
method, so a proposer's file names the path ("other") and the proposer; the method values
come from ``SpeculativeConfig``'s own ``Literal`` types and assignments in each release,
their proposers from the ``if method == ...: SomeProposer(...)`` dispatch in the source.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from path_tables import imports
from path_tables.common import (
    family_of,
    method_family,
    model_family,
    parse,
    pick_class,
    value_releases,
)
from path_tables.releases import FileHistory, Release, version_key
from path_tables.rows import FrameRow, MethodRow
from path_tables.spans import worker_spans
from path_tables.vllm_v2 import built_speculators, declaring_model, speculator_rows

_DRAFT_FN = re.compile(r"\w*(propose|draft)\w*")
_EAGLE_LIKE = ("EAGLE", "EAGLE3", "MTP")


@dataclass(frozen=True, slots=True)
class Flavour:
    """What differs between vLLM and a platform plugin built on it."""

    framework: str
    package: str  # prefix of the scanned paths ("vllm/", "" for a repository)
    root: str  # the folder under it that holds the code ("" or "vllm_ascend/")
    runner_files: tuple[str, ...]  # model runners whose draft functions get rows
    shared_files: tuple[str, ...]  # files outside the folders that only spec decoding runs
    config_files: tuple[str, ...]  # where SpeculativeConfig's methods are defined
    label: str


VLLM = Flavour("vllm", "vllm/", "", ("v1/worker/gpu_model_runner.py",),
               ("v1/sample/rejection_sampler.py", "model_executor/layers/rejection_sampler.py",
                "model_executor/layers/spec_decode_base_sampler.py",
                "model_executor/layers/typical_acceptance_sampler.py"),
               ("config.py", "config/speculative.py", "engine/arg_utils.py"), "vLLM")
ASCEND = Flavour("vllm_ascend", "", "vllm_ascend/",
                 ("vllm_ascend/worker/model_runner_v1.py",),
                 ("vllm_ascend/sample/rejection_sampler.py",),
                 ("vllm_ascend/spec_decode/__init__.py",), "vLLM-Ascend")


class Rules:
    """The scope and row rules for one flavour (the generator's per-framework interface)."""

    def __init__(self, flavour: Flavour) -> None:
        self.f = flavour
        self.PACKAGE = flavour.package

    def frame_scope(self, rel: str) -> bool:
        if not rel.endswith(".py") or not rel.startswith(self.f.root) or "/tests/" in rel:
            return False
        parts = rel.split("/")
        base = parts[-1]
        return ("spec_decode" in parts[:-1] or "proposer" in base or "speculator" in base
                or base.startswith("draft_model_runner")
                or ("models" in parts[:-1] and model_family(base) != "")
                or ("patch" in parts[:-1] and (model_family(base) or "spec_decode" in base))
                or rel in self.f.runner_files or rel in self.f.shared_files)

    def keep_text(self, rel: str) -> bool:
        return rel in self.f.config_files or rel in self.f.runner_files or (
            "spec_decode" in rel and rel.endswith(("__init__.py", "config.py"))) or (
            declaring_model(rel))

    def scope(self, rel: str) -> bool:
        return self.frame_scope(rel) or self.keep_text(rel)

    # ---- frames -------------------------------------------------------------------------

    def import_graph(self, releases: list[Release]) -> dict[str, set[str]]:
        """Who imports each in-scope module, in any release."""
        package = (self.f.package or self.f.root).rstrip("/")
        root = "" if self.f.package else self.f.root
        return imports.import_graph(releases, package, self.frame_scope, root)

    def frame_rows(self, history: dict[str, FileHistory],
                   importers: dict[str, set[str]] | None = None) -> list[tuple[str, FrameRow]]:
        fams = families(history, self.f)
        # bases other drivers derive from, unless the source itself builds them for a method
        derived = {b for e in history.values() for b in e.bases}
        derived -= {driver for rel, entry in history.items()
                    if rel in self.f.config_files + self.f.runner_files
                    for text in entry.texts.values() for driver in _dispatch_of(text).values()}
        built = built_speculators(history)  # the runner v2 builds these: their family
        rows: list[tuple[str, FrameRow]] = []
        for rel, entry in sorted(history.items()):
            if not self.frame_scope(rel):
                continue
            if rel in self.f.runner_files:
                rows += self._runner_rows(rel, entry)
                continue
            fam, worker, path, role, what = self._named(rel, entry, fams, built, derived)
            rows.append((rel, FrameRow(rel, self.f.framework, fam, worker, path, role,
                                       tuple(sorted(entry.classes)), "", False,
                                       (entry.first, entry.last), what, "generated")))
        rows = imports.only_importer_path(rows, importers or {}, self.f.label)
        return worker_spans(rows, history,
                            lambda rel, at, _row: self._named(rel, at, fams, built, derived)[1],
                            subclasses=True)

    def _named(self, rel: str, entry: FileHistory, fams: tuple[str, ...], built: dict[str, str],
               derived: set[str]) -> tuple[str, str, str, str, str]:
        """``_classify`` with the runner v2's families and the bases other proposers run
        through (they name none), for the file over all its releases or as one held it."""
        fam, worker, path, role, what = self._classify(rel, entry, fams)
        if worker in built and not fam and built[worker]:
            fam = built[worker]
            what = f"{self.f.label} {fam} {role} {worker}"
        if worker in derived:  # a base other proposers run through: it names none
            what = f"{self.f.label} {worker}, a base of other proposers (speculation ran)"
            worker, path, role = "", "", "shared"
        return fam, worker, path, role, what

    def _classify(self, rel: str, entry: FileHistory,
                  fams: tuple[str, ...]) -> tuple[str, str, str, str, str]:
        parts = rel.split("/")
        base, label = parts[-1], self.f.label
        fam = family_of("/".join(parts[-3:]), fams)
        if "models" in parts[:-1]:
            return model_family(base), "", "", "draft_model", f"{label} draft model file ({base})"
        if "patch" in parts[:-1]:
            return model_family(base), "", "", "shared", f"{label} patch of speculative code ({base})"
        if rel in self.f.shared_files:
            return "", "", "", "shared", f"{label} {base} (runs only when speculating)"
        if "ops" in parts[:-1] or base.endswith(("_kernels.py", "triton_utils.py")):
            return fam, "", "", "kernel", f"{label} speculative kernel ({base})"
        driver = _main_driver(entry.newest) or _main_driver(entry.classes)
        if len(rivals := _drivers(entry.newest) - entry.bases) > 1:  # two proposers, one file
            return fam, "", "", "shared", f"{label} {base}: {' or '.join(sorted(rivals))}"
        v0 = rel.startswith("spec_decode/")
        if not driver and base.endswith("_worker.py"):
            driver = pick_class(entry.classes, ("Worker",))
        fam = fam or _family_in(driver, fams)
        if driver and not base.startswith(("interface", "base", "utils", "metadata")):
            role = "worker" if "Worker" in driver else "proposer"
            era = " (V0)" if v0 else ""
            return fam, driver, "other", role, f"{label}{era} {fam or 'speculative'} {role} {driver}"
        if "graph" in base:
            return fam, "", "", "graph_runner", f"{label} draft CUDA/ACL-graph code ({base})"
        return fam, "", "", "shared", f"{label} speculative code shared by its proposers ({base})"

    def _runner_rows(self, rel: str, entry: FileHistory) -> list[tuple[str, FrameRow]]:
        """The model runner's draft functions: they prove speculation ran, not which proposer."""
        seen: dict[str, list[str]] = {}
        for tag, text in entry.texts.items():
            tree = parse(text)
            for node in ast.walk(tree) if tree is not None else ():
                if isinstance(node, ast.FunctionDef) and _DRAFT_FN.fullmatch(node.name):
                    seen.setdefault(node.name, []).append(tag)
        return [(rel, FrameRow(rel, self.f.framework, "", "", "", "shared", (), name, False,
                               (min(t, key=version_key), max(t, key=version_key)),
                               f"{self.f.label} model runner draft step {name} (speculation ran)",
                               "generated"))
                for name, t in sorted(seen.items())]

    # ---- methods ------------------------------------------------------------------------

    def method_rows(self, history: dict[str, FileHistory]) -> list[MethodRow]:
        if all(rel.endswith("__init__.py") for rel in self.f.config_files):
            return dispatch_rows(history, self.f)  # a plugin's own dispatch, release by release
        spans = value_releases(history, self._method_values)
        dispatch = _dispatch(history, self.f, predicates(history, self.f))
        proposers = _proposers(history)
        lives = class_lives(history)
        v2 = speculator_rows(history, self.f)
        rows = []
        for value, releases in sorted(spans.items()):
            family = method_family(value)
            worker = dispatch.get(value) or _proposer_for(value, family, proposers)
            what = f"{self.f.label} speculative method '{value}'"
            life = lives.get(worker)
            if life is None or version_key(life[1]) >= version_key(releases[1]):
                rows.append(MethodRow(self.f.framework, value, family, worker,
                                      "other" if worker else "", releases, what, "generated"))
                continue
            # the class went before the value did (V1's proposers, gone in the runner-v2-only
            # releases): it names the class while it lived, the family alone after
            if version_key(life[1]) >= version_key(releases[0]):
                rows.append(MethodRow(self.f.framework, value, family, worker, "other",
                                      (releases[0], life[1]), what, "generated"))
            after = _after(life[1], spans_tags(history))
            if after and not any(r.value == value for r in v2):
                rows.append(MethodRow(self.f.framework, value, family, "", "",
                                      (max(after, releases[0], key=version_key), releases[1]),
                                      what + f" (no {worker} after {life[1]})", "generated"))
        return rows + v2

    def _method_values(self, rel: str, text: str) -> list[str]:
        if rel not in self.f.config_files:
            return []
        if rel.endswith("__init__.py"):
            return sorted(_dispatch_of(text))
        return _config_methods(text)


def _drivers(classes: set[str]) -> set[str]:
    """The proposer / speculator classes among ``classes`` (no base class or mixin)."""
    return {c for c in classes if _is_driver(c) and "Worker" not in c
            and not any(w in c for w in ("Base", "Mixin", "Interface", "Config"))}


def class_lives(history: dict[str, FileHistory]) -> dict[str, tuple[str, str]]:
    """Class -> (first, last) release any scanned file defines it in."""
    lives: dict[str, list[str]] = {}
    for entry in history.values():
        for cls in entry.classes:
            lives.setdefault(cls, []).extend((entry.first, entry.last))
    return {c: (min(t, key=version_key), max(t, key=version_key)) for c, t in lives.items()}


def spans_tags(history: dict[str, FileHistory]) -> list[str]:
    """Every release tag the scan saw a file in (first or last), oldest first."""
    return sorted({t for e in history.values() for t in (e.first, e.last)}, key=version_key)


def _after(tag: str, tags: list[str]) -> str:
    """The first of ``tags`` after ``tag`` ("" when none)."""
    return next((t for t in tags if version_key(t) > version_key(tag)), "")


def _main_driver(classes: set[str]) -> str:
    """The proposer / speculator class a file is named for (the shortest of its drivers)."""
    found = sorted(_drivers(classes))
    return min(found, key=len) if found else ""


def _family_in(name: str, fams: tuple[str, ...]) -> str:
    """A family named inside a class name (AscendStep3p5MTPProposer -> MTP)."""
    squashed = name.replace("_", "").lower()
    hits = [f for f in fams if f.replace("_", "").lower() in squashed]
    return max(hits, key=len) if hits else ""


def families(history: dict[str, FileHistory], flavour: Flavour) -> tuple[str, ...]:
    """Families of the method values, plus those a proposer file is named for."""
    found = {"EAGLE", "EAGLE3", "MTP", "NGRAM", "MEDUSA", "DRAFT_MODEL", "SUFFIX",
             "MLP_SPECULATOR", "DFLASH", "DSPARK", "EXTRACT_HIDDEN_STATES"}
    for rel, entry in history.items():
        if rel in flavour.config_files and not rel.endswith("__init__.py"):
            for text in entry.texts.values():
                found |= {method_family(v) for v in _config_methods(text)}
    return tuple(sorted(found))


def _literal_strings(node: ast.AST, named: dict[str, ast.AST], depth: int = 0) -> list[str]:
    """Strings of a ``Literal[...]``, following names of other Literals (SpeculativeMethod
    -> EagleModelTypes -> MTPModelTypes)."""
    out: list[str] = []
    if depth > 5:
        return out
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            out.append(sub.value)
        elif isinstance(sub, ast.Name) and sub.id in named and sub.id != "Literal":
            out += _literal_strings(named[sub.id], named, depth + 1)
    return out


def _config_methods(text: str) -> list[str]:
    """Method spellings a release's config accepts: the SpeculativeMethod Literal (with the
    Literals it names), ``self.method = "..."`` and MTP ``model_type = "..._mtp"`` rewrites."""
    tree = parse(text)
    if tree is None:
        return []
    named = {t.id: n.value for n in ast.walk(tree) if isinstance(n, ast.Assign)
             for t in n.targets if isinstance(t, ast.Name) and isinstance(n.value, ast.Subscript)}
    values = _literal_strings(named["SpeculativeMethod"], named) if "SpeculativeMethod" in named else []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(
                node.value.value, str):
            for target in node.targets:
                if isinstance(target, ast.Attribute) and (
                        target.attr == "method"
                        or (target.attr == "model_type" and node.value.value.endswith("_mtp"))):
                    values.append(node.value.value)
    return sorted({v for v in values if re.fullmatch(r"\[?[a-z][a-z0-9_]*\]?", v)})


_USE_EAGLE = ("eagle", "eagle3")
# the predicates of SpeculativeConfig a runner branch may ask (``use_gemma4_mtp()``)
_PREDICATE = re.compile(r"uses?_\w+")


def _predicates_of(text: str) -> dict[str, tuple[bool, tuple[str, ...]]]:
    """``def use_x(self)`` of a release's config -> (whether it asks the draft's model type,
    the strings it compares): ``use_gemma4_mtp`` -> (True, ("mtp", "gemma4_mtp")) asks
    ``method == "mtp" and draft model_type == "gemma4_mtp"``; ``use_dflash`` -> (False,
    ("dflash",)). ``use_eagle`` is left out: it also covers methods an earlier branch or a
    guard outside the dispatch claims (dflash, a dspark the V1 runner refuses), so its
    branch keeps the EAGLE methods alone (``_USE_EAGLE``)."""
    tree = parse(text)
    found: dict[str, tuple[bool, tuple[str, ...]]] = {}
    for node in ast.walk(tree) if tree is not None else ():
        if not (isinstance(node, ast.FunctionDef) and _PREDICATE.fullmatch(node.name)
                and node.name != "use_eagle"):
            continue
        asks_type = "model_type" in ast.unparse(node)
        values = tuple(dict.fromkeys(
            c.value for cmp in ast.walk(node) if isinstance(cmp, ast.Compare)
            and re.search(r"\bmethod\b|model_type", ast.unparse(cmp))
            for c in ast.walk(cmp) if isinstance(c, ast.Constant) and isinstance(c.value, str)))
        if values:
            found.setdefault(node.name, (asks_type, values))
    return found


def predicates(history: dict[str, FileHistory],
               flavour: Flavour) -> dict[str, dict[str, tuple[bool, tuple[str, ...]]]]:
    """Release tag -> that release's config predicates (``_predicates_of``)."""
    out: dict[str, dict[str, tuple[bool, tuple[str, ...]]]] = {}
    for rel in flavour.config_files:
        entry = history.get(rel)
        for tag, text in (entry.texts.items() if entry is not None and not rel.endswith("__init__.py")
                          else ()):
            out.setdefault(tag, {}).update(_predicates_of(text))
    return out


def _dispatch_of(text: str,
                 asks: dict[str, tuple[bool, tuple[str, ...]]] | None = None) -> dict[str, str]:
    """``if method == "x": return XProposer(...)`` / ``elif method in (...)`` -> value -> class.
    A branch that asks more than the method (``method == "mtp" and use_gemma4_mtp()``) is a
    special case: it names the class only for a value no plain branch builds. ``asks``: the
    release's config predicates (``_predicates_of``): a branch on one (``elif
    spec.use_gemma4_mtp():``) holds for the strings it compares; one that asks the draft's
    model type (gemma4_mtp: vLLM's config rewrites a Gemma-4 assistant's to it) is special and
    keyed by that model type, which ``SpeculativeConfig`` also takes as a method name."""
    tree = parse(text)
    found: dict[str, str] = {}
    special: dict[str, str] = {}
    for node in ast.walk(tree) if tree is not None else ():
        test = ast.unparse(node.test) if isinstance(node, ast.If) else ""
        called = [c.func.attr for c in ast.walk(node.test) if isinstance(c, ast.Call)
                  and isinstance(c.func, ast.Attribute) and c.func.attr in (asks or {})] if test else []
        if not re.search(r"method|use_eagle\(\)", test) and not called:
            continue
        values = [c.value for c in ast.walk(node.test)
                  if isinstance(c, ast.Constant) and isinstance(c.value, str)]
        into = special if isinstance(node.test, ast.BoolOp) else found
        if not values and called:
            by_type, compared = (asks or {})[called[0]]
            values = [v for v in compared if v.endswith("_mtp")] if by_type else list(compared)
            into = special if by_type else into
        if not values and "use_eagle()" in test:
            values = list(_USE_EAGLE)  # SpeculativeConfig.use_eagle(): the EAGLE methods
        driver = _driver_call(node.body)
        for value in values if driver else ():
            into.setdefault(value, driver)
    return found | {v: d for v, d in special.items() if v not in found}


def _driver_call(body: list[ast.stmt]) -> str:
    """The proposer a branch builds: a ``return X(...)`` / ``self.drafter = X(...)`` of the
    branch itself (its default) before one nested in a sub-branch."""
    def calls(nodes: list[ast.AST]) -> list[str]:
        return [c.func.id for n in nodes for c in ast.walk(n) if isinstance(c, ast.Call)
                and isinstance(c.func, ast.Name) and _is_driver(c.func.id)]

    top = [s.value for s in body if isinstance(s, ast.Return | ast.Assign) and s.value]
    return (calls(top) or calls(list(body)) or [""])[0]


_DRIVER = re.compile(r"[A-Z]\w*(Proposer|Speculator|Worker)(GPU|NPU|V\d)?")


def _is_driver(name: str) -> bool:
    """A class that drafts (``NgramProposerGPU``), not one named after them
    (``SpeculatorBatchDescriptor``)."""
    return _DRIVER.fullmatch(name) is not None


def _dispatch(history: dict[str, FileHistory], flavour: Flavour,
              asks: dict[str, dict[str, tuple[bool, tuple[str, ...]]]] | None = None) -> dict[str, str]:
    """The newest dispatch found for each value (the runner's or the plugin's); ``asks``: each
    release's config predicates (``predicates``)."""
    found: dict[str, tuple[object, str]] = {}
    for rel, entry in sorted(history.items()):
        if rel not in flavour.config_files + flavour.runner_files:
            continue
        for tag, text in entry.texts.items():
            for value, driver in _dispatch_of(text, (asks or {}).get(tag)).items():
                if value not in found or version_key(tag) >= found[value][0]:
                    found[value] = (version_key(tag), driver)
    return {value: driver for value, (_key, driver) in found.items()}


def _proposers(history: dict[str, FileHistory]) -> list[str]:
    return sorted({c for rel, e in history.items() if "spec_decode" in rel
                   for c in e.classes if _is_driver(c)})


def _proposer_for(value: str, family: str, proposers: list[str]) -> str:
    """The proposer named for the method (ngram_gpu -> NgramProposerGPU), else for its family;
    EAGLE-3 and MTP run on the EAGLE proposer where they have none of their own."""
    def squash(s: str) -> str:
        return s.replace("_", "").lower()

    words = value.strip("[]").lower().split("_")
    exact = [p for p in proposers if "Proposer" in p and all(w in p.lower() for w in words)
             and p.lower().removeprefix("ascend").startswith(words[0])]
    if exact:
        return min(exact, key=len)
    for tail in ("Proposer", "Speculator", "Worker"):
        for word in (family, "EAGLE" if family in _EAGLE_LIKE else ""):
            hits = [p for p in proposers if word and squash(p).startswith(squash(word))
                    and tail in p]
            if hits:
                return min(hits, key=len)
    return ""


def dispatch_rows(history: dict[str, FileHistory], flavour: Flavour) -> list[MethodRow]:
    """One [[method]] row per (value, class) a plugin's ``get_spec_decode_method`` dispatch
    builds, with the releases it does so (vllm-ascend's ``mtp`` ran ``MtpProposer`` up to
    v0.15.0rc1 and ``AscendEagleProposer`` from v0.16.0rc1)."""
    seen: dict[tuple[str, str], list[str]] = {}
    for rel in flavour.config_files:
        entry = history.get(rel)
        for tag, text in (entry.texts.items() if entry is not None else ()):
            for value, driver in _dispatch_of(text).items():
                seen.setdefault((value, driver), []).append(tag)
    return [MethodRow(flavour.framework, value, method_family(value), driver, "other",
                      (min(tags, key=version_key), max(tags, key=version_key)),
                      f"{flavour.label} speculative method '{value}'", "generated")
            for (value, driver), tags in sorted(seen.items(),
                                                key=lambda kv: (kv[0][0], version_key(min(kv[1], key=version_key))))]  # fmt: skip
