"""Check rules/paths/sglang_eras.toml against SGLang's own source, one release at a time.

Offline: reads unpacked release trees (the ``sglang/`` folder of each PyPI wheel), nothing
imported or run. Fetch them once, e.g.::

    pip download --no-deps --only-binary :all: -d /tmp/whl sglang==0.5.8
    unzip -q /tmp/whl/sglang-0.5.8-*.whl 'sglang/srt/*' -d /tmp/sg/0.5.8

then ``python tools/check_sglang_eras.py /tmp/sg`` (one sub-folder per release, named after it).

Per release it *simulates* ``ServerArgs.__post_init__`` with ``ast``, stepping into the
``_handle_*`` / ``handle_*`` helpers it calls in order (the pipeline-parallel and speculative
handlers, from 0.5.13 ``arg_groups/speculative_hook.py``) and ``check_server_args``: every ``if`` whose test reads the
algorithm, ``SGLANG_ENABLE_SPEC_V2`` / ``enable_beta_spec``, ``speculative_eagle_topk``,
``pp_size`` or ``disable_overlap_schedule`` is evaluated, every other field at its literal
default (a launch that sets only these); a test on anything else takes neither branch; assignments to
``disable_overlap_schedule`` and ``speculative_algorithm`` are applied; a ``raise`` refuses the
launch. Skipped tests that mention speculation are printed (``skipped``), so the reader sees
what the simulation did not know. The worker follows the overlap setting
(the V2 class when the overlap scheduler is on and the family has one, as ``create_worker`` /
``launch_draft_worker`` select it; the family's only class otherwise). The derived row fields
are diffed against the table's row for that release; the exit status is 1 on a difference.
"""

from __future__ import annotations

import ast
import itertools
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ALGOS = ("EAGLE", "EAGLE3", "STANDALONE")
_FAMILY_FILE = {"EAGLE": "eagle", "EAGLE3": "eagle", "STANDALONE": "standalone"}
FIXED = {"DFLASH": "dflash", "FROZEN_KV_MTP": "frozen_kv_mtp", "DSPARK": "dspark", "UNO": "uno"}
_HANDLERS = ("_handle_speculative_decoding", "_handle_eagle_family")
_FOLLOWED = ("_handle", "handle_", "check_server_args")  # calls the simulation steps into
_SHOWN = ("speculative", "overlap", "SPEC_V2", "beta", "topk", "pp_size")  # assumptions printed
_ENV = "SGLANG_ENABLE_SPEC_V2"
UNKNOWN = object()


class Refused(Exception):
    """The handler raised: the server refuses this combination."""


@dataclass
class Run:
    """One combination of inputs and what the handler makes of it."""

    algo: str
    switch: bool | None  # the env var / enable_beta_spec as set; None = not set
    request: bool  # --disable-overlap-schedule
    topk: int
    pp: int
    default: bool
    fields: dict[str, object]  # every other ServerArgs field at its default
    assumed: set[str] = field(default_factory=set)

    def attr(self, name: str) -> object:
        values = {"speculative_algorithm": self.algo, "disable_overlap_schedule": self.request,
                  "speculative_eagle_topk": self.topk, "pp_size": self.pp,
                  "enable_beta_spec": bool(self.switch), "speculative_num_steps": 3,
                  "speculative_num_draft_tokens": 4}  # fmt: skip
        return values[name] if name in values else self.fields.get(name, UNKNOWN)


