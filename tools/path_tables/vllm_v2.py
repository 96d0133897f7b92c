"""vLLM's model runner v2 (``v1/worker/gpu/``): the speculator class each method's registered
config names, read from each release's registry (split from vllm_rules.py)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from path_tables.common import method_family, parse
from path_tables.releases import FileHistory, version_key
from path_tables.rows import MethodRow

if TYPE_CHECKING:  # vllm_rules imports this module
    from path_tables.vllm_rules import Flavour


# The model runner v2 (``v1/worker/gpu/``) builds the speculator its method's registered config
# names (``_CONFIG_BY_METHOD`` -> ``XSpeculatorConfig.speculator_class``); it decides the class
# only in the releases that no longer ship the V1 runner, where it is the only one.
_REGISTRY = "v1/worker/gpu/spec_decode/speculator_config.py"
_V1_RUNNER = "v1/worker/gpu_model_runner.py"
_V2_PACKAGE = "vllm.v1.worker.gpu.spec_decode."
_V2_FOLDER = "v1/worker/gpu/spec_decode/"
# a draft model's module named for the model type vLLM's config gives it (``gemma4_mtp.py``)
_MODELS = "model_executor/models/"


def declaring_model(rel: str) -> bool:
    """A model-type-named MTP module (``model_executor/models/gemma4_mtp.py``): its draft class
    may declare the runner v2 config it runs on (``speculator_config_class``)."""
    return rel.startswith(_MODELS) and rel.count("/") == 2 and rel.endswith("_mtp.py")


def speculator_rows(history: dict[str, FileHistory], flavour: Flavour) -> list[MethodRow]:
    """One [[method]] row per (method, speculator) of the runner-v2-only releases, with the
    releases it holds for (rows of one value never overlap)."""
    registry, runner = history.get(_REGISTRY), history.get(_V1_RUNNER)
    seen: dict[tuple[str, str], list[str]] = {}
    for tag, text in (registry.texts.items() if registry is not None else ()):
        if runner is not None and tag in runner.texts:
            continue  # the V1 runner ships too and stays the default
        for value, cls in (_registry(text, history, tag) | _declared(history, tag)).items():
            seen.setdefault((value, cls), []).append(tag)
    return [MethodRow(flavour.framework, value, method_family(value), cls, "other",
                      (min(tags, key=version_key), max(tags, key=version_key)),
                      f"{flavour.label} speculative method '{value}' (model runner v2)", "generated")
            for (value, cls), tags in sorted(seen.items())]  # fmt: skip


def _registry(text: str, history: dict[str, FileHistory], tag: str) -> dict[str, str]:
    """method -> speculator class of one release's registry (``_builtin(module, Config)``)."""
    tree = parse(text)
    out: dict[str, str] = {}
    for node in ast.walk(tree) if tree is not None else ():
        if not (isinstance(node, ast.AnnAssign | ast.Assign) and isinstance(node.value, ast.Dict)
                and "_CONFIG_BY_METHOD" in ast.unparse(node)):
            continue
        for key, value in zip(node.value.keys, node.value.values, strict=True):
            args = [a.value for a in getattr(value, "args", ())
                    if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if isinstance(key, ast.Constant) and len(args) == 2:
                cls = _speculator_of(args[0], args[1], history, tag)
                if cls:
                    out[str(key.value)] = cls
    return out


def _declared(history: dict[str, FileHistory], tag: str) -> dict[str, str]:
    """model type -> speculator class, for each model-type-named draft module of release
    ``tag`` whose class declares ``speculator_config_class`` (``models/gemma4_mtp.py``:
    Gemma4MTPSpeculatorConfig -> Gemma4Speculator). The runner v2 takes a config the draft
    declares over its method's (``get_speculator_config_class``), and vLLM's config takes the
    model type as a method name (rewritten to ``mtp``), so that method ran on that class."""
    out: dict[str, str] = {}
    for rel, entry in history.items():
        tree = parse(entry.texts.get(tag, "")) if declaring_model(rel) else None
        for node in ast.walk(tree) if tree is not None else ():
            if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and any(
                    isinstance(t, ast.Name) and t.id == "speculator_config_class" for t in node.targets)):
                continue
            for module in _imported_from(tree, node.value.id):
                if cls := _speculator_of(module, node.value.id, history, tag):
                    out[rel.removeprefix(_MODELS).removesuffix(".py")] = cls
    return out


def built_speculators(history: dict[str, FileHistory]) -> dict[str, str]:
    """Speculator class -> the family of its config's ``base_method``, for every config class
    of the v2 package (those the registry names, and those a draft model declares, such as a
    Gemma-4 assistant's): the family a speculator named for no method drafts for."""
    out: dict[str, str] = {}
    for rel, entry in history.items():
        if not (rel.startswith(_V2_FOLDER) and rel.endswith("config.py")) or not entry.texts:
            continue
        tag = max(entry.texts, key=version_key)
        module = rel.removeprefix(_V2_FOLDER).removesuffix(".py").replace("/", ".")
        tree = parse(entry.texts[tag])
        for node in ast.walk(tree) if tree is not None else ():
            if isinstance(node, ast.ClassDef):
                cls = _speculator_of(module, node.name, history, tag)
                method = _speculator_of(module, node.name, history, tag, attr="base_method")
                if cls:
                    out.setdefault(cls, method_family(method) if method else "")
    return out


def _speculator_of(module: str, config: str, history: dict[str, FileHistory], tag: str,
                   depth: int = 0, attr: str = "speculator_class") -> str:
    """``attr`` of ``config`` in ``module`` (the v2 package's), through its bases: the
    speculator's class name, or the ``base_method`` string."""
    entry = history.get(_V2_FOLDER + module.replace(".", "/") + ".py")
    tree = parse(entry.texts.get(tag, "")) if entry is not None else None
    for node in ast.walk(tree) if tree is not None and depth < 5 else ():
        if not isinstance(node, ast.ClassDef) or node.name != config:
            continue
        for stmt in node.body:
            if (isinstance(stmt, ast.Assign | ast.AnnAssign)
                    and attr in ast.unparse(stmt).split("=", 1)[0]):
                found = [c.value for c in ast.walk(stmt)
                         if isinstance(c, ast.Constant) and isinstance(c.value, str)]
                value = "".join(found)
                return value.rsplit(".", 1)[-1] if attr != "base_method" else value
        for base in node.bases:  # a base in the same module, or one it imports
            name = ast.unparse(base)
            for where in (module, *_imported_from(tree, name)):
                if found := _speculator_of(where, name, history, tag, depth + 1, attr):
                    return found
    return ""


def _imported_from(tree: ast.AST, name: str) -> list[str]:
    """``from vllm.v1.worker.gpu.spec_decode.eagle.config import X`` -> ["eagle.config"]."""
    return [node.module.removeprefix(_V2_PACKAGE) for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module
            and node.module.startswith(_V2_PACKAGE) and any(a.name == name for a in node.names)]
