"""SGLang: which files and methods the table holds, and what a frame in each proves.

Scope: everything under ``srt/speculative/`` and ``kernels/ops/speculative/``, the draft
model files under ``srt/models/``, a hardware backend's draft graph runners, the scheduler loops (``event_loop_normal*`` / ``event_loop_pp*`` /
``event_loop_overlap*`` of the scheduler and the PD-disaggregation loops),
``managers/overlap_utils.py`` and the target
CUDA-graph runner. Families are the ``SpeculativeAlgorithm`` members of the releases
themselves (plus MULTI_LAYER_EAGLE, a flag with its own workers, and LOOKAHEAD, a folder).
"""

from __future__ import annotations

import ast
import re

from path_tables import imports
from path_tables.common import (
    choices_of,
    enum_members,
    family_of,
    model_family,
    parse,
    pick_class,
    span,
    string_list,
    value_releases,
)
from path_tables.releases import FileHistory, Release
from path_tables.rows import FrameRow, MethodRow
from path_tables.spans import worker_spans

FRAMEWORK = "sglang"
PACKAGE = "sglang/"
EXTRA_FAMILIES = ("MULTI_LAYER_EAGLE", "LOOKAHEAD")
_SPEC_NAME = re.compile(r"/[^/]*(eagle|mtp|nextn|dflash|dspark|ngram)[^/]*\.py$")
_MODEL = re.compile(r"srt/models/[^/]*(eagle|mtp|nextn|dflash|dspark|medusa)[^/]*\.py$")
_LOOP_FILES = ("srt/managers/scheduler.py", "srt/disaggregation/decode.py",
               "srt/disaggregation/prefill.py", "srt/managers/scheduler_pp_mixin.py")
_SHARED_FILES = ("srt/managers/overlap_utils.py", "srt/model_executor/cuda_graph_runner.py")
_METHOD_FILES = ("srt/speculative/spec_info.py", "srt/speculative/spec_registry.py",
                 "srt/server_args.py")
# server_args refuses speculation with pp_size > 1 up to 0.5.18 ("Pipeline parallelism is not
# compatible with overlap schedule, speculative decoding"); from 0.5.19 only v2 workers exist
_PP_LOOP = "pipeline-parallel event loop (speculation there from sglang 0.5.19: v2, synchronous)"
# a hardware backend's draft graph runners (Ascend NPU: hardware_backend/npu/graph_runner/
# eagle_draft_npu_graph_runner.py, from 0.5.10), used by the family's v1 and v2 workers alike
_BACKEND_RUNNER = re.compile(r"^srt/hardware_backend/[^/]+/graph_runner/[^/]+\.py$")
_WORKER = re.compile(r"(.*)_worker(_v2)?\.py$")
_INFO = re.compile(r"(.*)_info(_v2)?\.py$")


def frame_scope(rel: str) -> bool:
    """Files of the speculative machinery (the frames the table can name)."""
    return rel.endswith(".py") and (
        rel.startswith(("srt/speculative/", "kernels/ops/speculative/"))
        or (bool(_MODEL.search(rel)) and model_family(rel) != "")
        or rel in _LOOP_FILES or rel in _SHARED_FILES
        or (bool(_BACKEND_RUNNER.match(rel)) and bool(_SPEC_NAME.search(rel))))


def scope(rel: str) -> bool:
    return frame_scope(rel) or keep_text(rel)


def keep_text(rel: str) -> bool:
    """Files whose text the method and loop rules read."""
    return rel in _LOOP_FILES or rel in _METHOD_FILES or rel.startswith("srt/arg_groups/")


def families(history: dict[str, FileHistory]) -> tuple[str, ...]:
    found = set(value_releases(history, _enum_values)) - {"NONE"}
    return tuple(sorted(found | set(EXTRA_FAMILIES)))


def _suffix(rel: str) -> str:
    """The suffix a frame's file is matched on: the path from ``srt/`` (or the package)."""
    return rel.removeprefix("srt/")


