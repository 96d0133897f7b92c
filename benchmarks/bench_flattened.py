"""Cost of looking for lost newlines (``split_flattened``) on every parsed line, as a ratio to
``LineParser.parse`` of the same lines measured in the same run: ordinary vLLM lines (the check
the scanner pays on every line) and a record flattened into one line (the rare real case).

Run: ``python benchmarks/bench_flattened.py`` (prints medians and ratios; no assertions).
"""

from __future__ import annotations

from timing import median_s

from spectrace.dialects.detect import LineParser
from spectrace.dialects.flattened import split_flattened

EC = "(EngineCore_DP0 pid=12) ERROR 10-05 12:01:02 [core.py:710] "
RECORD = [
    EC + "Traceback (most recent call last):",
    EC + '  File "/x/vllm/v1/spec_decode/eagle.py", line 240, in propose',
    EC + "    hidden_states = hidden_states[last_token_indices]",
    EC + "RuntimeError: The size of tensor a (40) must match the size of tensor b (10) at dim 0",
    "(APIServer pid=10) INFO 10-05 12:01:00 [loggers.py:127] Engine 000: Avg prompt throughput: "
    "100.0 tokens/s, Avg generation throughput: 500.0 tokens/s, Running: 10 reqs, Waiting: 0 reqs",
]
SHAPES = {"lines": RECORD, "flattened": [" ".join(RECORD)]}
REPEAT = 4000


def main() -> None:
    for name, lines in SHAPES.items():
        raws = [line.encode() for line in lines] * REPEAT
        parser = LineParser("bench.log")
        parse = median_s(lambda raws=raws, p=parser: [p.parse(r, 1, 0) for r in raws])
        split = median_s(lambda raws=raws: [split_flattened(r) for r in raws])
        print(f"{name:10s} parse {parse * 1e3:8.2f} ms  split {split * 1e3:7.2f} ms  "
              f"split/parse {split / parse:5.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
