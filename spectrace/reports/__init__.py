"""Output formats: each renders the report document (``reports.json.build_document``) as text."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any


class Format(StrEnum):
    TEXT = "text"  # rich on a terminal, plain text otherwise
    JSON = "json"  # schemas/report.schema.json
    JUNIT = "junit"  # one testcase per incident
    SARIF = "sarif"  # SARIF 2.1.0 for code scanning
    GITHUB = "github"  # workflow commands (annotations), within GitHub's caps
    MARKDOWN = "markdown"  # job summary / PR comment


def render(document: dict[str, Any], fmt: Format) -> str:
    """The document in one format, as the text to write (text format: plain, no colour)."""
    from spectrace.reports import github, json, junit, markdown, sarif, text

    renderers = {
        Format.TEXT: text.render_plain,
        Format.JSON: json.render,
        Format.JUNIT: junit.render,
        Format.SARIF: sarif.render,
        Format.GITHUB: github.render,
        Format.MARKDOWN: markdown.render,
    }
    return renderers[fmt](document)


_SEVERITY_RANK = {"fatal": 0, "error": 1, "warning": 2}


def by_importance(incidents: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Failing first, then root causes, each in order of occurrence: of several root causes the
    earliest is most often the trigger (a later ``Killed`` is the launcher cleaning up)."""

    def key(i: dict[str, Any]) -> tuple[bool, bool, int, int]:
        number = int(i["id"][1:]) if i["id"][1:].isdigit() else 0
        severity = 0 if i["root_cause"] else _SEVERITY_RANK.get(i["severity"], 1)
        return (not i.get("fails"), not i["root_cause"], severity, number)

    return sorted(incidents, key=key)


_NATIVE_BACKTRACE = re.compile(r"\\n\s*1\s+0x[0-9a-fA-F]+\s.*$")  # TRT-LLM: 'msg\n1  0x7f.. fn'


def headline(incident: dict[str, Any]) -> str:
    """``RuntimeError: message`` as one line, without a C++ backtrace glued on as ``\\n1 0x..``."""
    message = _NATIVE_BACKTRACE.sub(" …", " ".join(str(incident["message"]).split()))
    return (
        f"{incident['exception_type']}: {message}" if message else str(incident["exception_type"])
    )
