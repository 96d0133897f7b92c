"""Triage, diff, the TUI and stacks must work on a machine without torch (it is the engine's)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SEED = Path(__file__).resolve().parents[1] / "sample_logs" / "seed_story"

# Runs in a fresh interpreter where importing torch or triton fails, as on a machine without them.
PROGRAM = """
import importlib.abc, sys

class NoTorch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("torch", "triton"):
            raise ImportError(f"{name} is not installed here")
        return None

sys.meta_path.insert(0, NoTorch())
import spectrace.commands.triage, spectrace.commands.diff, spectrace.commands.tui
import spectrace.commands.stacks, spectrace.commands.engine, spectrace.tui.app
assert not any(m.split(".")[0] in ("torch", "triton") for m in sys.modules), "torch was imported"
sys.argv = ["spectrace", "triage", sys.argv[1], "--format", "json"]
from spectrace.cli import main
main()
"""


def test_triage_and_every_command_module_work_without_torch() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROGRAM, str(SEED)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 1, result.stderr  # 1: the seed story's crash, found without torch
    assert '"exception_type": "RuntimeError"' in result.stdout
    assert "Traceback" not in result.stderr
