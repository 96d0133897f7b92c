"""The README's pipeline, as issue 11 asked of incidents.py, linker.py and incident_causes.py:
crashes are grouped into incidents, then linked to the run; data flows one way (incidents ->
linker), with no import cycle between them."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _imports(module: str) -> set[str]:
    """The spectrace modules ``module`` reaches through its imports, transitively."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        path = ROOT / (todo.pop().replace(".", "/") + ".py")
        if not path.exists():
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = ([node.module, *(f"{node.module}.{a.name}" for a in node.names)]
                     if isinstance(node, ast.ImportFrom) and node.module
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])  # fmt: skip
            for name in names:
                if name.startswith("spectrace") and name not in seen:
                    seen.add(name)
                    todo.append(name)
    return seen


def test_incidents_feed_the_linker_and_never_the_other_way() -> None:
    """The README's pipeline: crashes are grouped into incidents (incidents, incident_causes),
    then linked to the run (linker); the grouping never imports the linker, and the linker
    reads incidents only through their model (incident_model)."""
    grouping = {"spectrace.incidents", "spectrace.incident_causes"}
    for module in grouping:
        assert "spectrace.linker" not in _imports(module), module
    assert not grouping & _imports("spectrace.linker")
    assert "spectrace.incident_model" in _imports("spectrace.linker")
