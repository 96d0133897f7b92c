"""Bring each release of a framework into a slim local cache, once, with pip.

The generator must run offline and deterministically, so it never reads the network: this
step (run by hand when a new release appears) downloads each release's wheel with pip and
keeps only the package's ``.py`` files in ``<cache>/<framework>/<version>.zip``. Wheels of
vLLM carry hundreds of MB of CUDA binaries that the tables never need.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

# framework -> (PyPI name, package folder inside the wheel)
PYPI = {"sglang": ("sglang", "sglang/"), "vllm": ("vllm", "vllm/")}


def _slim(wheel: Path, package: str, out: Path) -> None:
    """Copy the package's Python files of one wheel into a small zip (sorted, fixed times)."""
    tmp = out.with_suffix(".part")
    with zipfile.ZipFile(wheel) as src, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as dst:
        for name in sorted(src.namelist()):
            if name.startswith(package) and name.endswith(".py"):
                info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
                dst.writestr(info, src.read(name))
    tmp.replace(out)


def fetch_release(framework: str, version: str, cache: Path) -> Path | None:
    """Download one release with pip (no dependencies, wheels only) and slim it; None if pip
    finds no wheel for it."""
    name, package = PYPI[framework]
    out = cache / framework / f"{version}.zip"
    if out.exists():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
               "--quiet", "-d", tmp, f"{name}=={version}"]
        if subprocess.run(cmd, check=False, capture_output=True).returncode != 0:
            return None
        wheels = sorted(Path(tmp).glob("*.whl"))
        if not wheels:
            return None
        _slim(wheels[0], package, out)
    return out
