"""Release trees the generator reads, all offline: slim wheel zips (fetch.py), a bare git
mirror (``fetch`` of a repository), or a saved index listing for a tree too big for both.

Each release yields (path inside the package, source text) for the files a framework's
scope keeps; ``scan`` folds them into one history per file across releases.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from packaging.version import InvalidVersion, Version

Scope = Callable[[str], bool]  # package-relative path -> kept?
_CLASS = re.compile(r"^class\s+([A-Za-z_]\w*)", re.M)


@dataclass(frozen=True, slots=True)
class Release:
    """One release tree: its tag and a reader of its in-scope files."""

    tag: str
    files: Callable[[Scope], Iterator[tuple[str, str]]]


@dataclass(slots=True)
class FileHistory:
    """What the releases say about one file: where it first and last appears, its classes."""

    first: str
    last: str
    classes: set[str] = field(default_factory=set)
    newest: set[str] = field(default_factory=set)  # the classes of the last release holding it
    bases: set[str] = field(default_factory=set)  # names the file's classes derive from
    class_bases: dict[str, set[str]] = field(default_factory=dict)  # class -> its direct bases
    texts: dict[str, str] = field(default_factory=dict)  # tag -> text, for method extraction
    # tag -> (the classes that release's file defines, each one's direct bases): which class a
    # renamed or split file named in each release (``rows.worker_spans``)
    trees: dict[str, tuple[frozenset[str], dict[str, frozenset[str]]]] = field(default_factory=dict)

    def at(self, tag: str) -> FileHistory:
        """The file as one release held it (first = last = ``tag``, no texts)."""
        names, bases = self.trees[tag]
        return FileHistory(tag, tag, set(names), set(names), {b for d in bases.values() for b in d},
                           {c: set(d) for c, d in bases.items()})


def version_key(tag: str) -> tuple[int, Version | str]:
    """Release order; tags that are not versions sort after, by name."""
    try:
        return (0, Version(tag.removeprefix("v")))
    except InvalidVersion:
        return (1, tag)


def classes_of(text: str) -> tuple[set[str], dict[str, set[str]]]:
    """(class names, each class's direct bases as their last dotted name: ``nn.Module`` ->
    Module); a file ast cannot parse gives its class names by regex and no bases."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return set(_CLASS.findall(text)), {}
    defs = [node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    bases = {node.name: {b.id if isinstance(b, ast.Name) else b.attr for b in node.bases
                         if isinstance(b, ast.Name | ast.Attribute)} for node in defs}
    return {node.name for node in defs}, bases


def zip_releases(folder: Path, package: str) -> list[Release]:
    """``<folder>/<version>.zip`` slim wheels (fetch.py); paths made relative to package."""

    def reader(path: Path) -> Callable[[Scope], Iterator[tuple[str, str]]]:
        def files(scope: Scope) -> Iterator[tuple[str, str]]:
            with zipfile.ZipFile(path) as zf:
                for name in zf.namelist():
                    rel = name.removeprefix(package)
                    if name.startswith(package) and scope(rel):
                        yield rel, zf.read(name).decode("utf-8", "replace")

        return files

    zips = sorted(folder.glob("*.zip"), key=lambda p: version_key(p.stem))
    return [Release("v" + p.stem, reader(p)) for p in zips]


def git_releases(git_dir: Path, package: str, tags: list[str]) -> list[Release]:
    """Tags of a bare mirror; files read with ``git ls-tree`` / ``git cat-file``."""

    def git(*args: str) -> str:
        return subprocess.run(["git", "--git-dir", str(git_dir), *args], check=True,
                              capture_output=True, text=True, errors="replace").stdout

    def reader(tag: str) -> Callable[[Scope], Iterator[tuple[str, str]]]:
        def files(scope: Scope) -> Iterator[tuple[str, str]]:
            spec = ("--", package) if package else ()
            for name in git("ls-tree", "-r", "--name-only", tag, *spec).splitlines():
                rel = name.removeprefix(package)
                if scope(rel):
                    yield rel, git("cat-file", "blob", f"{tag}:{name}")

        return files

    return [Release(tag, reader(tag)) for tag in sorted(tags, key=version_key)]


def index_release(listing: Path, package: str) -> list[Release]:
    """A saved listing ``{"tag": ..., "files": {path: [classes...]}}`` of a tree no release
    archive could be had for; it gives names and classes only (no text)."""
    data = json.loads(listing.read_text())

    def files(scope: Scope) -> Iterator[tuple[str, str]]:
        for name, classes in sorted(data["files"].items()):
            rel = name.removeprefix(package)
            if name.startswith(package) and scope(rel):
                yield rel, "".join(f"class {c}:\n    pass\n" for c in classes)

    return [Release(data["tag"], files)]


def scan(releases: list[Release], scope: Scope, keep_text: Scope) -> dict[str, FileHistory]:
    """One history per in-scope file across the releases (given oldest first)."""
    history: dict[str, FileHistory] = {}
    for release in releases:
        for rel, text in release.files(scope):
            entry = history.setdefault(rel, FileHistory(release.tag, release.tag))
            entry.last = release.tag
            names, bases = classes_of(text) if rel.endswith(".py") else (set(), {})
            entry.newest = names
            entry.trees[release.tag] = (frozenset(names), {c: frozenset(d) for c, d in bases.items()})
            entry.classes |= names
            for name, direct in bases.items():
                entry.bases |= direct
                entry.class_bases.setdefault(name, set()).update(direct)
            if keep_text(rel):
                entry.texts[release.tag] = text
    return history
