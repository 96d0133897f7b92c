"""Frame signatures of the speculative worker paths, loaded from the path knowledge tables
(rules/paths/<framework>.toml, generated from the frameworks' own releases; schema in
docs/linking.md) for SGLang, vLLM (V1 proposers, V0 spec workers, vLLM-Ascend) and
TensorRT-LLM's PyTorch backend.

A frame in ``eagle_worker.py`` proves the v1 EAGLEWorker ran, whatever the config says;
scheduler event loops prove the overlap choice only for EAGLE-family runs; shared code
(spec_info, graph runners) only informs.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

from spectrace.assemblers.crash import Frame
from spectrace.errors import RuleError


@dataclass(frozen=True, slots=True)
class FrameSignature:
    name: str  # path suffix matched against the frame's file ("speculative/eagle_worker.py")
    points_to: str | None  # "v1" | "v2" | "other" | None (shared code: informs only)
    worker_class: str | None
    what: str
    function: str | None = None  # only frames in this function count
    needs_spec: bool = False  # proves the path only when the run is EAGLE-family speculative
    framework: str = ""  # "sglang" | "vllm" | "vllm_ascend" | "trtllm" | "spectrace"
    family: str = ""  # "EAGLE", "MTP", "NGRAM", ... ("" = shared by several)
    classes: tuple[str, ...] = ()  # classes the file defines, for class names seen in messages
    spec_only: bool = True  # only speculative runs execute it (not the target's graph runner)
    releases: tuple[str, str] = ("", "")  # first and last release whose tree holds the file
    # (class, first, last release) where the file named several classes over its releases (a
    # class renamed, split or moved): the class of the run's release, never the newest alone
    workers: tuple[tuple[str, str, str], ...] = ()
    role: str = ""  # the table's role: "proposer", "shared", "draft_model" (a draft's own model file)


# table files (paths/<name>.toml); vllm_plugins' rows name their plugin (tpu_inference, ...)
_FRAMEWORKS = ("sglang", "vllm", "vllm_ascend", "trtllm", "vllm_plugins")
_KEYS = {"file", "framework", "family", "worker", "path", "role", "classes", "function",
         "needs_spec", "releases", "what", "source", "bases", "workers"}  # fmt: skip
_PATHS = {"v1", "v2", "other", ""}


def _row(raw: dict[str, Any], where: str) -> FrameSignature:
    """One ``[[frame]]`` table -> a signature; RuleError names the file, row and key."""
    missing = {"file", "framework", "path", "what"} - set(raw)
    unknown = set(raw) - _KEYS
    if missing or unknown:
        key = sorted(missing or unknown)[0]
        raise RuleError(f"{where}: {'missing' if missing else 'unknown'} key {key!r}")
    if raw["path"] not in _PATHS or "." not in str(raw["file"]):
        raise RuleError(f"{where}: path must be v1, v2, other or empty; file a file name")
    classes = raw.get("classes", [])
    if not isinstance(classes, list) or not all(isinstance(c, str) for c in classes):
        raise RuleError(f"{where}: classes must be a list of names")
    role, family, path = str(raw.get("role", "")), str(raw.get("family", "")), str(raw["path"])
    needs_spec = bool(raw.get("needs_spec", False))
    return FrameSignature(
        name=str(raw["file"]),
        points_to=path or None,
        worker_class=str(raw.get("worker", "")) or None,
        what=str(raw["what"]),
        function=str(raw.get("function", "")) or None,
        needs_spec=needs_spec,
        framework=str(raw["framework"]),
        family=family,
        classes=tuple(classes),
        spec_only=bool(family) or (bool(path) and not needs_spec) or role == "draft_model",
        releases=_releases(raw.get("releases", [])),
        workers=_spans(raw.get("workers", []), where),
        role=role,
    )


def _spans(raw: object, where: str) -> tuple[tuple[str, str, str], ...]:
    """``workers = [["EagleProposer", "v0.10.2rc1", "v0.15.0rc1"], ...]`` -> tuples."""
    ok = isinstance(raw, list) and all(
        isinstance(s, list) and len(s) == 3 and all(isinstance(v, str) for v in s) for s in raw)
    if not ok:
        raise RuleError(f"{where}: workers must be [class, first, last] lists")
    return tuple((s[0], s[1], s[2]) for s in raw)  # type: ignore[union-attr]


def renamed(sig: FrameSignature) -> bool:
    """The row's file named more than one class over its releases (``workers``; a span
    ``EagleProposer|DraftModelProposer``: other files' proposers derive from a class of it
    there): a frame there names the class of the run's release, else only a condition."""
    return len({cls for cls, _first, _last in sig.workers}) > 1 or any(
        "|" in cls for cls, _first, _last in sig.workers)


