"""Cost of a speculative vLLM server's metrics lines, as a ratio to the same log without them.

A vLLM V1 server prints an ``Engine 000: Avg prompt throughput ...`` line and, when it
speculates, a ``SpecDecoding metrics: ...`` line every ten seconds: a day of serving is 8,640 of
each. The engine line is load only; the metrics line is also evidence (the run speculated), so it
reaches the config readers, and each one used to cost them ~10 ms (20,000 pairs: 55 s against
0.7 s). One per run is enough; this keeps that cost in sight.

Run: ``python benchmarks/bench_metrics_lines.py [--pairs N]`` (prints medians and the ratio).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from timing import median_s

from spectrace.pipeline import analyse

ENGINE = ("(APIServer pid=7) INFO 06-01 10:{m:02d}:{s:02d} [loggers.py:257] Engine 000: Avg prompt "
          "throughput: 12.0 tokens/s, Avg generation throughput: 310.{s:02d} tokens/s, Running: 4 reqs, "
          "Waiting: 0 reqs, GPU KV cache usage: 3.1%, Prefix cache hit rate: 12.0%")  # fmt: skip
METRICS = ("(APIServer pid=7) INFO 06-01 10:{m:02d}:{s:02d} [metrics.py:96] SpecDecoding metrics: Mean "
           "acceptance length: 2.{s:02d}, Accepted throughput: 4.37 tokens/s, Drafted throughput: 4.92 "
           "tokens/s, Accepted: 26{s} tokens, Drafted: 295 tokens, Per-position acceptance rate: 0.983, "
           "0.949, Avg Draft acceptance rate: 88.8%")  # fmt: skip


def _write(path: Path, pairs: int, speculative: bool) -> None:
    with path.open("w") as out:
        for i in range(pairs):
            m, s = divmod(i, 60)
            out.write(ENGINE.format(m=m % 60, s=s) + "\n")
            # the floor log holds a second engine line instead, so both logs have as many lines
            out.write((METRICS if speculative else ENGINE).format(m=m % 60, s=s) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=20_000)
    pairs = ap.parse_args().pairs
    with tempfile.TemporaryDirectory() as tmp:
        plain, spec = Path(tmp, "plain.log"), Path(tmp, "spec.log")
        _write(plain, pairs, speculative=False)
        _write(spec, pairs, speculative=True)
        floor = median_s(lambda: analyse([str(plain)]), repeat=3)
        took = median_s(lambda: analyse([str(spec)]), repeat=3)
    print(f"{pairs} engine-line pairs: {floor:.2f} s; engine + SpecDecoding metrics pairs: "
          f"{took:.2f} s; ratio {took / floor:.2f}x")  # fmt: skip


if __name__ == "__main__":
    main()
