"""Who imports each speculative module, across releases. A helper that only one path's
worker imports proves that path when a frame is in it (issue 11: "shared helpers that only
one path uses"), the way ``eagle_info_v2.py`` proves v2; one imported from anywhere else
only informs."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import replace

from path_tables.releases import Release
from path_tables.rows import FrameRow

# A file that imports a speculative module names one of these (or is one itself).
_WORDS = ("spec", "eagle", "draft", "mtp", "medusa", "ngram", "propos", "suffix", "dflash",
          "dspark", "nextn")

_FROM = re.compile(r"^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[\w, \t]+)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w.]+)", re.M)


def _module(path: str, modules: set[str]) -> str | None:
    """``srt/speculative/x`` -> the file it names, if the release has it."""
    for candidate in (f"{path}.py", f"{path}/__init__.py"):
        if candidate in modules:
            return candidate
    return None


def _targets(rel: str, text: str, package: str, root: str,
             modules: set[str]) -> Iterable[str]:
    """The package's modules one file imports (absolute, relative, ``from pkg import mod``);
    ``package`` is its import name, ``root`` what scanned paths start with ("" or
    ``vllm_ascend/`` for a repository)."""
    for dots, dotted, names in _FROM.findall(text):
        if dots:
            path = "/".join(p for p in (rel.rsplit("/", len(dots))[0] if "/" in rel else "",
                                        dotted.replace(".", "/")) if p)
        elif dotted.startswith(package + "."):
            path = root + dotted.removeprefix(package + ".").replace(".", "/")
        else:
            continue
        for name in ["", *re.findall(r"\w+", names)]:
            if (hit := _module(f"{path}/{name}" if name else path, modules)) is not None:
                yield hit
    for dotted in _IMPORT.findall(text):
        if dotted.startswith(package + "."):
            hit = _module(root + dotted.removeprefix(package + ".").replace(".", "/"), modules)
            if hit is not None:
                yield hit


def import_graph(releases: list[Release], package: str, in_scope: Callable[[str], bool],
                 root: str = "") -> dict[str, set[str]]:
    """module (a path ``in_scope``) -> every package file that imports it, in any release."""
    importers: dict[str, set[str]] = defaultdict(set)
    for release in releases:
        files = dict(release.files(lambda rel: rel.endswith(".py")))
        modules = {rel for rel in files if in_scope(rel)}
        for rel, text in files.items():
            if rel in modules or any(word in text for word in _WORDS):
                for target in _targets(rel, text, package, root, modules):
                    if target != rel:
                        importers[target].add(rel)
    return dict(importers)


def only_importer_path(rows: list[tuple[str, FrameRow]], importers: dict[str, set[str]],
                       label: str) -> list[tuple[str, FrameRow]]:
    """A row that informs by name but that one path's worker alone imports (in every
    release) proves that path: ``frozen_kv_mtp_utils.py`` -> v1 FrozenKVMTPWorker. Run
    twice, so a helper of such a helper follows."""
    for _round in range(2):
        single = {rel: row for rel, row in rows if not row.function}
        out = []
        for rel, row in rows:
            paths = {(single[u].path, single[u].worker) if u in single else ("", "")
                     for u in importers.get(rel, set())}
            if (row.role in ("shared", "graph_runner") and not row.path and len(paths) == 1
                    and (only := next(iter(paths)))[0]):
                base = rel.rsplit("/", 1)[-1]
                row = replace(row, path=only[0], worker=only[1],
                              what=f"{label} {base}: only the {only[0]} {only[1]} imports it")
            out.append((rel, row))
        rows = out
    return rows
