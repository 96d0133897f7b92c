"""Where each framework defines its launch options, and how its helpers turn them into arguments.

Used by tools/gen_option_tables.py; the ``ast`` readers are in gen_option_sources.py.
"""

from __future__ import annotations

import ast
from pathlib import Path

from gen_option_sources import (
    Option,
    Tree,
    calls,
    dedupe,
    from_hint,
    from_keywords,
    keywords,
    name_of,
    string_args,
)


def _py(root: Path, *globs: str) -> list[Path]:
    return sorted({p for g in globs for p in root.glob(g) if p.is_file()})


# --------------------------------------------------------------------------- SGLang


def sglang_options(root: Path) -> list[Option]:
    """``add_argument`` calls of server_args.py, then (0.5.14 on) the ``A[T, Arg(...)]`` fields
    that ``add_cli_args_from_dataclass`` registers."""
    server_args = root / "sglang/srt/server_args.py"
    field_files = [server_args, *_py(root, "sglang/srt/arg_groups/fields/**/*.py")]
    tree = Tree([*field_files, *_py(root, "sglang/srt/arg_groups/*.py")])
    options = [_sglang_field(tree, name, hint) for name, hint in _annotated(tree, field_files)]
    for call in calls(tree, server_args, "add_argument"):
        names = string_args(call)
        if names and names[0].startswith("-"):
            options.append(from_keywords(tree, names, keywords(call)))
    renames = _renames(tree.modules[server_args])
    return dedupe([_renamed(o, renames) for o in options if o is not None])


def _renames(module: ast.Module) -> dict[str, str]:
    """``from_cli_args``'s ``args.tp_size = args.tensor_parallel_size``: the field a dest fills."""
    out = {}
    for func in ast.walk(module):
        if isinstance(func, ast.FunctionDef) and func.name == "from_cli_args":
            for node in ast.walk(func):
                if (
                    isinstance(node, ast.Assign)
                    and isinstance(target := node.targets[0], ast.Attribute)
                    and isinstance(node.value, ast.Attribute)
                    and name_of(target.value) == name_of(node.value.value) == "args"
                ):
                    out[node.value.attr] = target.attr
    return out


def _renamed(option: Option, renames: dict[str, str]) -> Option:
    if option.dest not in renames:
        return option
    return Option(option.names, renames[option.dest], option.action, option.nargs, option.type,
                  option.choices)  # fmt: skip


def _annotated(tree: Tree, files: list[Path]) -> list[tuple[str, ast.Subscript]]:
    """Class-body fields annotated ``A[T, meta]`` / ``Annotated[T, meta]``."""
    found = []
    for path in files:
        for node in ast.walk(tree.modules[path]):
            if not isinstance(node, ast.ClassDef):
                continue
            for item in node.body:
                hint = item.annotation if isinstance(item, ast.AnnAssign) else None
                if (
                    isinstance(hint, ast.Subscript)
                    and isinstance(hint.value, ast.Name)
                    and hint.value.id in ("A", "Annotated")
                    and isinstance(hint.slice, ast.Tuple)
                    and isinstance(item.target, ast.Name)
                ):
                    found.append((item.target.id, hint))
    return found


def _sglang_field(tree: Tree, field: str, hint: ast.Subscript) -> Option | None:
    """``add_cli_args_from_dataclass``: an explicit action, Literal -> choices, list -> nargs "+",
    bool -> store_true, else a scalar with the Arg's nargs."""
    assert isinstance(hint.slice, ast.Tuple)
    inner, *metas = hint.slice.elts
    meta = next((m for m in metas if isinstance(m, ast.Call) and m.func and _is_arg(m)), None)
    if meta is None and not any(
        isinstance(m, ast.Constant) and isinstance(m.value, str) for m in metas
    ):
        return None  # no Arg: registered by hand, if at all
    kw = keywords(meta) if meta is not None else {}
    if tree.literal(kw.get("no_cli")) is True:
        return None
    cli = tree.literal(kw.get("cli_name"))
    aliases = tree.literal(kw.get("aliases")) or []
    names = (cli if isinstance(cli, str) else "--" + field.replace("_", "-"), *map(str, aliases))
    if "action" in kw:
        return from_keywords(tree, names, kw | {"dest": ast.Constant(field)})
    option = from_hint(tree, names, field, inner)
    nargs = tree.literal(kw.get("nargs"))
    if option.action == "boolean_optional":  # SGLang registers a bool as store_true
        return Option(names, field, "store_true", type="bool")
    if "type_parser" in kw:  # the parser reads the whole value (json_list_type, ...)
        kind = from_keywords(tree, names, {"type": kw["type_parser"]}).type
        return Option(names, field, nargs=str(nargs or ""), type=kind, choices=option.choices)
    if nargs and not option.nargs:
        return Option(names, field, nargs=str(nargs), type=option.type, choices=option.choices)
    return option