def _workers(history: dict[str, FileHistory], fams: tuple[str, ...]) -> dict[str, dict[str, str]]:
    """family -> {"v1"/"v2"/"other": worker class} from the ``*_worker[_v2].py`` files."""
    out: dict[str, dict[str, str]] = {}
    names = {rel.rsplit("/", 1)[-1] for rel in history}
    for rel, entry in history.items():
        m = _WORKER.match(rel.rsplit("/", 1)[-1])
        if not rel.startswith("srt/speculative/") or m is None or not family_of(rel, fams):
            continue
        if m.group(2):
            path, cls = "v2", pick_class(entry.newest, ("WorkerV2",)) or pick_class(entry.classes, ("WorkerV2",))
        else:
            path = "v1" if f"{m.group(1)}_worker_v2.py" in names else "other"
            cls = pick_class(entry.newest, ("Worker",)) or pick_class(entry.classes, ("Worker",))
        out.setdefault(family_of(rel, fams), {})[path] = cls
    return out


def _classify(rel: str, entry: FileHistory, fams: tuple[str, ...],
              workers: dict[str, dict[str, str]]) -> tuple[str, str, str, str, str]:
    """(family, worker, path, role, what) of one file, by the rules of the module docstring."""
    base = rel.rsplit("/", 1)[-1]
    fam = family_of(rel, fams)
    fam_workers = workers.get(fam, {})
    if rel.startswith("kernels/"):
        return fam, "", "", "kernel", f"SGLang speculative kernel ({base})"
    if _MODEL.search(rel):
        return model_family(base), "", "", "draft_model", f"SGLang draft model file ({base})"
    if rel in _SHARED_FILES:
        return "", "", "", "graph_runner" if "graph" in base else "shared", f"SGLang {base}"
    if _BACKEND_RUNNER.match(rel):
        backend = rel.split("/")[2]
        return fam, "", "", "graph_runner", (f"SGLang {fam} draft graph runner on the {backend} "
                                             "backend (shared by the family's v1 and v2 workers)")
    if (m := _WORKER.match(base)) and rel.startswith("srt/speculative/") and fam:
        path = "v2" if m.group(2) else ("v1" if "v1" in fam_workers else "other")
        worker = fam_workers.get(path, "")
        return fam, worker, path, "worker", f"SGLang {fam} worker {worker} ({path})"
    if (m := _INFO.match(base)) and fam:
        if m.group(2) and "v2" in fam_workers:
            return fam, fam_workers["v2"], "v2", "shared", f"SGLang {fam} batch input, spec v2 only"
        if set(fam_workers) == {"other"}:
            return fam, fam_workers["other"], "other", "shared", f"SGLang {fam} batch input"
    if "cuda_graph_runner" in base:
        return fam, "", "", "graph_runner", f"SGLang {fam or 'speculative'} CUDA-graph runner"
    return fam, "", "", "shared", f"SGLang speculative code shared by its paths ({base})"


def _loop_rows(rel: str, entry: FileHistory) -> list[tuple[str, FrameRow]]:
    """Scheduler loops of either overlap choice, found in the releases' own text."""
    funcs: dict[str, list[str]] = {}
    for tag, text in entry.texts.items():
        tree = parse(text)
        for node in ast.walk(tree) if tree is not None else ():
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and re.fullmatch(
                r"event_loop_(overlap|normal|pp)\w*", node.name
            ):
                funcs.setdefault(node.name, []).append(tag)
    rows = []
    for name, tags in sorted(funcs.items()):
        v2 = "overlap" in name or name.startswith("event_loop_pp")
        worker = "EAGLEWorkerV2" if v2 else "EAGLEWorker"
        what = ("overlap event loop (spec v2 for EAGLE)" if "overlap" in name
                else _PP_LOOP if v2 else "normal event loop (spec v1 for EAGLE)")
        rows.append((rel, FrameRow(_suffix(rel), FRAMEWORK, "", worker, "v2" if v2 else "v1",
                             "scheduler_loop", (), name, True, span((t, t) for t in tags),
                             what, "generated")))
    return rows


