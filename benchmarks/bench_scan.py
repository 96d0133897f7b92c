"""End-to-end triage time of a big generated log, with and without hyperscan, against ripgrep
and grep on the same literals; the prefilter alone on both paths; zstd read against a pipe.

Usage: python benchmarks/bench_scan.py [--size-mb 1024] [--file LOG] [--reps 3] [--gzip|--zstd]

Every method runs as its own process (page cache warmed first, methods interleaved per round);
the median wall time is reported, with peak RSS from wait4 and, for spectrace, whether every
crash of the generator's truth file was found. Ratios are spectrace time / baseline time, and
"no hyperscan / hyperscan" on the same file in the same run (the pure-Python fallback that
platforms without a hyperscan wheel get). ``--zstd`` compresses the log with the zstd CLI and
compares spectrace reading the .zst against ``zstd -dc FILE | spectrace -``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from timing import measure

ROOT = Path(__file__).resolve().parent.parent
NO_HYPERSCAN = "import sys; sys.modules['hyperscan'] = None  # as on a platform without a wheel\n"
SPECTRACE = """
import json, sys
from spectrace.pipeline import analyse
a = analyse([sys.argv[1]])
print(json.dumps({"lines": a.files[0].lines, "bytes": a.files[0].bytes,
                  "found": [[o.lineno, i.exception_type] for i in a.incidents for o in i.occurrences]}))
"""
PREFILTER = """
import sys, time
from spectrace.pipeline import build_spec
from spectrace.read import Reader
from spectrace.ruleset import RuleSet
pf = build_spec(RuleSet.load(), ()).prefilter
reader, spent, size = Reader(sys.argv[1]), 0.0, 0
for block in reader.blocks():
    start = time.perf_counter()
    pf.line_starts(block.buf, block.start, block.end)
    spent += time.perf_counter() - start
    size += block.end - block.start
print(f"{size / spent / 1e9:.3f} GB/s ({pf.backend})")
"""
DECOMPRESS = """
import sys
from isal import igzip_threaded
buf = bytearray(4 << 20)
with igzip_threaded.open(sys.argv[1], "rb") as f:
    while f.readinto(buf):
        pass
"""


def hot_literals() -> list[str]:
    sys.path.insert(0, str(ROOT))
    from spectrace.pipeline import build_spec
    from spectrace.ruleset import RuleSet

    return [lit.decode() for lit in build_spec(RuleSet.load(), ()).prefilter.literals]


def ere_escape(text: str) -> str:
    """POSIX ERE escaping (Python's re.escape also escapes spaces, which grep warns about)."""
    return re.sub(r"([.\[\]()*+?{}|^$\\])", r"\\\1", text)


def methods(log: str, literals: list[str]) -> dict[str, list[str]]:
    found = {
        "spectrace": [sys.executable, "-c", SPECTRACE, log],
        "spectrace no hyperscan": [sys.executable, "-c", NO_HYPERSCAN + SPECTRACE, log],
    }
    if log.endswith(".zst"):
        pipe = f"zstd -dc {shlex.quote(log)} | {shlex.quote(sys.executable)} -c {shlex.quote(SPECTRACE)} -"
        found["zstd -dc | spectrace -"] = ["sh", "-c", pipe]
        found["zstd -dc only"] = ["sh", "-c", f"zstd -dc {shlex.quote(log)} > /dev/null"]
        return found
    gz = ["-z"] if log.endswith(".gz") else []  # rg decompresses through gzip -d
    if gz:
        found["isal decompress only"] = [sys.executable, "-c", DECOMPRESS, log]
    if shutil.which("rg"):
        pats = [f"-e{x}" for x in literals]
        found["rg -j1 -c"] = ["rg", "-j1", "-c", "--no-mmap", *gz, "-F", *pats, log]
    else:
        print("ripgrep not found (apt-get install -y ripgrep): rg ratio skipped")
    if not gz:
        found["grep -c -E"] = ["grep", "-c", "-E", "|".join(ere_escape(x) for x in literals), log]
    return found


def check(out: str, truth_file: Path) -> str:
    if not truth_file.exists():
        return "no truth file"
    truth = json.loads(truth_file.read_text())
    got = {line for line, _ in json.loads(out)["found"]}
    missing = [c for c in truth["crashes"] if c["line"] not in got]
    return (
        f"all {len(truth['crashes'])} known crashes found" if not missing else f"MISSING {missing}"
    )


def _run_out(cmd: list[str]) -> str:
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size-mb", type=int, default=1024)
    ap.add_argument("--file")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--gzip", action="store_true")
    ap.add_argument("--zstd", action="store_true", help="compress with the zstd CLI (needs zstd)")
    args = ap.parse_args()
    tmp = "" if args.file else tempfile.mkdtemp(prefix="bench_scan_")  # removed at the end
    log = args.file or os.path.join(tmp, "big.log" + (".gz" if args.gzip else ""))
    if not args.file:
        gen = [
            sys.executable,
            str(ROOT / "benchmarks" / "gen_log.py"),
            "--size-mb",
            str(args.size_mb),
            "--out",
            log,
        ]
        subprocess.run(
            gen + (["--gzip"] if args.gzip else []), check=True, stdout=subprocess.DEVNULL
        )
    if args.zstd:
        subprocess.run(["zstd", "-q", "-f", "-T0", log, "-o", log + ".zst"], check=True)
        log += ".zst"
    subprocess.run(["cat", log], stdout=subprocess.DEVNULL, check=True)  # warm the page cache
    literals = hot_literals()
    table = methods(log, literals)
    times: dict[str, list[float]] = {name: [] for name in table}
    rss: dict[str, float] = {}
    outputs: dict[str, str] = {}
    for _ in range(args.reps):
        for name, cmd in table.items():
            done = measure(cmd)
            wall, peak, out = done.wall_s, done.peak_mib, done.stdout.decode()
            times[name].append(wall)
            rss[name], outputs[name] = max(rss.get(name, 0.0), peak), out
    med = {name: statistics.median(t) for name, t in times.items()}
    size = json.loads(outputs["spectrace"])["bytes"]  # decompressed bytes for .gz
    print(
        f"input {log}: {os.path.getsize(log) / 1e6:.0f} MB on disk, {size / 1e6:.0f} MB of text, "
        f"{len(literals)} hot literals, median of {args.reps}"
    )
    for name, t in med.items():
        print(f"  {name:20s} {t:6.2f} s  {size / t / 1e6:7.0f} MB/s  peak RSS {rss[name]:6.0f} MiB")
    for name in med:
        if name != "spectrace":
            print(f"  spectrace / {name}: {med['spectrace'] / med[name]:.1f}x")
    print(f"  no hyperscan / hyperscan (triage): {med['spectrace no hyperscan'] / med['spectrace']:.1f}x")
    if not log.endswith((".gz", ".zst")):
        fast = _run_out([sys.executable, "-c", PREFILTER, log])
        slow = _run_out([sys.executable, "-c", NO_HYPERSCAN + PREFILTER, log])
        ratio = float(fast.split()[0]) / float(slow.split()[0])
        print(f"  prefilter alone: {fast} vs {slow}: {ratio:.1f}x")
    truth = Path(re.sub(r"\.(gz|zst)$", "", log) + ".truth.json")
    for name in ("spectrace", "spectrace no hyperscan"):
        print(f"  truth ({name}): {check(outputs[name], truth)}")
    if not args.file:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
