"""rules/*.toml (+ user dirs layered by rule id) -> RuleSet of frozen dataclasses, patterns compiled once."""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import regex

from spectrace.assemblers.crash import CrashKind
from spectrace.errors import RuleError
from spectrace.rulegate import gate_literals

USER_TIMEOUT_S = 0.05  # a user pattern that takes longer on one line is skipped for that line
# ``regex`` unrolls counted repeats when it compiles (about 300 bytes per item):
# (?:(?:a{1000}){1000}){1000} took 24 GB; 100,000 items stay under about 40 MB
MAX_PATTERN_SIZE = 100_000
SEVERITIES = ("fatal", "error", "warning")
SCOPES = ("line", "exception", "both")
_BENIGN_KEYS = {"id", "pattern", "note", "enabled"}
_CRASH_KEYS = {
    "id", "pattern", "kind", "exception_type", "class", "severity", "collateral", "hint",
    "hints", "scope", "levels", "dialects", "literals", "enabled", "note", "prose",
}  # fmt: skip


class RuleTimeout(Exception):
    """A user pattern ran past its time budget on one line."""


@dataclass(frozen=True, slots=True)
class RulePattern:
    """A compiled pattern; user patterns run on the ``regex`` module with a timeout."""

    text: str
    compiled: Any  # re.Pattern[str] | regex.Pattern[str]
    user: bool = False
    gate: tuple[str, ...] | None = None  # every match holds one of these (None: unknown)

    def search(self, text: str) -> Any:
        if not self.user:
            if self.gate is None:
                return self.compiled.search(text)
            for lit in self.gate:
                if lit in text:
                    return self.compiled.search(text)
            return None
        try:
            return self.compiled.search(text, timeout=USER_TIMEOUT_S)
        except TimeoutError as exc:
            raise RuleTimeout(self.text) from exc


@dataclass(frozen=True, slots=True)
class BenignRule:
    id: str
    pattern: RulePattern
    file: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class CrashRule:
    """A fatal-line signature and/or an exception classifier (``scope`` says which)."""

    id: str
    pattern: RulePattern
    file: str
    kind: CrashKind = CrashKind.FATAL_LINE
    exception_type: str | None = None  # for lines; a ``(?P<type>...)`` group wins
    crash_class: str | None = None
    severity: str = "error"
    collateral: bool = False
    hints: tuple[str, ...] = ()
    scope: str = "both"
    levels: tuple[str, ...] = ()  # "ERROR", "CRITICAL", "none" (no level printed); () = any
    dialects: tuple[str, ...] = ()
    literals: tuple[bytes, ...] = ()  # prefilter literals that every match contains
    # matches only an error a title or a sentence names (assemblers/mention.py), never a
    # printed line: an exception type mid-line in a log record is that record's own wording
    prose: bool = False


@dataclass(frozen=True, slots=True)
class RuleSet:
    benign: tuple[BenignRule, ...]
    crash: tuple[CrashRule, ...]

    @property
    def literals(self) -> tuple[bytes, ...]:
        """Prefilter literals the line rules need (lines without one never reach the rules)."""
        seen = dict.fromkeys(
            lit for r in self.crash if r.scope != "exception" for lit in r.literals
        )
        return tuple(seen)

    @classmethod
    def load(cls, user_dirs: Sequence[str | Path] = ()) -> RuleSet:
        """Built-in rules, then each user dir's *.toml in name order; a later id replaces."""
        tables: dict[str, tuple[str, dict[str, Any], bool]] = {}
        files = [(f"rules/{r.name}", r.read_text("utf-8"), False) for r in _builtin_files()]
        files += [(str(p), _read_user(p), True) for p in _user_files(user_dirs)]
        for name, text, user in files:
            for section, rule in _tables(name, text):
                tables[f"{section}:{rule['id']}"] = (name, rule, user)
        benign, crash = [], []
        for key, (name, rule, user) in tables.items():
            if rule.get("enabled", True) is False:
                continue
            if key.startswith("benign:"):
                benign.append(_benign(name, rule, user))
            else:
                crash.append(_crash(name, rule, user))
        return cls(tuple(benign), tuple(crash))


def _builtin_files() -> list[Any]:
    root = resources.files("spectrace.rules")
    return sorted((p for p in root.iterdir() if p.name.endswith(".toml")), key=lambda p: p.name)


def _user_files(dirs: Sequence[str | Path]) -> Iterable[Path]:
    for d in dirs:
        path = Path(d)
        if not path.is_dir():
            raise RuleError(f"rules directory {d} does not exist or is not a directory")
        for file in sorted(path.glob("*.toml")):
            if file.exists() and not file.is_file() and not file.is_dir():  # a FIFO would block
                raise RuleError(f"{file}: not a regular file")
            yield file


def _read_user(path: Path) -> str:
    try:
        return path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RuleError(f"{path}: cannot read rule file ({exc})") from None


def _tables(name: str, text: str) -> Iterable[tuple[str, dict[str, Any]]]:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RuleError(f"{name}: not valid TOML ({exc})") from None
    for section, rules in doc.items():
        if section not in ("benign", "crash") or not isinstance(rules, list):
            raise RuleError(f"{name}: unknown table [{section}] (expected [[benign]] or [[crash]])")
        for i, rule in enumerate(rules):
            if not isinstance(rule, dict):
                raise RuleError(f"{name}: [[{section}]] #{i + 1} is not a table")
            if not isinstance(rule.get("id"), str) or not rule["id"]:
                raise RuleError(f"{name}: [[{section}]] #{i + 1} has no string key 'id'")
            allowed = _BENIGN_KEYS if section == "benign" else _CRASH_KEYS
            unknown = sorted(set(rule) - allowed)
            if unknown:
                raise RuleError(f"{name}: rule {rule['id']}: unknown key '{unknown[0]}'")
            yield section, rule


