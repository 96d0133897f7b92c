"""Generated multi-node logs for the fleet tests (benchmarks/gen_fleet.py, a directory per node)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def make_fleet(out: Path, nodes: int, size_mb: float, ranks: int = 8) -> Path:
    """``out/nodeNN/server.log``: node 0 (and every fifth) crashes, the others time out."""
    subprocess.run([sys.executable, str(ROOT / "benchmarks/gen_fleet.py"), "--out", str(out),
                    "--nodes", str(nodes), "--size-mb", str(size_mb), "--ranks", str(ranks)],
                   check=True, capture_output=True)  # fmt: skip
    return out


def spectrace_exe() -> str:
    return shutil.which("spectrace") or str(Path(sys.executable).with_name("spectrace"))