def worker_spans(sig: FrameSignature) -> tuple[tuple[str, str, str], ...]:
    """(class, first, last release) the row's file was named for: its spans (a shared span's
    own class, the first), else its one class over all its releases (none for no class)."""
    if sig.workers:
        return tuple((s[0].split("|")[0], s[1], s[2]) for s in sig.workers if s[0])
    return ((sig.worker_class, *sig.releases),) if sig.worker_class else ()


def _releases(raw: object) -> tuple[str, str]:
    if isinstance(raw, list) and len(raw) == 2 and all(isinstance(r, str) for r in raw):
        return raw[0], raw[1]
    return "", ""


@cache
def _data(framework: str) -> Mapping[str, Any] | None:
    """A framework's table file, parsed once, or None when the package holds none for it."""
    name = f"paths/{framework}.toml"
    node = resources.files("spectrace.rules").joinpath(name)
    if not node.is_file():
        return None
    try:
        return MappingProxyType(tomllib.loads(node.read_text("utf-8")))
    except tomllib.TOMLDecodeError as exc:
        raise RuleError(f"rules/{name}: {exc}") from None


def _table(framework: str) -> tuple[FrameSignature, ...] | None:
    """A framework's ``[[frame]]`` rows, or None when the package holds no table for it."""
    data = _data(framework)
    if data is None:
        return None
    rows = data.get("frame", [])
    where = f"rules/paths/{framework}.toml: frame row"
    return tuple(_row(raw, f"{where} {n}") for n, raw in enumerate(rows, 1))


def _method_key(value: str) -> str:
    return value.strip().strip("[]").lower()


@cache
def _methods() -> Mapping[tuple[str, str], tuple[str, str]]:
    index: dict[tuple[str, str], tuple[str, str]] = {}
    for framework in _FRAMEWORKS:
        for raw in (_data(framework) or {}).get("method", []):
            key = (str(raw.get("framework", framework)), _method_key(str(raw.get("value", ""))))
            row = (str(raw.get("family", "")), str(raw.get("worker", "")))
            if key in index and index[key] != row:  # TRT-LLM's EAGLE mode vs `decoding_type:
                row = (index[key][0], "")  # Eagle`: one spelling, two classes -> name neither
            index[key] = row
    return MappingProxyType(index)


def method_signature(framework: str | None, value: str) -> tuple[str, str] | None:
    """(family, worker class or "") of a config value through the engine's ``[[method]]``
    rows (``lookahead_decoding`` -> LOOKAHEAD / LookaheadDecodingLayer), compared
    case-insensitively without list brackets (``[ngram]``); None when no row names it."""
    return _methods().get((framework or "", _method_key(value)))


@cache
def family_methods(framework: str, family: str) -> tuple[tuple[str, str, str], ...]:
    """(worker, first, last release) of each of the engine's ``[[method]]`` rows for a family
    that names a worker: which class ran the family, release by release."""
    out: list[tuple[str, str, str]] = []
    for raw in (_data(framework) or {}).get("method", []):
        releases = _releases(raw.get("releases", []))
        if str(raw.get("family", "")) == family and raw.get("worker") and all(releases):
            out.append((str(raw["worker"]), *releases))
    return tuple(out)