class Sim:
    """Evaluates one handler (and the ``_handle_*`` helpers it calls) for one Run."""

    def __init__(self, funcs: dict[str, ast.FunctionDef], run: Run) -> None:
        self.funcs, self.run = funcs, run
        self.stack: list[str] = []

    def body(self, stmts: list[ast.stmt]) -> bool:
        """False when a ``return`` ended the function."""
        for stmt in stmts:
            if isinstance(stmt, ast.If):
                test = self.truth(stmt.test)
                if test is not None and not self.body(stmt.body if test else stmt.orelse):
                    return False
            elif isinstance(stmt, ast.Raise):
                raise Refused(ast.unparse(stmt)[:80])
            elif isinstance(stmt, ast.Return):
                return False
            elif isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Attribute):
                self.assign(stmt.targets[0].attr, stmt.value)
            elif isinstance(stmt, ast.Assert) and self.value(stmt.test) is False:
                raise Refused(ast.unparse(stmt.test)[:80])
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                name = ast.unparse(stmt.value.func).split(".")[-1]
                if name in self.funcs and name.startswith(_FOLLOWED) and name not in self.stack:
                    self.stack.append(name)  # never re-entered: a module helper may share a name
                    self.body(self.funcs[name].body)
                    self.stack.pop()
            elif isinstance(stmt, (ast.Try, ast.With)):
                if not self.body(stmt.body):
                    return False
        return True

    def assign(self, name: str, value: ast.expr) -> None:
        if name == "disable_overlap_schedule":
            got = self.value(value)
            self.run.request = bool(got) if got is not UNKNOWN else self.run.request
        elif name == "speculative_algorithm" and isinstance(value, ast.Constant):
            self.run.algo = str(value.value)

    def truth(self, node: ast.expr) -> bool | None:
        """The test's value; None (neither branch taken) when it reads what the run does not
        fix (a model architecture, a backend): those branches are special cases."""
        got = self.value(node)
        if got is UNKNOWN:
            text = ast.unparse(node)
            if any(word in text for word in _SHOWN):
                self.run.assumed.add(text[:90])
            return None
        return bool(got)

    def value(self, node: ast.expr) -> object:  # noqa: C901 - one case per node kind
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            items = [self.value(e) for e in node.elts]
            return UNKNOWN if UNKNOWN in items else items
        if isinstance(node, ast.Attribute) and ast.unparse(node.value) in ("self", "server_args"):
            return self.run.attr(node.attr)
        text = ast.unparse(node)
        if _ENV in text and isinstance(node, (ast.Call, ast.Compare)):
            return self.env(node)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            inner = self.value(node.operand)
            return UNKNOWN if inner is UNKNOWN else not inner
        if isinstance(node, ast.BoolOp):
            return self.boolop(node)
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left, right = self.value(node.left), self.value(node.comparators[0])
            if UNKNOWN in (left, right):
                return UNKNOWN
            return _compare(node.ops[0], left, right)
        return UNKNOWN

    def env(self, node: ast.expr) -> object:
        """``envs.SGLANG_ENABLE_SPEC_V2.get()``, ``get_bool_env_var(...)``, ``os.getenv(...)
        is not None`` (0.5.17 refuses the removed variable when it is set at all)."""
        if isinstance(node, ast.Compare):
            is_set = self.run.switch is not None
            return is_set if isinstance(node.ops[0], ast.IsNot) else not is_set
        return self.run.default if self.run.switch is None else self.run.switch

    def boolop(self, node: ast.BoolOp) -> object:
        values = [self.value(v) for v in node.values]
        if isinstance(node.op, ast.And):
            if any(v is not UNKNOWN and not v for v in values):
                return False
            return UNKNOWN if UNKNOWN in values else True
        if any(v is not UNKNOWN and v for v in values):
            return True
        return UNKNOWN if UNKNOWN in values else False


def _compare(op: ast.cmpop, left: object, right: object) -> object:
    try:
        return {ast.Eq: lambda: left == right, ast.NotEq: lambda: left != right,
                ast.In: lambda: left in right, ast.NotIn: lambda: left not in right,  # type: ignore[operator]
                ast.Gt: lambda: left > right, ast.Lt: lambda: left < right,  # type: ignore[operator]
                ast.GtE: lambda: left >= right, ast.LtE: lambda: left <= right,  # type: ignore[operator]
                ast.Is: lambda: left is right, ast.IsNot: lambda: left is not right}[type(op)]()  # fmt: skip
    except (KeyError, TypeError):
        return UNKNOWN


