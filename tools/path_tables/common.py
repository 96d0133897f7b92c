"""Rules every framework's table shares: family from a file name, the worker class a file
defines, method values found in the source across releases."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable

from path_tables.releases import FileHistory, version_key


def family_of(name: str, families: Iterable[str]) -> str:
    """The longest family whose lower-case name starts a path component of ``name``
    (``multi_layer_eagle_worker.py`` -> MULTI_LAYER_EAGLE, not EAGLE); "" if none."""
    parts = name.lower().split("/")
    best = ""
    for family in families:
        low = family.lower()
        if any(p == low or p.startswith(low + "_") or p.startswith(low + ".") for p in parts):
            best = max(best, family, key=len)
    return best


def pick_class(classes: Iterable[str], suffixes: tuple[str, ...]) -> str:
    """The class a worker/proposer file is named for: the first (sorted) whose name ends with
    one of ``suffixes``, a draft-side helper (``EagleDraftWorker``) only when nothing else."""
    found = sorted(c for c in classes if c.endswith(suffixes) and not c.startswith("_"))
    main = [c for c in found if "Draft" not in c and "Base" not in c and "Mixin" not in c]
    return (main or found or [""])[0]


def span(entries: Iterable[tuple[str, str]]) -> tuple[str, str]:
    """(first, last) release over several (first, last) pairs."""
    firsts, lasts = zip(*entries, strict=True)
    return min(firsts, key=version_key), max(lasts, key=version_key)


def string_list(node: ast.AST) -> list[str]:
    """String constants of a list / tuple / set literal (others: [])."""
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return []


def parse(text: str) -> ast.AST | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):
        return None


def enum_members(text: str, class_name: str) -> list[str]:
    """NAME = ... assignments in the body of ``class class_name``."""
    tree = parse(text)
    if tree is None:
        return []
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            for stmt in node.body:
                if isinstance(stmt, ast.Assign):
                    names += [t.id for t in stmt.targets if isinstance(t, ast.Name)]
                elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                    names.append(stmt.target.id)
    return [n for n in names if re.fullmatch(r"[A-Z][A-Z0-9_]*", n)]


def choices_of(text: str, flag: str) -> list[str]:
    """``choices=[...]`` of every call naming ``flag`` (argparse add_argument)."""
    tree = parse(text)
    if tree is None:
        return []
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and any(
            isinstance(a, ast.Constant) and a.value == flag for a in node.args
        ):
            for kw in node.keywords:
                if kw.arg == "choices":
                    found += string_list(kw.value)
    return found


def value_releases(history: dict[str, FileHistory], extract) -> dict[str, tuple[str, str]]:
    """value -> (first, last) release over every kept text, ``extract(path, text)`` giving
    the values one file of one release holds."""
    seen: dict[str, list[str]] = {}
    for path, entry in sorted(history.items()):
        for tag, text in entry.texts.items():
            for value in extract(path, text):
                seen.setdefault(value, []).append(tag)
    return {v: (min(t, key=version_key), max(t, key=version_key)) for v, t in seen.items()}


def model_family(base: str) -> str:
    """The family a draft model file is named for (``llama_eagle3.py`` -> EAGLE3)."""
    words = re.split(r"[_./]", base.lower().rsplit("/", 1)[-1])
    for word, family in (("eagle3", "EAGLE3"), ("eagle", "EAGLE"), ("nextn", "NEXTN"),
                         ("mtp", "MTP"), ("dflash", "DFLASH"), ("dspark", "DSPARK"),
                         ("medusa", "MEDUSA")):
        if word in words:
            return family
    return ""


def method_family(value: str) -> str:
    """vLLM's method spelling -> family (``deepseek_mtp`` -> MTP, ``[ngram]`` -> NGRAM)."""
    low = value.strip("[]").lower()
    if low == "mtp" or low.endswith("_mtp"):
        return "MTP"
    if low.startswith("ngram"):
        return "NGRAM"
    if low in ("suffix", "suffix_decoding"):
        return "SUFFIX"
    return low.upper()