@cache
def method_releases(framework: str) -> tuple[tuple[str, str], ...]:
    """(config value, first release) of each of the engine's ``[[method]]`` rows: which
    algorithms a release could run (SGLang's STANDALONE from v0.5.2, NGRAM from v0.5.3)."""
    rows = (_data(framework) or {}).get("method", [])
    return tuple((str(raw.get("value", "")), _releases(raw.get("releases", []))[0]) for raw in rows)


def _specificity(sig: FrameSignature) -> tuple[int, int, bool]:
    """Longest suffix first (across every framework's table), a function row first."""
    return (-sig.name.count("/"), -len(sig.name), sig.function is None)


@cache
def class_bases(framework: str) -> Mapping[str, frozenset[str]]:
    """Class -> its direct bases as the framework's ``[[frame]]`` rows write them (``bases``,
    the union over the releases holding each file); empty for a table without them."""
    out: dict[str, set[str]] = {}
    for row in (_data(framework) or {}).get("frame", []):
        for cls, bases in (row.get("bases") or {}).items() if isinstance(row, dict) else ():
            out.setdefault(str(cls), set()).update(str(b) for b in bases)
    return MappingProxyType({cls: frozenset(b) for cls, b in out.items()})


# a class a draft-model file defines as the model it builds, not an inner layer sharing a
# target's name (``LlamaModel``, ``Qwen2DecoderLayer`` in the EAGLE draft files)
_DRAFT_MARK = ("MTP", "NextN", "Eagle", "DSpark", "DFlash", "Assistant", "Draft", "MultiTokenPredictor")


@cache
def draft_model_classes(framework: str) -> Mapping[str, str]:
    """Class -> family of each model class the framework's draft-model files (``role =
    "draft_model"`` rows) define: a server that loaded one ran a speculative draft."""
    out: dict[str, str] = {}
    for raw in (_data(framework) or {}).get("frame", []):
        if raw.get("role") != "draft_model" or not raw.get("family"):
            continue
        for cls in raw.get("classes", []):
            if any(mark in cls for mark in _DRAFT_MARK):
                out[str(cls)] = str(raw["family"])
    return MappingProxyType(out)


@cache
def frame_signatures() -> tuple[FrameSignature, ...]:
    """Every table's rows, most specific first: the first row whose suffix (and function)
    matches a frame wins."""
    rows = [row for framework in _FRAMEWORKS for row in _table(framework) or ()]
    return tuple(sorted(rows, key=_specificity))


@cache
def _by_name() -> Mapping[str, str]:
    """Row file suffix -> its framework (evidence reasons name the row's suffix)."""
    return MappingProxyType({sig.name: sig.framework for sig in reversed(frame_signatures())})


def framework_of_row(name: str) -> str | None:
    """The framework whose table holds the ``[[frame]]`` row for file suffix ``name``."""
    return _by_name().get(name)


@cache
def _by_basename() -> Mapping[str, tuple[FrameSignature, ...]]:
    """Signatures per file name, most specific first: a frame is checked only against those
    its own file name could match (a suffix match ends with the same name)."""
    index: dict[str, tuple[FrameSignature, ...]] = {}
    for sig in frame_signatures():
        base = sig.name.rsplit("/", 1)[-1]
        index[base] = (*index.get(base, ()), sig)
    return MappingProxyType(index)


def _matches(path: str, suffix: str) -> bool:
    return path == suffix or path.endswith("/" + suffix)


# the frameworks' own top packages: a fork's package nearer to the file than one of these
# makes the file the fork's (a checkout of vLLM inside a folder named after a fork stays vLLM's)
_OWN_PACKAGES = frozenset({"vllm", "sglang", "tensorrt_llm", "vllm_ascend", "tpu_inference",
                           "arctic_inference", "vllm_gaudi", "vllm_metal"})  # fmt: skip


@cache
def _forks() -> Mapping[str, str]:
    """Fork package -> the repository it belongs to (rules/paths/forks.toml)."""
    data = _data("forks") or {}
    return MappingProxyType({str(r["package"]): str(r.get("repository", ""))
                             for r in data.get("fork", []) if isinstance(r, dict) and r.get("package")})  # fmt: skip


