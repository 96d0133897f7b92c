"""``triage --ray``: one line and exit 2 without Ray; with Ray, a local cluster gives the JSON
one process gives (that part runs only where ``pip install 'spectrace[fleet]'`` put Ray)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from fleet_logs import make_fleet, spectrace_exe

WITHOUT_RAY = (
    "import sys; sys.modules['ray'] = None; from spectrace.cli import main; sys.exit(main())"
)


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_fleet(tmp_path_factory.mktemp("ray"), nodes=100, size_mb=0.02, ranks=2)


def test_without_ray_it_says_what_to_install_in_one_line(fleet: Path) -> None:
    done = subprocess.run([sys.executable, "-c", WITHOUT_RAY, "triage", str(fleet), "--ray", "local"],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "pip install 'spectrace[fleet]'" in done.stderr


def test_ray_with_jobs_is_a_usage_error(fleet: Path) -> None:
    done = subprocess.run([spectrace_exe(), "triage", str(fleet), "--ray", "local", "--jobs", "2"],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 2 and "--ray" in done.stderr


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray is the fleet extra")
def test_a_local_ray_cluster_gives_the_same_json(fleet: Path) -> None:
    one = subprocess.run([spectrace_exe(), "triage", str(fleet), "-f", "json"], capture_output=True,
                         text=True, timeout=300)  # fmt: skip
    ray = subprocess.run([spectrace_exe(), "triage", str(fleet), "-f", "json", "--ray", "local"],
                         capture_output=True, text=True, timeout=300)  # fmt: skip
    assert one.returncode == ray.returncode == 1, ray.stderr[-2000:]
    assert one.stdout == ray.stdout and '"origin_rank": "node00/TP0"' in ray.stdout
