"""Bring each release of a framework into a slim local cache, once, with pip.

The generator must run offline and deterministically, so it never reads the network: this
step (run by hand when a new release appears) downloads each release's wheel with pip and
keeps only the package's ``.py`` files in ``<cache>/<framework>/<version>.zip``. Wheels of
vLLM carry hundreds of MB of CUDA binaries that the tables never need. It also saves each
project's index page (PEP 691 JSON, the page pip reads: files, hashes, upload times) under
``<cache>/index/``: the release days of published.toml come from it, and so do the source
archives of releases that ship no wheel pip can take (vllm-ascend's later releases are
sdists only, and pip cannot download an sdist without building it), hash-checked.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
import zipfile
from datetime import UTC, datetime
from pathlib import Path

# framework -> (PyPI name, package folder inside the wheel)
PYPI = {"sglang": ("sglang", "sglang/"), "vllm": ("vllm", "vllm/")}
# framework -> (PyPI name, package folder) of projects read from their source archives
SDIST = {"vllm_ascend": ("vllm-ascend", "vllm_ascend/")}
_JSON = "application/vnd.pypi.simple.v1+json"


def _slim(wheel: Path, package: str, out: Path) -> None:
    """Copy the package's Python files of one wheel into a small zip (sorted, fixed times)."""
    tmp = out.with_suffix(".part")
    with zipfile.ZipFile(wheel) as src, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as dst:
        for name in sorted(src.namelist()):
            if name.startswith(package) and name.endswith(".py"):
                info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
                dst.writestr(info, src.read(name))
    tmp.replace(out)


def _slim_sdist(archive: Path, package: str, out: Path) -> None:
    """The package's Python files of a ``name-version/`` source archive, as ``_slim`` keeps
    a wheel's (the top folder dropped, so paths start with the package)."""
    tmp = out.with_suffix(".part")
    with tarfile.open(archive) as src, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as dst:
        members = {m.name.partition("/")[2]: m for m in src.getmembers() if m.isfile()}
        for name in sorted(members):
            if name.startswith(package) and name.endswith(".py"):
                info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
                dst.writestr(info, src.extractfile(members[name]).read())  # type: ignore[union-attr]
    tmp.replace(out)


def save_index(project: str, cache: Path) -> Path:
    """The project's index page (PEP 691 JSON) with the day it was read, for offline builds."""
    out = cache / "index" / f"{project}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    request = urllib.request.Request(f"https://pypi.org/simple/{project}/", headers={"Accept": _JSON})
    with urllib.request.urlopen(request, timeout=180) as answer:
        page = json.load(answer)
    page["saved"] = datetime.now(UTC).date().isoformat()
    out.write_text(json.dumps(page, indent=0, sort_keys=True) + "\n")
    return out


def fetch_sdist(framework: str, version: str, cache: Path,
                project: tuple[str, str] | None = None) -> Path | None:
    """One release's source archive, named on the saved index page and checked against its
    sha256, slimmed like a wheel; None when the page lists no sdist for it. ``project``:
    (PyPI name, package folder) when not in SDIST."""
    project, package = project or SDIST[framework]
    out = cache / framework / f"{version}.zip"
    if out.exists():
        return out
    page = json.loads((cache / "index" / f"{project}.json").read_text())
    stem = f"{project.replace('-', '_')}-{version}.tar.gz"
    entry = next((f for f in page["files"] if f["filename"] == stem), None)
    if entry is None:
        return None
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        archive = Path(tmp) / stem
        with urllib.request.urlopen(entry["url"], timeout=600) as answer:
            archive.write_bytes(answer.read())
        if hashlib.sha256(archive.read_bytes()).hexdigest() != entry["hashes"]["sha256"]:
            raise SystemExit(f"{stem}: sha256 differs from the index page")
        _slim_sdist(archive, package, out)
    return out


def fetch_release(framework: str, version: str, cache: Path,
                  project: tuple[str, str] | None = None) -> Path | None:
    """Download one release with pip (no dependencies, wheels only) and slim it; None if pip
    finds no wheel for it. ``project``: (PyPI name, package folder) when not in PYPI."""
    name, package = project or PYPI[framework]
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