def _get(name: str, rule: dict[str, Any], key: str, kind: type, default: Any = None) -> Any:
    value = rule.get(key, default)
    if value is not None and not isinstance(value, kind):
        raise RuleError(f"{name}: rule {rule['id']}: key '{key}' must be {kind.__name__}")
    return value


def _strings(name: str, rule: dict[str, Any], key: str) -> tuple[str, ...]:
    value = _get(name, rule, key, list, [])
    if not all(isinstance(v, str) for v in value):
        raise RuleError(f"{name}: rule {rule['id']}: key '{key}' must be a list of strings")
    return tuple(value)


def _pattern(name: str, rule: dict[str, Any], user: bool) -> RulePattern:
    text = _get(name, rule, "pattern", str)
    if not text:
        raise RuleError(f"{name}: rule {rule['id']}: key 'pattern' is missing or empty")
    if user and (size := _expanded_size(text)) > MAX_PATTERN_SIZE:
        raise RuleError(
            f"{name}: rule {rule['id']}: key 'pattern' repeats to about {size} items "
            f"(at most {MAX_PATTERN_SIZE}: a line holds at most 65536 characters)"
        )
    try:
        compiled = regex.compile(text) if user else re.compile(text)
    except (re.error, regex.error) as exc:
        raise RuleError(
            f"{name}: rule {rule['id']}: key 'pattern' is not a valid regex ({exc})"
        ) from None
    return RulePattern(text, compiled, user, None if user else gate_literals(text))


def _benign(name: str, rule: dict[str, Any], user: bool) -> BenignRule:
    return BenignRule(
        rule["id"], _pattern(name, rule, user), name, _get(name, rule, "note", str, "")
    )


def _crash(name: str, rule: dict[str, Any], user: bool) -> CrashRule:
    rid = rule["id"]
    pattern = _pattern(name, rule, user)
    try:
        kind = CrashKind(_get(name, rule, "kind", str, "fatal_line"))
    except ValueError:
        raise RuleError(
            f"{name}: rule {rid}: key 'kind' must be fatal_line or process_death"
        ) from None
    severity = _get(name, rule, "severity", str, "error")
    scope = _get(name, rule, "scope", str, "both")
    if severity not in SEVERITIES:
        raise RuleError(
            f"{name}: rule {rid}: key 'severity' must be one of {', '.join(SEVERITIES)}"
        )
    if scope not in SCOPES:
        raise RuleError(f"{name}: rule {rid}: key 'scope' must be one of {', '.join(SCOPES)}")
    hints = _strings(name, rule, "hints")
    if hint := _get(name, rule, "hint", str):
        hints = (hint, *hints)
    literals = _strings(name, rule, "literals") or _derive_literal(pattern.text)
    if scope != "exception" and not literals:
        raise RuleError(
            f"{name}: rule {rid}: key 'literals' is needed (no literal found in pattern)"
        )
    return CrashRule(
        id=rid, pattern=pattern, file=name, kind=kind,
        exception_type=_get(name, rule, "exception_type", str),
        crash_class=_get(name, rule, "class", str), severity=severity,
        collateral=_get(name, rule, "collateral", bool, False), hints=hints, scope=scope,
        levels=_strings(name, rule, "levels"), dialects=_strings(name, rule, "dialects"),
        literals=tuple(lit.encode() for lit in literals),
        prose=_get(name, rule, "prose", bool, False),
    )  # fmt: skip


def _derive_literal(pattern: str) -> tuple[str, ...]:
    """The longest run of plain characters every match must contain (top-level, no flags)."""
    try:
        parsed = re._parser.parse(pattern)  # type: ignore[attr-defined]
    except re.error:
        return ()
    if parsed.state.flags & re.IGNORECASE:
        return ()
    best, run = "", ""
    for op, arg in parsed:
        if op is re._constants.LITERAL:  # type: ignore[attr-defined]
            run += chr(arg)
            best = max(best, run, key=len)
        else:
            run = ""
    return (best,) if len(best) >= 3 else ()


def _expanded_size(pattern: str) -> int:
    """About how many items ``regex`` builds for ``pattern`` once counted repeats are unrolled."""
    try:
        return _tree_size(re._parser.parse(pattern))  # type: ignore[attr-defined]
    except (re.error, RecursionError, OverflowError):
        # syntax only ``regex`` knows: bound by the product of all repeat counts and the length
        counts = [int(n) for n in _REPEAT_COUNT.findall(pattern)]
        return len(pattern) * math.prod(max(c, 1) for c in counts)


_REPEAT_COUNT = re.compile(r"\{(\d{1,9})")
_REPEATS = ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")


def _tree_size(items: Any) -> int:
    """Items of an sre parse tree, a counted repeat counting its body ``max(lo, 1)`` times."""
    size = 0
    for op, arg in items:
        name = str(op)
        if name in _REPEATS:
            lo, _, body = arg
            size += max(lo, 1) * _tree_size(body)
        elif name == "SUBPATTERN":
            size += _tree_size(arg[-1])
        elif name == "BRANCH":
            size += sum(_tree_size(alt) for alt in arg[1])
        elif name in ("ASSERT", "ASSERT_NOT"):
            size += _tree_size(arg[1])
        elif name == "ATOMIC_GROUP":
            size += _tree_size(arg)
        elif name == "GROUPREF_EXISTS":
            size += sum(_tree_size(b) for b in arg[1:] if b is not None)
        else:
            size += 1
    return size