def fork_of(path: str) -> str | None:
    """The fork repository whose own package holds ``path`` (``.../aphrodite/spec_decode/
    spec_decode_worker.py``: Aphrodite's copy of vLLM's V0 file), or None."""
    forks = _forks()
    for part in reversed(path.replace("\\", "/").split("/")[:-1]):
        if part in forks:
            return forks[part]
        if part in _OWN_PACKAGES:
            return None
    return None


def frame_signature(frame: Frame) -> FrameSignature | None:
    """The signature a frame matches, if its file is one the linker knows. A ``<module>`` frame
    is the file being imported (vLLM's model runner imports every proposer module for every
    run, speculative or not): it proves no worker ran, so it matches none; nor does a fork's
    copy of a framework's file (``fork_of``)."""
    if frame.function == "<module>" or fork_of(frame.file) is not None:
        return None
    path = frame.file.replace("\\", "/")
    rows = _by_basename().get(path.rsplit("/", 1)[-1], ())
    for sig in rows:
        if _matches(path, sig.name) and (sig.function is None or frame.function == sig.function):
            return sig
    return _trimmed(path.removeprefix("./"), frame.function, rows)


def _trimmed(path: str, function: str, rows: tuple[FrameSignature, ...]) -> FrameSignature | None:
    """A frame path cut to its package-relative part (``spec_decode/dflash_proposer.py``: a
    debug hook's or a writer's trimmed paste) is the row it ends, where every row it could end
    is one framework's; of two frameworks' files (``spec_decode/llm_base_proposer.py``: vLLM's
    and vllm-ascend's) it is neither. A bare file name or an absolute path is no such cut."""
    if "/" not in path or path.startswith(("/", "~", ".")) or ":" in path:
        return None
    found = [sig for sig in rows if sig.name.endswith("/" + path)
             and (sig.function is None or function == sig.function)]  # fmt: skip
    return found[0] if len({sig.framework for sig in found}) == 1 else None


# where each table's row files start inside a frame's path (SGLang's rows from ``srt/``, vLLM's
# from its package; vllm-ascend's and the plugins' rows name their package themselves)
_ROW_ROOTS = {"sglang": "sglang/srt/", "vllm": "vllm/", "trtllm": "tensorrt_llm/"}


@dataclass(frozen=True, slots=True)
class UnknownFile:
    """A frame's file in a framework's speculative folder that no table row holds (a release
    newer than the tables, a fork's addition): the framework, and the family its name says."""

    framework: str
    folder: str  # the folder as the frame names it ("sglang/srt/speculative/")
    family: str  # "" when the name says none


@cache
def _spec_folders() -> tuple[tuple[str, str], ...]:
    """(folder with its package, framework) of every folder of speculative code the tables
    hold rows in (``speculative``/``spec_decode`` in the path), longest first."""
    found: set[tuple[str, str]] = set()
    for sig in frame_signatures():
        folder = sig.name.rsplit("/", 1)[0] if "/" in sig.name else ""
        if sig.function is None and ("speculative" in folder or "spec_decode" in folder):
            root = _ROW_ROOTS.get(sig.framework, "")
            root = "" if folder.startswith(root.split("/", 1)[0] + "/") else root
            found.add((root + folder + "/", sig.framework))
    return tuple(sorted(found, key=lambda f: (-len(f[0]), f)))


@dataclass(frozen=True, slots=True)
class UnknownClass:
    """A class in the shape of a framework's drafting classes that no table holds (a fork's
    own proposer, a release newer than the tables): the frameworks whose drafting classes end
    as it does, and the family a word of its name spells."""

    frameworks: frozenset[str]
    family: str


@cache
def _class_shapes() -> Mapping[str, frozenset[str]]:
    """Each ending of the tables' drafting classes (``Proposer``, ``Speculator``, ``Worker``,
    ``Drafter``; a ``V2`` after it aside) -> the frameworks whose classes end so. Not
    TensorRT-LLM's decoding ``Layer``s: every model's decoder layer ends so too."""
    found: dict[str, set[str]] = {}
    for sig in frame_signatures():
        if sig.points_to and sig.worker_class and (m := _ENDING.search(sig.worker_class)):
            if m.group(1) != "Layer":
                found.setdefault(m.group(1), set()).add(sig.framework)
    return MappingProxyType({k: frozenset(v) for k, v in found.items()})


