"""Optional extras: a command run without its extra says in one line what to install.

The core (triage, diff, tui, stacks) never needs them; ``spectrace engine`` needs ``engine``
(torch, triton, ...) and its SmolLM2 model ``smollm`` (gguf, tokenizers).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence

from spectrace.errors import SpectraceError

# top-level module -> the extra that installs it (pyproject.toml's optional-dependencies)
EXTRA_OF = {
    "torch": "engine",
    "triton": "engine",
    "safetensors": "engine",
    "numpy": "engine",
    "matplotlib": "engine",
    "gguf": "smollm",
    "tokenizers": "smollm",
    "ray": "fleet",
}


class MissingExtra(SpectraceError):
    """A command needs a module that only an extra installs."""


def install_line(extra: str, module: str, what: str) -> str:
    return f"{what} needs the {extra} extra ({module} is not installed): pip install 'spectrace[{extra}]'"


def require(what: str, modules: Sequence[str]) -> None:
    """Raise MissingExtra for the first of ``modules`` that cannot be imported."""
    for module in modules:
        try:
            found = importlib.util.find_spec(module) is not None
        except ImportError:  # a finder that refuses it (or a broken install)
            found = False
        if not found:
            raise MissingExtra(install_line(EXTRA_OF[module], module, what))


def missing_extra(exc: ModuleNotFoundError, what: str = "this command") -> str | None:
    """The one line for an import of an extra's module that failed deep in a command."""
    module = (exc.name or "").split(".")[0]
    extra = EXTRA_OF.get(module)
    return install_line(extra, module, what) if extra is not None else None
