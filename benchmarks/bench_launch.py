"""Cost of reading launch commands through argparse and the option tables.

* loading each option table (rules/options/<framework>.toml) into a fresh ``OptionTables``,
  against ``tomllib.loads`` of the same text (the floor: the file must be parsed at all);
* reading a 10-line SGLang command and a k8s vLLM block, cold (tables loaded on the way) and
  warm (same ``OptionTables``: what every command after the first costs);
* whole triage (``analyse``) of a generated log with and without those commands pasted at its
  top, as the ratio with / without: the reader's cost must not show in scan timing.

Run: ``python benchmarks/bench_launch.py [--size-mb 20] [--reps 5]`` (medians; no assertions).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import tomllib
from importlib import resources
from pathlib import Path

from timing import median_s

from spectrace.assemblers.launch import parse_launch_command
from spectrace.assemblers.launch_options import OptionTables
from spectrace.pipeline import analyse

ROOT = Path(__file__).resolve().parent.parent
SGLANG = (
    "$ SGLANG_ENABLE_SPEC_V2=1 python3 -m sglang.launch_server \\\n"
    "    --model-path org/model --mem-frac 0.8 --tp 8 --dp 2 --enable-dp-attention \\\n"
    "    --speculative-algo EAGLE --speculative-draft-model-path org/draft \\\n"
    "    --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4 \\\n"
    "    --cuda-graph-bs 1 2 4 8 16 32 --cuda-graph-max-bs 32 \\\n"
    "    --max-running-requests 64 --chunked-prefill-size 8192 \\\n"
    "    --host 0.0.0.0 --port 30000 --trust-remote-code \\\n"
    "    --disable-radix-cache --context-length 32768 \\\n"
    "    --log-level info --enable-metrics \\\n"
    "    --attention-backend fa3\n"
)
VLLM = (
    '        command: ["vllm", "serve"]\n'
    "        args:\n"
    "        - org/model\n"
    "        - --speculative-config\n"
    '        - \'{"method": "eagle3", "model": "org/d", "num_speculative_tokens": 3}\'\n'
    "        - --tensor-parallel-size\n"
    '        - "4"\n'
    "        - --max-model-len\n"
    '        - "16384"\n'
    "        - --enforce-eager\n"
)


def table_rows(reps: int) -> list[tuple[str, float, float]]:
    folder = resources.files("spectrace.rules") / "options"
    out = []
    for framework in ("sglang", "vllm", "trtllm"):
        text = (folder / f"{framework}.toml").read_text(encoding="utf-8")
        floor = median_s(lambda t=text: tomllib.loads(t), reps)
        load = median_s(lambda f=framework: OptionTables().get(f), reps)
        out.append((framework, load, floor))
    return out


def read_rows(reps: int) -> list[tuple[str, float, float]]:
    out = []
    for name, text in (("sglang 10 lines", SGLANG), ("vllm k8s block", VLLM)):
        cold = median_s(lambda t=text: parse_launch_command(t, OptionTables()), reps)
        tables = OptionTables()
        parse_launch_command(text, tables)
        warm = median_s(lambda t=text, tb=tables: parse_launch_command(t, tb), reps)
        out.append((name, cold, warm))
    return out


def triage_ratio(size_mb: int, reps: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        plain = Path(tmp) / "plain.log"
        subprocess.run([sys.executable, str(ROOT / "benchmarks/gen_log.py"), "--size-mb",
                        str(size_mb), "--out", str(plain)], check=True, capture_output=True)  # fmt: skip
        pasted = Path(tmp) / "pasted.log"
        pasted.write_bytes((SGLANG + VLLM).encode() + plain.read_bytes())
        without, with_ = [], []
        for _ in range(reps):  # interleaved, so load on the box hits both alike
            without.append(median_s(lambda: analyse([str(plain)]), 1))
            with_.append(median_s(lambda: analyse([str(pasted)]), 1))
        without.sort()
        with_.sort()
        return without[len(without) // 2], with_[len(with_) // 2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=20)
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    print("table load (fresh OptionTables)   median ms   tomllib floor ms   ratio")
    for framework, load, floor in table_rows(args.reps):
        print(f"  {framework:<32} {load * 1e3:9.1f}   {floor * 1e3:16.1f}   {load / floor:5.2f}x")
    print("read one command                  cold ms     warm ms")
    for name, cold, warm in read_rows(args.reps):
        print(f"  {name:<32} {cold * 1e3:8.1f}   {warm * 1e3:9.2f}")
    without, with_ = triage_ratio(args.size_mb, args.reps)
    print(f"triage {args.size_mb} MB log: without commands {without:.3f} s, with {with_:.3f} s, "
          f"ratio {with_ / without:.3f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
