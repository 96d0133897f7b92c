"""Read the launch options a server release defines, from its source tree, with ``ast`` only.

Used by tools/gen_option_tables.py. Three shapes of definition are read:

* ``parser.add_argument("--name", "--alias", action=..., nargs=..., type=...)`` calls (SGLang
  before 0.5.14, vLLM before 0.8, the explicit calls of every release);
* fields of config dataclasses that a helper turns into arguments: SGLang's
  ``name: A[T, Arg(aliases=[...])]`` (``add_cli_args_from_dataclass``, 0.5.14 on) and vLLM's
  ``add_argument("--name", **model_kwargs["name"])`` with ``model_kwargs = get_kwargs(ModelConfig)``
  (the field's annotation decides action, nargs and type as ``_compute_kwargs`` does);
* TensorRT-LLM's ``@click.option("--name", "--alias", is_flag=True, multiple=True)`` on the
  ``serve`` command.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

FLAGS = ("store_true", "store_false", "boolean_optional", "count")
_SCALARS = {"int": "int", "float": "float", "str": "str", "bool": "bool"}


@dataclass(frozen=True, slots=True)
class Option:
    names: tuple[str, ...]
    dest: str
    action: str = "store"  # store | store_true | store_false | boolean_optional | append | count
    nargs: str = ""  # "" one value, "?", "*", "+", or a count
    type: str = "str"  # str | int | float | json
    choices: tuple[str, ...] = ()


class Tree:
    """Every module-level assignment and class of the files read, by name (one namespace: the
    few names two modules share are type aliases spelled alike)."""

    def __init__(self, files: list[Path]) -> None:
        self.modules: dict[Path, ast.Module] = {}
        self.names: dict[str, ast.expr] = {}
        self.classes: dict[str, ast.ClassDef] = {}
        for path in files:
            module = ast.parse(path.read_text(encoding="utf-8"), str(path))
            self.modules[path] = module
            for node in ast.walk(module):
                if isinstance(node, ast.ClassDef):
                    self.classes.setdefault(node.name, node)
            for node in module.body:
                if isinstance(node, ast.Assign) and len(node.targets) == 1:
                    if isinstance(node.targets[0], ast.Name):
                        self.names.setdefault(node.targets[0].id, node.value)
                elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                    if node.value is not None:
                        self.names.setdefault(node.target.id, node.value)
                elif type(node).__name__ == "TypeAlias":  # ``type X = ...`` (3.12 syntax)
                    self.names.setdefault(node.name.id, node.value)  # type: ignore[attr-defined]

    def literal(self, node: ast.expr | None, depth: int = 0) -> object:
        """A constant, list or tuple of constants (through module names), else None."""
        if node is None or depth > 4:
            return None
        if isinstance(node, ast.Name) and node.id in self.names:
            return self.literal(self.names[node.id], depth + 1)
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            items = [self.literal(elt, depth + 1) for elt in node.elts]
            return None if any(i is None for i in items) else items
        if isinstance(node, ast.Call) and name_of(node.func) in ("list", "tuple", "set", "sorted"):
            return self.literal(node.args[0], depth + 1) if node.args else None
        try:
            return ast.literal_eval(node)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return None

    def is_dataclass(self, name: str) -> bool:
        cls = self.classes.get(name)
        if cls is None:
            return False
        marks = {name_of(d.func if isinstance(d, ast.Call) else d) for d in cls.decorator_list}
        bases = {name_of(b) for b in cls.bases}
        return bool(marks & {"dataclass", "config"} or bases & {"BaseModel", "StrictBaseModel"})

    def fields(self, name: str) -> dict[str, ast.expr]:
        """Annotated fields of a class and of the classes it inherits that the tree has."""
        cls = self.classes.get(name)
        if cls is None:
            return {}
        out: dict[str, ast.expr] = {}
        for base in cls.bases:
            if (base_name := name_of(base)) != name:
                out.update(self.fields(base_name))
        for node in cls.body:
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                out[node.target.id] = node.annotation
        return out

    def leaves(self, node: ast.expr, depth: int = 0) -> list[ast.expr]:
        """The types a hint allows: Optional/Union/``|``/Annotated/aliases unwrapped, None dropped."""
        if depth > 8:
            return []
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):  # a forward reference
                try:
                    return self.leaves(ast.parse(node.value, mode="eval").body, depth + 1)
                except SyntaxError:
                    return []
            return []
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return self.leaves(node.left, depth + 1) + self.leaves(node.right, depth + 1)
        if isinstance(node, ast.Subscript):
            head = name_of(node.value)
            elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            if head in ("Optional", "Union"):
                return [leaf for elt in elts for leaf in self.leaves(elt, depth + 1)]
            if head in ("Annotated", "A"):
                return self.leaves(elts[0], depth + 1)
            return [node]
        if isinstance(node, ast.Name) and node.id not in _SCALARS and node.id in self.names:
            alias = self.names[node.id]
            if isinstance(alias, (ast.Subscript, ast.BinOp, ast.Name, ast.Constant)):
                return self.leaves(alias, depth + 1)
        return [node]


def name_of(node: ast.expr | None) -> str:
    """``argparse.BooleanOptionalAction`` -> "BooleanOptionalAction"; ``int`` -> "int"."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Call):
        return name_of(node.func)
    return ""


def _type_of(node: ast.expr | None) -> str:
    """A ``type=`` callable as the kind of value it reads."""
    name = name_of(node).lower()
    if node is None:
        return "str"
    if "json" in name or name in ("loads", "dict_from_str"):
        return "json"
    if name in ("int", "human_readable_int") or name.endswith("_int") or "int_" in name:
        return "int"
    if name == "float" or "float" in name:
        return "float"
    return "str"