_ENDING = re.compile(r"([A-Z][a-z]+)(?:V\d+)?$")
# a CamelCase name's words: "DSpark" -> D, Spark; "Qwen3NextMTP" -> Qwen, 3, Next, MTP
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|$)|[A-Z]?[a-z]+|\d+")


def unknown_class(name: str) -> UnknownClass | None:
    """``name`` where no table holds it, but it ends as a framework's drafting classes do and a
    run of its words spells one of that framework's families (``DSparkProposer``: vLLM's
    ``Proposer``, DSPARK); None for any other name (``TpModelWorker`` spells no family)."""
    m = _ENDING.search(name)
    if m is None or _by_class().get(name) or m.group(1) not in _class_shapes():
        return None
    words = [w.lower() for w in _CAMEL.findall(name[: m.start()])]
    runs = {"".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, len(words) + 1)}
    frameworks = _class_shapes()[m.group(1)]
    families = {f for fw in frameworks for f in _families(fw) if f.lower().replace("_", "") in runs}
    if len(families) != 1:  # none, or several ("EagleMTP"): the name settles no family
        families = {f for f in families if not any(f != g and f in g for g in families)}
    if len(families) != 1:
        return None
    return UnknownClass(frameworks, families.pop())


@cache
def _families(framework: str) -> tuple[str, ...]:
    return tuple(sorted({s.family for s in frame_signatures() if s.framework == framework
                         and s.family}, key=lambda f: (-len(f), f)))  # fmt: skip


NOT_IN_TABLES = "file not in our tables"  # an unknown file's evidence says so (--explain-path)


def framework_of_path(name: str) -> str | None:
    """The framework of a frame's file: its row's table, else the framework whose speculative
    folder holds it (a file newer than the tables)."""
    found = unknown_file(Frame(name, 1, ""))
    return framework_of_row(name) or (found.framework if found is not None else None)


def unknown_file(frame: Frame) -> UnknownFile | None:
    """A frame in a file of a framework's speculative folder that its table does not hold (not
    an import, not a fork's copy): it names the framework, and the family whose name starts a
    word of the file's name (``eagle3_tree_worker.py`` -> EAGLE3), never a class."""
    path = frame.file.replace("\\", "/")
    if frame.function == "<module>" or not path.endswith(".py") or fork_of(path) is not None:
        return None
    if frame_signature(frame) is not None:
        return None
    parent = "/" + path.rsplit("/", 1)[0].lstrip("/") + "/"
    hit = next(((folder, fw) for folder, fw in _spec_folders()
                if parent.endswith("/" + folder)), None)  # fmt: skip
    if hit is None:
        return None
    words = path.rsplit("/", 1)[-1].removesuffix(".py").lower().split("_")
    stem = "_".join(words)
    family = next((f for f in _families(hit[1])
                   if stem == f.lower() or stem.startswith(f.lower() + "_")), "")  # fmt: skip
    return UnknownFile(hit[1], hit[0], family)


@cache
def function_signature(function: str) -> FrameSignature | None:
    """The most specific row written for a function name (``event_loop_normal``): a caller's
    source line names the function it calls, not the file that defines it."""
    return next((sig for sig in frame_signatures() if sig.function == function), None)


