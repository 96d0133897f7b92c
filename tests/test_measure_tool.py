"""tools/real_logs/measure.py: the in-process mode gives the per-excerpt CLI's verdicts.

The regression net (some 2,900 excerpts) is only run before a landing if it is quick; a quick
mode that classed differently would let a wrong verdict land unseen."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT / "tools" / "real_logs" / "measure.py"

RUN = """[2026-11-02 10:00:01] server_args=ServerArgs(model_path='m', speculative_algorithm='EAGLE', \
speculative_eagle_topk=4, disable_overlap_schedule=True, tp_size=1)
[2026-11-02 10:00:09 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/opt/sglang/python/sglang/srt/speculative/eagle_worker.py", line 311, in forward_batch_generation
    self.verify(batch, spec_info)
RuntimeError: shape '[40, 4]' is invalid for input of size 150
"""
PLAN = """Rollout plan for next week
1. Turn speculation on in staging with the EAGLE draft head.
2. Watch the acceptance length for a day, then decide.
"""


def _round(tmp: Path) -> Path:
    (tmp / "ex").mkdir(parents=True)
    (tmp / "ex" / "01.txt").write_text(RUN)
    (tmp / "ex" / "02.txt").write_text(PLAN)
    (tmp / "truth.tsv").write_text("01\tpath\tEAGLEWorker\tv1 run\n02\ttrap\t\tplan\n")
    return tmp


def _measure(round_dir: Path, label: str, *extra: str) -> list[list[str]]:
    subprocess.run([sys.executable, str(TOOL), str(round_dir), str(ROOT), "--label", label, *extra],
                   check=True, capture_output=True, text=True, timeout=300)
    rows = (round_dir / f"results_{label}.tsv").read_text().splitlines()
    return [r.split("\t")[:6] for r in rows]


def test_in_process_mode_classes_like_the_cli(tmp_path: Path) -> None:
    d = _round(tmp_path)
    slow = _measure(d, "cli")
    fast = _measure(d, "fast", "--in-process")
    assert fast == slow
    assert fast[0][2] == "right" and "EAGLEWorker" in fast[0][5]
    assert fast[1][2].startswith("no-path")


def test_several_rounds_in_one_call(tmp_path: Path) -> None:
    a, b = _round(tmp_path / "a"), _round(tmp_path / "b")
    out = subprocess.run([sys.executable, str(TOOL), str(a), str(b), str(ROOT), "--label", "x",
                          "--in-process"], check=True, capture_output=True, text=True, timeout=300)
    assert out.stdout.count("evidence 1: right 1") == 2