def import_graph(releases: list[Release]) -> dict[str, set[str]]:
    """Who imports each ``srt/speculative/`` module, in any release."""
    return imports.import_graph(releases, "sglang",
                                lambda rel: rel.startswith("srt/speculative/"))


def frame_rows(history: dict[str, FileHistory],
               importers: dict[str, set[str]] | None = None) -> list[tuple[str, FrameRow]]:
    """Generated rows, one per in-scope file (one per loop function for scheduler files)."""
    fams = families(history)
    workers = _workers(history, fams)
    rows: list[tuple[str, FrameRow]] = []
    for rel, entry in sorted(history.items()):
        if rel in _LOOP_FILES:
            rows += _loop_rows(rel, entry)
            continue
        if not frame_scope(rel):
            continue  # read for methods only
        fam, worker, path, role, what = _classify(rel, entry, fams, workers)
        rows.append((rel, FrameRow(_suffix(rel), FRAMEWORK, fam, worker, path, role,
                                   tuple(sorted(entry.classes)), "", False,
                                   (entry.first, entry.last), what, "generated")))
    rows = imports.only_importer_path(rows, importers or {}, "SGLang")
    return worker_spans(rows, history, _worker_at)


def _worker_at(rel: str, at: FileHistory, row: FrameRow) -> str:
    """The class a worker file of one release is named for (its path's kind: ``...WorkerV2``
    in a ``_v2`` file), as ``_workers`` picks the newest."""
    if not _WORKER.match(rel.rsplit("/", 1)[-1]):
        return row.worker if row.worker in at.classes else ""
    return pick_class(at.classes, ("WorkerV2",) if row.path == "v2" else ("Worker",))


def _enum_values(rel: str, text: str) -> list[str]:
    if rel != "srt/speculative/spec_info.py":
        return []
    return enum_members(text, "SpeculativeAlgorithm") + _registered(text)


def _registered(text: str) -> list[str]:
    """Names given to ``register_speculative_algorithm("X", aliases=(...))`` (0.5.x registry)."""
    tree = parse(text)
    names: list[str] = []
    for node in ast.walk(tree) if tree is not None else ():
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "register_speculative_algorithm" and node.args
                and isinstance(node.args[0], ast.Constant)):
            names.append(str(node.args[0].value).upper())
            names += [a.upper() for kw in node.keywords if kw.arg == "aliases"
                      for a in string_list(kw.value)]
    return names


def _method_values(rel: str, text: str) -> list[str]:
    values = _enum_values(rel, text) + [c.upper() for c in choices_of(text, "--speculative-algorithm")]
    tree = parse(text) if "_RESERVED_ALIASES" in text else None
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "_RESERVED_ALIASES" for t in node.targets
        ):
            for sub in ast.walk(node.value):
                values += [v.upper() for v in string_list(sub)]
    return [v for v in values if v != "NONE"]


def method_rows(history: dict[str, FileHistory]) -> list[MethodRow]:
    """``--speculative-algorithm`` values per release; the worker is left to the era rules
    (v1/v2) except where a family has one worker on no split path (NGRAM)."""
    fams = families(history)
    workers = _workers(history, fams)
    rows = []
    for value, releases in sorted(value_releases(history, _method_values).items()):
        family = value
        only = workers.get(family, {})
        worker, path = (only["other"], "other") if set(only) == {"other"} else ("", "")
        what = f"SGLang --speculative-algorithm {value}"
        if value == "NEXTN":
            what += " (an alias: runs the EAGLE workers)"
        rows.append(MethodRow(FRAMEWORK, value, family, worker, path, releases, what,
                              "generated"))
    return rows