def _is_arg(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Name) and call.func.id == "Arg"


# --------------------------------------------------------------------------- vLLM


def vllm_options(root: Path) -> list[Option]:
    """EngineArgs.add_cli_args (arg_utils.py), the OpenAI server's parser and ``vllm serve``'s
    own options; ``**kwargs["field"]`` from ``get_kwargs(Config)`` read off the field's type."""
    engine = root / "vllm/engine/arg_utils.py"
    entry = _py(root, "vllm/entrypoints/**/*.py")
    config = _py(root, "vllm/config.py", "vllm/config/**/*.py")
    tree = Tree([engine, *entry, *config])
    sources = [engine, *[p for p in entry if _serves(tree, p)]]
    options: list[Option] = []
    for path in sources:
        for owner, func in _functions(tree.modules[path]):
            options += _vllm_function(tree, func, owner)
    return dedupe(options)


def _functions(module: ast.Module) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function with the class it is defined in ("" at module level)."""
    out = []
    for node in module.body:
        members = node.body if isinstance(node, ast.ClassDef) else [node]
        owner = node.name if isinstance(node, ast.ClassDef) else ""
        for item in members:
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                out.append((owner, item))
    return out


def _serves(tree: Tree, path: Path) -> bool:
    """The files that build ``vllm serve``'s parser (not bench, chat or run-batch)."""
    if path.name == "serve.py" and path.parent.name == "cli":
        return True
    if "run_batch" in path.name or "bench" in str(path):
        return False
    module = tree.modules[path]
    wanted = {"make_arg_parser", "FrontendArgs", "BaseFrontendArgs"}
    return any(
        isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name in wanted for n in module.body
    )


def _vllm_function(
    tree: Tree, func: ast.FunctionDef | ast.AsyncFunctionDef, owner: str
) -> list[Option]:
    sources = {
        var: (owner if cls == "cls" else cls, field)  # get_kwargs(cls) in a classmethod
        for var, (cls, field) in _kwargs_sources(func).items()
    }
    options = []
    for node in func.body:
        for call in (n for n in ast.walk(node) if isinstance(n, ast.Call)):
            if isinstance(call.func, ast.Attribute) and call.func.attr == "add_argument":
                if (option := _vllm_call(tree, call, sources)) is not None:
                    options.append(option)
        if isinstance(node, ast.For):  # for name, kw in frontend_kwargs.items(): add_argument(...)
            options += _vllm_loop(tree, node, sources)
    return options


def _kwargs_sources(func: ast.AST) -> dict[str, tuple[str, str | None]]:
    """``x = get_kwargs(Cls)`` -> {x: (Cls, None)}; ``x = get_kwargs(Cls)["f"]`` -> (Cls, "f")."""
    out: dict[str, tuple[str, str | None]] = {}
    for node in ast.walk(func):
        if not (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)):
            continue
        value, field = node.value, None
        if isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Constant):
            value, field = value.value, value.slice.value
        if isinstance(value, ast.Call) and _callee(value) == "get_kwargs" and value.args:
            cls = value.args[0]
            if isinstance(cls, ast.Name):
                out[node.targets[0].id] = (cls.id, field)
    return out


