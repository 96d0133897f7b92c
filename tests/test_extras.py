"""A command run without its extra says in one line what to install, exits 2, no traceback
(issue 18 item 9). The extra's modules are hidden from every process of the run by a
sitecustomize that refuses them, as if they were not installed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from spectrace.extras import missing_extra

HIDE = '''
import sys
HIDDEN = set({hidden!r})
class _Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, _Refuse())
'''


def run_without(tmp_path: Path, hidden: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "sitecustomize.py").write_text(HIDE.format(hidden=hidden))
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    return subprocess.run([sys.executable, "-m", "spectrace", *args], capture_output=True,
                          text=True, timeout=120, env=env, cwd=tmp_path)  # fmt: skip


@pytest.mark.parametrize("command", ["run", "bench"])
def test_engine_without_torch_is_one_line_and_exit_2(tmp_path: Path, command: str) -> None:
    proc = run_without(tmp_path, ["torch"], "engine", command, "--out", str(tmp_path / "out"))
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        f"spectrace: error: spectrace engine {command} needs the engine extra (torch is not "
        "installed): pip install 'spectrace[engine]'"
    ]
    assert not (tmp_path / "out").exists()  # nothing was launched


def test_engine_smollm2_without_gguf_names_the_smollm_extra(tmp_path: Path) -> None:
    proc = run_without(tmp_path, ["gguf", "tokenizers"], "engine", "run", "--model", "smollm2",
                       "--out", str(tmp_path / "out"))  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert "pip install 'spectrace[smollm]'" in proc.stderr and "Traceback" not in proc.stderr


def test_engine_help_works_without_torch(tmp_path: Path) -> None:
    proc = run_without(tmp_path, ["torch"], "engine", "run", "--help")
    assert proc.returncode == 0 and "--out" in proc.stdout


def test_triage_needs_no_extra(tmp_path: Path) -> None:
    log = tmp_path / "ok.log"
    log.write_text("[2026-02-27 20:59:41 TP0] Decode batch. #running-req: 1\n")
    proc = run_without(tmp_path, ["torch", "numpy", "matplotlib", "gguf"], "triage", str(log))
    assert proc.returncode == 0, proc.stderr


def test_an_extra_import_failing_deep_in_a_command_is_named() -> None:
    line = missing_extra(ModuleNotFoundError("No module named 'matplotlib.pyplot'",
                                             name="matplotlib.pyplot"), "spectrace engine")  # fmt: skip
    assert line == ("spectrace engine needs the engine extra (matplotlib is not installed): "
                    "pip install 'spectrace[engine]'")  # fmt: skip
    assert missing_extra(ModuleNotFoundError("x", name="polars")) is None  # core: a real bug