def file_signature(path: str) -> FrameSignature | None:
    """The row a file named without a function proves (``eagle_worker_v2.py:828`` in a
    sentence), or None: every row the name could stand for (its suffix ends the path, or the
    path ends its suffix; a row a longer matching one shadows aside) must name one worker.
    A bare ``eagle.py`` could be any of six files and names none."""
    path = path.replace("\\", "/")
    if fork_of(path) is not None:
        return None
    rows = [
        sig
        for sig in _by_basename().get(path.rsplit("/", 1)[-1], ())
        if sig.function is None and (_matches(path, sig.name) or _matches(sig.name, path))
    ]
    whole = [sig for sig in rows if _matches(path, sig.name)]
    rows = [sig for sig in rows
            if not any(w is not sig and _matches(w.name, sig.name) for w in whole)]  # fmt: skip
    rows = [package_row(sig) or sig for sig in rows]
    if len({(sig.points_to, sig.worker_class, sig.framework) for sig in rows}) != 1:
        return None
    return rows[0] if rows[0].points_to is not None and not rows[0].needs_spec else None


def package_row(sig: FrameSignature) -> FrameSignature | None:
    """For a shared module of one method's own package (vLLM's ``spec_decode/dspark/utils.py``,
    ``eagle/eagle3_utils.py``): the row of the package's one proposer, as a cited file of the package
    names it (only that proposer's code imports its package's helpers); None for a file of a
    folder several proposers share, or of a class several families run (``v1/spec_decode/utils.py``, SGLang's ``speculative/``)."""
    if sig.points_to is not None or sig.role != "shared" or sig.function is not None \
            or sig.name.rsplit("/", 1)[-1] in _PACKAGE_WIDE:  # fmt: skip
        return None
    folder = sig.name.rsplit("/", 1)[0] if "/" in sig.name else None
    owners = _package_owners().get((sig.framework, folder)) if folder else None
    if owners is None or len(owners) != 1:
        return None
    owner = owners[0]
    if len(_families_run_by(owner.framework).get(owner.worker_class or "", ())) > 1:
        return None  # a class several families run (EAGLE, EAGLE3): its helpers are theirs too
    what = f"a module of {owner.worker_class}'s own package ({folder}/): {owner.what}"
    return replace(owner, name=sig.name, what=what)


@cache
def _families_run_by(framework: str) -> Mapping[str, frozenset[str]]:
    """worker class -> the families the engine's ``[[method]]`` rows run with it."""
    index: dict[str, set[str]] = {}
    for raw in (_data(framework) or {}).get("method", []):
        if raw.get("worker") and raw.get("family"):
            index.setdefault(str(raw["worker"]), set()).add(str(raw["family"]))
    return MappingProxyType({cls: frozenset(fams) for cls, fams in index.items()})


# a package's modules any importer of the package or of the speculative config loads (the
# package's ``__init__``, its config dataclass): not that proposer's own code path
_PACKAGE_WIDE = ("__init__.py", "config.py")


@cache
def _package_owners() -> Mapping[tuple[str, str], tuple[FrameSignature, ...]]:
    """(framework, folder) -> the proposer rows (a worker named, no function) of that folder."""
    index: dict[tuple[str, str], tuple[FrameSignature, ...]] = {}
    for sig in frame_signatures():
        if sig.role == "proposer" and sig.points_to and sig.worker_class and sig.function is None \
                and "/" in sig.name:  # fmt: skip
            key = (sig.framework, sig.name.rsplit("/", 1)[0])
            index[key] = (*index.get(key, ()), sig)
    return MappingProxyType(index)


@cache
def package_tails() -> tuple[str, ...]:
    """``folder/file.py`` of each shared module ``package_row`` gives its package's proposer:
    what a line citing it by its package is kept and read by."""
    return tuple(sorted({"/".join(sig.name.split("/")[-2:]) for sig in frame_signatures()
                         if package_row(sig) is not None}))  # fmt: skip


_HOSTS = ("sglang", "vllm", "trtllm")  # platform plugins define classes of their hosts' names


@cache
def _by_class() -> Mapping[str, tuple[FrameSignature, ...]]:
    """The files that define each worker / proposer class, a platform plugin's last."""
    index: dict[str, list[FrameSignature]] = {}
    for sig in sorted(frame_signatures(), key=lambda s: s.framework not in _HOSTS):
        if sig.function is None and not sig.needs_spec:
            for name in sig.classes:
                index.setdefault(name, []).append(sig)
    return MappingProxyType({name: tuple(sigs) for name, sigs in index.items()})