def _callee(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _vllm_call(tree: Tree, call: ast.Call, sources: dict) -> Option | None:
    names = string_args(call)
    if not names or not names[0].startswith("-"):
        return None
    explicit = keywords(call)
    for star in (k.value for k in call.keywords if k.arg is None):
        cls, field = _star_source(star, sources)
        hint = tree.fields(cls).get(field) if cls and field else None
        if hint is not None:
            option = from_hint(tree, names, from_keywords(tree, names, explicit).dest, hint)
            return _override(tree, option, explicit)
    return from_keywords(tree, names, explicit)


def _star_source(star: ast.expr, sources: dict) -> tuple[str | None, str | None]:
    """``**kw["f"]`` (kw from get_kwargs), ``**get_kwargs(Cls)["f"]``, or ``**kw_of_f``."""
    if isinstance(star, ast.Subscript):
        key = star.slice.value if isinstance(star.slice, ast.Constant) else None
        owner = star.value
        if isinstance(owner, ast.Name):
            return sources.get(owner.id, (None, None))[0], key
        if isinstance(owner, ast.Call) and _callee(owner) == "get_kwargs" and owner.args:
            return getattr(owner.args[0], "id", None), key
        return None, None
    if isinstance(star, ast.Name) and star.id in sources:
        return sources[star.id]
    return None, None


def _override(tree: Tree, option: Option, explicit: dict[str, ast.expr]) -> Option:
    """Keywords written beside ``**kwargs`` win over what the field's type gave."""
    if not explicit.keys() & {"action", "nargs", "type", "choices"}:
        return option
    given = from_keywords(tree, option.names, explicit)
    return Option(
        option.names,
        option.dest,
        given.action if "action" in explicit else option.action,
        given.nargs if "nargs" in explicit else option.nargs,
        given.type if "type" in explicit else option.type,
        given.choices if "choices" in explicit else option.choices,
    )


def _vllm_loop(tree: Tree, loop: ast.For, sources: dict) -> list[Option]:
    """Every field of the dataclass whose ``get_kwargs`` dict the loop registers."""
    it = loop.iter
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute)):
        return []
    owner = it.func.value
    if not (isinstance(owner, ast.Name) and owner.id in sources):
        return []
    cls, _ = sources[owner.id]
    fields = dict(tree.fields(cls))
    for sub in (c for c in tree.classes.values() if cls in {getattr(b, "id", "") for b in c.bases}):
        fields.update(tree.fields(sub.name))  # BaseFrontendArgs.add_cli_args for FrontendArgs
    out = []
    for field, hint in fields.items():
        names = ("--" + field.replace("_", "-"),)
        out.append(from_hint(tree, names, field, hint))
    return out


# --------------------------------------------------------------------------- TensorRT-LLM


def trtllm_options(root: Path) -> list[Option]:
    """``@click.option`` decorators of the ``serve`` command in tensorrt_llm/commands/serve.py."""
    path = root / "tensorrt_llm/commands/serve.py"
    tree = Tree([path])
    serve = next(
        n for n in tree.modules[path].body if isinstance(n, ast.FunctionDef) and n.name == "serve"
    )
    options = []
    for deco in serve.decorator_list:
        if not (isinstance(deco, ast.Call) and _callee(deco) == "option"):
            continue
        strings = string_args(deco)
        names = tuple(s for s in strings if s.startswith("-"))
        kw = keywords(deco)
        dest = next((s for s in strings if not s.startswith("-")), None)
        if dest is not None:
            kw["dest"] = ast.Constant(dest)
        if tree.literal(kw.get("is_flag")) is True:
            kw["action"] = ast.Constant("store_true")
        elif tree.literal(kw.get("multiple")) is True:
            kw["action"] = ast.Constant("append")
        choice = kw.get("type")
        if isinstance(choice, ast.Call) and "Choice" in _callee(choice) and choice.args:
            kw["choices"], kw["type"] = choice.args[0], ast.Name("str")
        options.append(from_keywords(tree, names, kw))
    return dedupe(options)