def _action(tree: Tree, node: ast.expr | None) -> str:
    """An ``action=`` as what it does to the token stream (custom classes by their nargs)."""
    if node is None:
        return "store"
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {"store_const": "store_true"}.get(node.value, node.value)
    name = name_of(node)
    if name == "BooleanOptionalAction":
        return "boolean_optional"
    cls = tree.classes.get(name)
    if "StoreTrue" in name or "StoreConst" in name or (cls is not None and _zero_args(cls)):
        return "store_true"
    if "StoreFalse" in name:
        return "store_false"
    return "store"


def _zero_args(cls: ast.ClassDef) -> bool:
    """A custom action whose ``__init__`` defaults or forces ``nargs=0`` takes no value."""
    for node in ast.walk(cls):
        if isinstance(node, ast.keyword) and node.arg == "nargs":
            return isinstance(node.value, ast.Constant) and node.value.value == 0
        if isinstance(node, ast.arguments):
            names = [a.arg for a in node.args][-len(node.defaults) :] if node.defaults else []
            for arg, default in zip(names, node.defaults, strict=False):
                if arg == "nargs" and isinstance(default, ast.Constant):
                    return default.value == 0
    return any(name_of(base) in ("_StoreTrueAction", "_StoreConstAction") for base in cls.bases)


def _nargs(node: ast.expr | None) -> str:
    if isinstance(node, ast.Constant) and node.value is not None:
        return str(node.value)
    return "?" if name_of(node) == "OPTIONAL" else ("*" if name_of(node) == "ZERO_OR_MORE" else "")


def _choices(tree: Tree, node: ast.expr | None) -> tuple[str, ...]:
    value = tree.literal(node)
    if isinstance(value, (list, tuple, set)):
        return tuple(str(v) for v in value)
    return ()


def _dest(names: tuple[str, ...]) -> str:
    """argparse's dest: the first long name (else the first), dashes as underscores."""
    long = next((n for n in names if n.startswith("--")), names[0])
    return long.lstrip("-").replace("-", "_")


def from_keywords(tree: Tree, names: tuple[str, ...], kw: dict[str, ast.expr]) -> Option:
    """One ``add_argument`` call's keywords as an option."""
    dest = kw.get("dest")
    action = _action(tree, kw.get("action"))
    return Option(
        names=names,
        dest=dest.value if isinstance(dest, ast.Constant) else _dest(names),
        action=action,
        nargs=_nargs(kw.get("nargs")),
        type="bool" if action in FLAGS else _type_of(kw.get("type")),
        choices=_choices(tree, kw.get("choices")),
    )


def from_hint(tree: Tree, names: tuple[str, ...], dest: str, hint: ast.expr) -> Option:
    """vLLM ``_compute_kwargs``: dataclass -> JSON, bool -> --x/--no-x, Literal -> choices,
    tuple/list -> nargs "+" of their element, int, float, dict -> JSON, else a string."""
    leaves = tree.leaves(hint)
    heads = [
        name_of(leaf.value) if isinstance(leaf, ast.Subscript) else name_of(leaf) for leaf in leaves
    ]
    if any(tree.is_dataclass(head) for head in heads):
        return Option(names, dest, type="json")
    if "bool" in heads:
        return Option(names, dest, action="boolean_optional", type="bool")
    for leaf, head in zip(leaves, heads, strict=True):
        if head == "Literal" and isinstance(leaf, ast.Subscript):
            values = tree.literal(leaf.slice)
            values = values if isinstance(values, list) else [values]
            kind = "int" if values and isinstance(values[0], int) else "str"
            return Option(names, dest, type=kind, choices=tuple(str(v) for v in values))
    for leaf, head in zip(leaves, heads, strict=True):
        if head in ("tuple", "Tuple", "list", "List", "Sequence") and isinstance(
            leaf, ast.Subscript
        ):
            elts = leaf.slice.elts if isinstance(leaf.slice, ast.Tuple) else [leaf.slice]
            ellipsis = any(isinstance(e, ast.Constant) and e.value is Ellipsis for e in elts)
            count = "+" if head not in ("tuple", "Tuple") or ellipsis else str(len(elts))
            return Option(names, dest, nargs=count, type=_scalar(tree, elts[0]))
    for kind in ("int", "float"):
        if kind in heads:
            return Option(names, dest, type=kind)
    if any(head in ("dict", "Dict") for head in heads):
        return Option(names, dest, type="json")
    return Option(names, dest)


def _scalar(tree: Tree, node: ast.expr) -> str:
    heads = [name_of(leaf) for leaf in tree.leaves(node)]
    return next((_SCALARS[h] for h in heads if h in ("int", "float")), "str")


def calls(tree: Tree, path: Path, method: str) -> list[ast.Call]:
    """Every ``<x>.<method>(...)`` call in a file, in source order."""
    found = [
        node
        for node in ast.walk(tree.modules[path])
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        and node.func.attr == method
    ]  # fmt: skip
    return sorted(found, key=lambda c: (c.lineno, c.col_offset))


def string_args(call: ast.Call) -> tuple[str, ...]:
    return tuple(
        a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
    )


def keywords(call: ast.Call) -> dict[str, ast.expr]:
    return {k.arg: k.value for k in call.keywords if k.arg is not None}


def dedupe(options: list[Option]) -> list[Option]:
    """One option per first name; the last definition wins, as in argparse's resolve handler."""
    by_name: dict[str, Option] = {}
    for option in options:
        by_name[option.names[0]] = option
    return list(by_name.values())
