"""`spectrace triage` on crash-dense logs (every request failing) against grep/rg and older code.

Usage: python benchmarks/bench_crash_dense.py [--crashes 5000] [--reps 3] [--base DIR]

Writes the five shapes of ``gen_crash_dense.py`` (plain, chained, 8 ranks interleaved, vLLM
prefixed, a speculative worker's storm) and times, per log, each method as its own process,
rounds interleaved; the median is reported. ``--base DIR``: a checkout of older code (``git worktree add /tmp/base REV``) run
the same way, with its ``--format json`` output compared byte for byte to this tree's.
Ratios are spectrace time / baseline time.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from gen_crash_dense import SHAPES, write  # noqa: E402
from timing import measure  # noqa: E402


def triage(tree: Path) -> list[str]:
    """The triage command of one checkout (its own spectrace first on the path)."""
    code = "import sys; from spectrace.cli import main; sys.argv[0] = 'spectrace'; main()"
    return [
        "env",
        f"PYTHONPATH={tree}",
        sys.executable,
        "-P",
        "-c",
        code,
        "triage",
        "--format",
        "json",
    ]


def methods(base: Path | None) -> dict[str, list[str]]:
    found = {"spectrace": triage(ROOT), "grep -c Traceback": ["grep", "-c", "Traceback"]}
    if shutil.which("rg"):
        found["rg -c Traceback"] = ["rg", "-j1", "-c", "Traceback"]
    if base is not None:
        found["base spectrace"] = triage(base)
    return found


def bench(log: Path, cmds: dict[str, list[str]], reps: int) -> dict[str, tuple[float, float]]:
    """Median (wall, CPU) seconds per method; with a base, its JSON must equal this tree's."""
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in cmds}
    outputs: dict[str, bytes] = {}
    for _ in range(reps):
        for name, cmd in cmds.items():
            done = measure([*cmd, str(log)])
            wall, cpu, out = done.wall_s, done.cpu_s, done.stdout
            times[name].append((wall, cpu))
            outputs[name] = out
    if "base spectrace" in outputs:
        same = outputs["base spectrace"] == outputs["spectrace"]
        print(f"  JSON of this tree and the base: {'identical' if same else 'DIFFERENT'}")
    return {
        name: (statistics.median(w for w, _ in t), statistics.median(c for _, c in t))
        for name, t in times.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--crashes", type=int, default=5000)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--base", type=Path, help="older checkout to compare against")
    args = parser.parse_args()
    cmds = methods(args.base)
    cpu: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for shape in SHAPES:
            log = Path(tmp) / f"{shape}.log"
            write(log, shape, args.crashes)
            log.read_bytes()  # warm the page cache
            size = log.stat().st_size / 1e6
            print(f"{shape}: {args.crashes} crashes, {size:.1f} MB (median of {args.reps})")
            med = bench(log, cmds, args.reps)
            wall, cpu[shape] = med["spectrace"]
            print(f"  spectrace          wall {wall:6.2f} s  cpu {cpu[shape]:6.2f} s")
            for name, (w, c) in med.items():
                if name != "spectrace":
                    ratios = f"ratio wall {wall / w:6.2f}x  cpu {cpu[shape] / max(c, 1e-3):6.2f}x"
                    print(f"  vs {name:17} wall {w:6.3f} s  cpu {c:6.3f} s  {ratios}")
    # the same number of tracebacks: what routing a storm's untagged lines costs over plain ones
    print(f"storm cost: 8 ranks interleaved / plain, cpu {cpu['ranks'] / cpu['plain']:.2f}x")


if __name__ == "__main__":
    main()
