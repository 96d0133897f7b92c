"""Who imports each speculative module, across releases. A helper that only one path's
worker imports proves that path when a frame is in it (issue 11: "shared helpers that only
one path uses"), the way ``eagle_info_v2.py`` proves v2; one imported from anywhere else
only informs."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

from path_tables.releases import Release

_FROM = re.compile(r"^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[\w, \t]+)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w.]+)", re.M)


def _module(path: str, modules: set[str]) -> str | None:
    """``srt/speculative/x`` -> the file it names, if the release has it."""
    for candidate in (f"{path}.py", f"{path}/__init__.py"):
        if candidate in modules:
            return candidate
    return None


def _targets(rel: str, text: str, package: str, modules: set[str]) -> Iterable[str]:
    """The package's modules one file imports (absolute, relative, ``from pkg import mod``)."""
    prefix = package.rstrip("/").replace("/", ".")
    for dots, dotted, names in _FROM.findall(text):
        if dots:
            base = rel.rsplit("/", len(dots))[0]
        elif dotted == prefix or dotted.startswith(prefix + "."):
            base, dotted = "", dotted
        else:
            continue
        path = "/".join(p for p in (base, dotted.replace(".", "/")) if p)
        path = path.removeprefix("sglang/") if not dots else path
        for name in ["", *re.findall(r"\w+", names)]:
            if (hit := _module(f"{path}/{name}" if name else path, modules)) is not None:
                yield hit
    for dotted in _IMPORT.findall(text):
        if dotted.startswith(prefix + "."):
            hit = _module(dotted.replace(".", "/").removeprefix("sglang/"), modules)
            if hit is not None:
                yield hit


def import_graph(releases: list[Release], package: str, scope: str) -> dict[str, set[str]]:
    """module (package path under ``scope``) -> every package file that imports it, in any
    release."""
    importers: dict[str, set[str]] = defaultdict(set)
    word = scope.rstrip("/").rsplit("/", 1)[-1]
    for release in releases:
        files = dict(release.files(lambda rel: rel.endswith(".py")))
        modules = {rel for rel in files if rel.startswith(scope)}
        for rel, text in files.items():
            if word in text or rel.startswith(scope):
                for target in _targets(rel, text, package, modules):
                    if target != rel:
                        importers[target].add(rel)
    return dict(importers)
