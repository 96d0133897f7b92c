"""Two runs' incidents -> new, gone and still-there crashes, matched by signature."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spectrace.errors import InputError
from spectrace.textsafe import inert

Document = dict[str, Any]
DIFF_SCHEMA_VERSION = "1.0"
REPORT_MAJOR = "1"  # reports/json.py SCHEMA_VERSION's major: the shape this module reads


@dataclass(frozen=True, slots=True)
class CrashDiff:
    new: tuple[Document, ...]  # incidents (report form) only in the new run
    gone: tuple[Document, ...]  # only in the old run
    still: tuple[tuple[Document, Document], ...]  # (old, new) pairs with the same signature

    @property
    def exit_code(self) -> int:
        return 1 if self.new else 0


def load_report(path: str) -> Document | None:
    """A previous ``--format json`` report, or None when the path is a log (or a directory)."""
    file = Path(path)
    if not file.is_file():
        return None
    try:
        with file.open("rb") as handle:
            head = handle.read(64).lstrip()
            if not head.startswith(b"{"):
                return None
            handle.seek(0)
            data = json.load(handle)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    except RecursionError:
        raise InputError(f"{path}: JSON report nested too deeply") from None
    if not isinstance(data, dict) or "schema_version" not in data:
        return None
    _check_schema(path, data)
    incidents = data.get("incidents")
    if not isinstance(incidents, list) or not all(
        isinstance(i, dict) and isinstance(i.get("signature"), str) for i in incidents
    ):
        raise InputError(f"{path}: JSON report has no valid 'incidents' list")
    return {**data, "incidents": [_clean(i) for i in incidents]}


def _check_schema(path: str, data: Document) -> None:
    """A report of a newer major schema version may mean something else by the same fields."""
    version = str(data.get("schema_version"))
    major = version.split(".", 1)[0]
    if not major.isdigit() or int(major) > int(REPORT_MAJOR):
        raise InputError(
            f"{path}: report schema {inert(version)[:20]!r} is not one this spectrace reads "
            f"({REPORT_MAJOR}.x); upgrade spectrace or write the report again"
        )


def _clean(incident: Document) -> Document:
    """The fields the diff shows, with the types it expects, whatever the file held."""

    def text(key: str, default: str = "") -> str:
        value = incident.get(key)
        return default if value is None else str(value)

    first = incident.get("first_seen")
    first = first if isinstance(first, dict) else {}
    line = first.get("line")
    ranks = incident.get("ranks")
    return {
        **incident,
        "id": text("id", "?"),
        "exception_type": text("exception_type", "?"),
        "message": text("message"),
        "ranks": [str(r) for r in ranks] if isinstance(ranks, list) else [],
        "root_cause": incident.get("root_cause") is True,
        "first_seen": {
            "file": str(first.get("file", "?")),
            "line": line if isinstance(line, int) else None,
        },
    }


def incidents_of(path: str, analyse: Callable[[str], Document]) -> list[Document]:
    """Incidents from a JSON report, or from analysing the log path with ``analyse``."""
    report = load_report(path)
    return list((report if report is not None else analyse(path))["incidents"])


def compare(old: list[Document], new: list[Document]) -> CrashDiff:
    """Match incidents by signature; order follows each run's incident order."""
    old_by_sig = {i["signature"]: i for i in old}
    new_by_sig = {i["signature"]: i for i in new}
    return CrashDiff(
        new=tuple(i for s, i in new_by_sig.items() if s not in old_by_sig),
        gone=tuple(i for s, i in old_by_sig.items() if s not in new_by_sig),
        still=tuple((old_by_sig[s], i) for s, i in new_by_sig.items() if s in old_by_sig),
    )


def _entry(incident: Document, old_id: str | None, new_id: str | None) -> Document:
    return {
        "signature": incident["signature"],
        "exception_type": incident.get("exception_type"),
        "message": incident.get("message"),
        "root_cause": incident.get("root_cause"),
        "ranks": incident.get("ranks", []),
        "first_seen": incident.get("first_seen"),
        "old_id": old_id,
        "new_id": new_id,
    }


def diff_document(diff: CrashDiff, old: str, new: str) -> Document:
    """The diff as plain data (``spectrace diff --format json``)."""
    return {
        "schema_version": DIFF_SCHEMA_VERSION,
        "old": old,
        "new": new,
        "new_incidents": [_entry(i, None, i.get("id")) for i in diff.new],
        "gone": [_entry(i, i.get("id"), None) for i in diff.gone],
        "still": [_entry(n, o.get("id"), n.get("id")) for o, n in diff.still],
        "summary": {
            "new": len(diff.new),
            "gone": len(diff.gone),
            "still": len(diff.still),
            "exit_code": diff.exit_code,
        },
    }