def signature_for_class(name: str, framework: str | None = None) -> FrameSignature | None:
    """The signature of the file that defines a class an exception message names: the run's
    own framework's when it is known, else the first (a plugin's last)."""
    sigs = _by_class().get(name, ())
    return next((s for s in sigs if s.framework == framework), sigs[0] if sigs else None)


def frameworks_of_class(name: str) -> frozenset[str]:
    """Every framework whose tables define a worker class (a platform plugin's too)."""
    natives = {n.framework for n in symbol_signatures() if n.worker == name}
    return frozenset({s.framework for s in _by_class().get(name, ())} | natives)


def family_of(worker_class: str | None, framework: str | None = None) -> tuple[str, str] | None:
    """(framework, family) the tables give a worker class; family "" when shared."""
    sig = signature_for_class(worker_class or "", framework)
    if sig is not None:
        return sig.framework, sig.family
    native = next((n for n in symbol_signatures() if n.worker and n.worker == worker_class), None)
    return (native.framework, native.family) if native is not None else None


@dataclass(frozen=True, slots=True)
class SymbolSignature:
    """A native (C++) symbol or library a backtrace frame names, and the family it proves."""

    pattern: str  # substring of a demangled symbol or a library path
    framework: str
    family: str
    worker: str | None
    points_to: str | None
    what: str


_SYMBOL_KEYS = {"pattern", "framework", "family", "worker", "path", "what", "releases", "source"}


def _symbol(raw: dict[str, Any], where: str) -> SymbolSignature:
    unknown = set(raw) - _SYMBOL_KEYS
    if unknown or not raw.get("pattern") or "framework" not in raw:
        raise RuleError(f"{where}: unknown key {sorted(unknown)[0]!r}" if unknown
                        else f"{where}: pattern and framework are required")  # fmt: skip
    if raw.get("path", "") not in _PATHS:
        raise RuleError(f"{where}: path must be v1, v2, other or empty")
    return SymbolSignature(
        str(raw["pattern"]), str(raw["framework"]), str(raw.get("family", "")),
        str(raw.get("worker", "")) or None, str(raw.get("path", "")) or None,
        str(raw.get("what", raw["pattern"])),
    )  # fmt: skip


@cache
def symbol_signatures() -> tuple[SymbolSignature, ...]:
    """Every table's ``[[symbol]]`` rows, those naming a worker first, then the longest
    pattern (``LookaheadDecodingLayer`` before an informing ``Lookahead``)."""
    rows: list[SymbolSignature] = []
    for framework in _FRAMEWORKS:
        name = f"paths/{framework}.toml"
        node = resources.files("spectrace.rules").joinpath(name)
        if node.is_file():
            data = tomllib.loads(node.read_text("utf-8"))  # _table already checked it parses
            rows += [_symbol(raw, f"rules/{name}: symbol row {n}")
                     for n, raw in enumerate(data.get("symbol", []), 1)]  # fmt: skip
    return tuple(sorted(rows, key=lambda r: (r.points_to is None, -len(r.pattern))))


@dataclass(frozen=True, slots=True)
class KernelOp:
    """An sgl_kernel speculative op and the SGLang files that call it (rules/paths/sglang_ops.toml)."""

    name: str
    callers: tuple[str, ...]
    what: str


@cache
def _kernel_ops() -> Mapping[str, KernelOp]:
    rows = (_data("sglang_ops") or {}).get("op", [])
    ops = (KernelOp(str(r["name"]), tuple(str(c) for c in r.get("callers", ())), str(r.get("what", "")))
           for r in rows if isinstance(r, dict) and r.get("name"))  # fmt: skip
    return MappingProxyType({op.name: op for op in ops})


def kernel_op(name: str) -> KernelOp | None:
    """The sgl_kernel speculative op of that name, or None (any other op or word)."""
    return _kernel_ops().get(name)


def symbol_signature(text: str) -> SymbolSignature | None:
    """The first symbol row whose pattern the native frame's symbol or library holds."""
    return next((s for s in symbol_signatures() if s.pattern in text), None)
