"""Cost of the semantic layer's per-line parsers, as ratios to a floor measured in the same run.

* ``parse_load_line`` on Decode batch lines vs a bare ``str.split(", ")`` of the same lines;
* ``ConfigCollector.feed`` on a 349-field ``server_args=`` dump vs ``ast.parse`` of it, and
  on a truncated dump (the fallback scanner) vs the same floor.

Run: ``python benchmarks/bench_load.py`` (prints medians and ratios; no assertions).
"""

from __future__ import annotations

import ast

from timing import median_s

from spectrace.assemblers.config import ConfigCollector
from spectrace.assemblers.load import parse_load_line
from spectrace.dialects.base import LogLine

DECODE = (
    "Decode batch, #running-req: {r}, #token: 8421, token usage: 0.04, accept len: 2.87, "
    "accept rate: 0.72, cuda graph: True, gen throughput (token/s): 1543.21, #queue-req: 0"
)


def _dump() -> str:
    """A dump shaped like 0.5.10's: 349 fields of mixed literal types and object reprs."""
    values: list[object] = ["'auto'", "None", "True", "0.88", "[1, 2, 4, 8, 16, 32]", "'{}'", "300"]
    fields = [f"field_{i}={values[i % len(values)]}" for i in range(340)]
    fields += [
        "speculative_algorithm='EAGLE3'", "speculative_eagle_topk=4", "speculative_num_steps=5",
        "speculative_num_draft_tokens=16", "disable_overlap_schedule=True", "tp_size=8",
        "lora_paths=[LoRARef(lora_id='1', lora_name='a', lora_path='/p', pinned=False)]",
        "cuda_graph_bs=[1, 2, 4, 8, 10, 12, 14, 16]", "model_path='/models/a, b'",
    ]  # fmt: skip
    return "server_args=ServerArgs(" + ", ".join(fields) + ")"


def _line(text: str, i: int) -> LogLine:
    return LogLine("bench.log", i, 0, text, text, "sglang", "TP0", "TP0")


def main() -> None:
    texts = [DECODE.format(r=i % 64) for i in range(20_000)]
    lines = [_line(t, i) for i, t in enumerate(texts)]
    floor = median_s(lambda: [t.split(", ") for t in texts], repeat=7)
    parsed = median_s(lambda: [parse_load_line(x) for x in lines], repeat=7)
    print(f"Decode batch x{len(lines)}: split {floor * 1e3:.1f} ms, "
          f"parse_load_line {parsed * 1e3:.1f} ms, ratio {parsed / floor:.1f}x")  # fmt: skip

    dump = _dump()
    cut = dump[: len(dump) * 2 // 3]
    ast_floor = median_s(lambda: ast.parse(dump[len("server_args=") :], mode="eval"), repeat=21)
    for name, text in (("whole dump", dump), ("truncated dump", cut)):
        line = _line(text, 1)
        took = median_s(lambda line=line: ConfigCollector().feed(line), repeat=21)
        print(f"{name} ({len(text)} chars): ast.parse {ast_floor * 1e3:.2f} ms, "
              f"feed {took * 1e3:.2f} ms, ratio {took / ast_floor:.1f}x")  # fmt: skip


if __name__ == "__main__":
    main()