@dataclass(frozen=True)
class Release:
    version: tuple[int, int, int]
    root: Path  # .../<version>/sglang/srt

    def functions(self) -> dict[str, ast.FunctionDef]:
        files = [self.root / "server_args.py", *sorted((self.root / "arg_groups").glob("*.py"))]
        funcs: dict[str, ast.FunctionDef] = {}
        for path in files:
            if path.is_file():
                for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                    if isinstance(node, ast.ClassDef) and node.name == "ServerArgs":
                        funcs.update((f"ServerArgs.{f.name}", f) for f in node.body
                                     if isinstance(f, ast.FunctionDef))  # fmt: skip
                    if isinstance(node, ast.FunctionDef):
                        funcs.setdefault(node.name, node)
        return funcs

    def defaults(self) -> dict[str, object]:
        """ServerArgs fields with a literal default: the simulated launch sets nothing else."""
        module = ast.parse((self.root / "server_args.py").read_text("utf-8"))
        cls = next(
            n for n in ast.walk(module) if isinstance(n, ast.ClassDef) and n.name == "ServerArgs"
        )
        found: dict[str, object] = {}
        for node in cls.body:
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
                try:
                    found[node.target.id] = ast.literal_eval(node.value)
                except ValueError:
                    continue
        return found

    def text(self, *names: str) -> str:
        return "".join(f.read_text("utf-8") for n in names for f in [self.root / n] if f.is_file())

    def switch(self) -> tuple[str, bool]:
        handler = "".join(ast.unparse(f) for n, f in self.functions().items()
                          if n in _HANDLERS or n == "ServerArgs.__post_init__")  # fmt: skip
        env_line = next((line for line in self.text("environ.py").splitlines()
                         if line.strip().startswith(_ENV + " =")), "")  # fmt: skip
        if "enable_beta_spec" in handler:
            return "enable_beta_spec", False
        if _ENV in handler and env_line:
            return _ENV, "True" in env_line
        return "", False

    def worker_class(self, stem: str, v2: bool) -> str | None:
        """The worker class ``speculative/**/<stem>_worker[_v2].py`` defines, if the file exists."""
        name = f"{stem}_worker{'_v2' if v2 else ''}.py"
        for path in sorted((self.root / "speculative").rglob(name)):
            found = re.findall(r"^class (\w+Worker(?:V2)?)\b", path.read_text("utf-8"), re.M)
            return found[-1] if found else None
        return None

    def worker_files(self, family: str) -> tuple[bool, bool]:
        spec = self.root / "speculative"
        return (spec / f"{family}_worker.py").is_file(), (spec / f"{family}_worker_v2.py").is_file()


def simulate(release: Release) -> dict[str, object] | None:
    """The row fields the release's source implies, or None when it has no EAGLE handler."""
    funcs = release.functions()
    handler = funcs.get("ServerArgs.__post_init__")
    if handler is None or not (release.root / "speculative" / "eagle_worker.py").exists() and \
            not (release.root / "speculative" / "eagle_worker_v2.py").exists():  # fmt: skip
        return None
    switch, default = release.switch()
    v1, v2 = release.worker_files("eagle")
    fields = release.defaults()
    spec_info = release.text("speculative/spec_info.py")
    algos = tuple(a for a in ALGOS if re.search(rf"\b{a}\b", spec_info))  # the release's own
    outcome: dict[tuple[str, object, bool, int, int], object] = {}
    assumed: set[str] = set()
    for algo, sw, req, topk, pp in itertools.product(algos, (None, True, False), (False, True),
                                                     (1, 2), (1, 2)):  # fmt: skip
        run = Run(algo, sw, req, topk, pp, default, fields)
        try:
            sim = Sim(funcs, run)
            sim.body(handler.body)
            if "ServerArgs.check_server_args" in funcs:  # the launch validates after __post_init__
                sim.body(funcs["ServerArgs.check_server_args"].body)
            outcome[(algo, sw, req, topk, pp)] = not run.request  # overlap on
        except Refused:
            outcome[(algo, sw, req, topk, pp)] = "refused"
        assumed |= run.assumed
    has_v2 = {a: release.worker_files(_FAMILY_FILE[a])[1] for a in algos}
    on = True if switch else None

    def overlap(algo: str, sw: object = on, req: bool = False, topk: int = 1) -> object:
        return outcome[(algo, sw, req, topk, 1)]

    v2_algos = sorted(a for a in algos if has_v2[a] and any(
        outcome[k] is True for k in outcome if k[0] == a))  # fmt: skip
    outside = [a for a in algos if a not in v2_algos]
    return {
        "workers": "both" if v1 and v2 else "v2" if v2 else "v1",
        "switch": switch,
        "switch_default": default,
        "v2_algorithms": v2_algos,
        "forced_on": sorted(a for a in v2_algos if overlap(a, req=True) is True),
        "others_forced_off": all(outcome[k] is not True for k in outcome if k[0] in outside)
        if outside
        else None,  # None: every algorithm tried has a V2 worker, nothing to say
        "topk_forces_v1": any(overlap(a) is True and overlap(a, topk=2) is False for a in v2_algos),
        "pp_gt_1": sorted({str(outcome[(a, on, False, 1, 2)]) for a in algos}),
        "algorithms": list(algos),
        "assumed": sorted(assumed),
    }


def fixed_workers(release: Release) -> dict[str, str]:
    """algorithm -> "Class (path)" for the algorithms whose worker does not follow the switch:
    the only class the release has, or with both, the one its default launch selects."""
    funcs = release.functions()
    spec_info = release.text("speculative/spec_info.py")
    fields = release.defaults()
    out: dict[str, str] = {}
    for algo, stem in FIXED.items():
        if not re.search(rf"\b{algo}\b", spec_info):
            continue
        v1, v2 = release.worker_class(stem, False), release.worker_class(stem, True)
        if v1 and v2:
            run = Run(algo, None, False, 1, 1, False, fields)
            try:
                Sim(funcs, run).body(funcs["ServerArgs.__post_init__"].body)
            except Refused:
                out[algo] = "refused"
                continue
            on = (
                not run.request
                and "does not support" not in spec_info.split(f"is_{stem}()")[-1][:400]
            )
            out[algo] = f"{v2} (v2)" if on else f"{v1} (v1)"
        elif v1 or v2:
            out[algo] = f"{v2} (v2)" if v2 else f"{v1} (v1)"
    return out


def release(text: str, last: bool = False) -> tuple[int, ...]:
    """``0.5.3.post2`` -> (0, 5, 3, 2), ``0.5.3`` -> (0, 5, 3): posts sort between releases;
    a row's ``last`` of ``0.5.6`` covers 0.5.6.postN (``0.5.4.post0``: the plain one only)."""
    base, _, post = text.partition(".post")
    numbers = tuple(int(p) for p in base.split(".")[:3])
    if post:
        return (*numbers, int(post)) if int(post) else numbers
    return (*numbers, 10_000) if last else numbers


def fixed_row(rows: list[dict[str, object]], algo: str, version: tuple[int, ...]) -> str:
    for row in rows:
        first = release(str(row["first"]))
        last = release(str(row["last"]), last=True) if row["last"] else None
        if row["algorithm"] == algo and first <= version and (last is None or version <= last):
            return f"{row['worker']} ({row['path']})"
    return "no row"


def table_row(rows: list[dict[str, object]], version: tuple[int, ...]) -> dict[str, object]:
    for row in rows:
        first, last = release(str(row["first"])), row["last"]
        if first <= version and (not last or version <= release(str(last), last=True)):
            return row
    raise SystemExit(f"no table row covers {version}")


_COMPARED = ("workers", "switch", "switch_default", "v2_algorithms", "forced_on",
             "others_forced_off", "topk_forces_v1")  # fmt: skip
_MOOT = {
    "v1": {"switch", "switch_default", "forced_on", "topk_forces_v1"},
    "v2": {
        "switch",
        "switch_default",
        "v2_algorithms",
        "forced_on",
        "others_forced_off",
        "topk_forces_v1",
    },
}  # fields no verdict reads when only one worker exists


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: check_sglang_eras.py TREES_DIR [TABLE]", file=sys.stderr)
        return 2
    trees = Path(argv[0])
    table = Path(
        argv[1] if len(argv) > 1 else Path(__file__).parents[1] / "rules/paths/sglang_eras.toml"
    )
    data = tomllib.loads(table.read_text("utf-8"))
    rows, fixed = data["era"], data.get("fixed", [])
    bad = 0
    releases = sorted((release(d.name), d) for d in trees.iterdir()
                      if d.name[:1].isdigit() and (d / "sglang/srt").is_dir())  # fmt: skip
    for version, folder in releases:
        name = folder.name
        found = simulate(Release(version, folder / "sglang" / "srt"))  # type: ignore[arg-type]
        if found is None:
            print(f"{name}: no EAGLE speculative worker or handler")
            continue
        row = table_row(rows, version)  # type: ignore[arg-type]
        moot = _MOOT.get(str(found["workers"]), set())
        diffs = [f"{k}: source {found[k]!r}, table {row[k]!r}" for k in _COMPARED
                 if k not in moot and found[k] is not None and found[k] != row[k]]  # fmt: skip
        shown = ", ".join(f"{k}={found[k]!r}" for k in (*_COMPARED, "pp_gt_1", "algorithms"))
        print(f"{name} [{row['era']}]: {shown}")
        for text in found["assumed"]:  # type: ignore[attr-defined]
            print(f"    skipped: {text}")
        for algo, worker in fixed_workers(Release(version, folder / "sglang" / "srt")).items():  # type: ignore[arg-type]
            print(f"    {algo}: {worker}")
            if worker != fixed_row(fixed, algo, version):  # type: ignore[arg-type]
                diffs.append(f"{algo}: source {worker}, table {fixed_row(fixed, algo, version)}")  # type: ignore[arg-type]
        for diff in diffs:
            print(f"    DIFF {diff}")
        bad += bool(diffs)
    print(f"{len(releases)} releases read, {bad} differ from {table.name}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
