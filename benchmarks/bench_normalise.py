"""Cost of reading pasted logs: ``normalise`` (docker JSON, ANSI, paste marks) and ``LineParser``
on plain lines vs on the same lines as issue threads paste them, as ratios to a floor measured
in the same run (UTF-8 decode + ``str.rstrip`` of the same bytes).

Run: ``python benchmarks/bench_normalise.py`` (prints medians and ratios; no assertions).
"""

from __future__ import annotations

import json

from timing import median_s

from spectrace.dialects.detect import LineParser, normalise

TRACE = [
    "[2026-03-02 10:15:42 TP3] Scheduler hit an exception: Traceback (most recent call last):",
    '  File "/srv/sglang/srt/managers/scheduler.py", line 2769, in run_scheduler_process',
    "    scheduler.event_loop_normal()",
    '  File "/srv/sglang/srt/speculative/eagle_worker.py", line 325, in verify',
    "RuntimeError: The size of tensor a (96) must match the size of tensor b (12) at dim 0",
    "[2026-03-02 10:15:42 TP0] Decode batch, #running-req: 12, #token: 8421, #queue-req: 0, ",
]
SHAPES = {
    "plain": TRACE,
    "quoted": ["> " + line for line in TRACE],
    "k9s box": ["│ " + line + " " * 40 + "│" for line in TRACE],
    "indented": ["  " + line for line in TRACE],
    "docker json": [json.dumps({"log": line + "\n", "stream": "stderr"}) for line in TRACE],
}
REPEAT = 4000  # lines per shape: ~24k


def main() -> None:
    for name, lines in SHAPES.items():
        raws = [line.encode() for line in lines] * REPEAT
        floor = median_s(lambda raws=raws: [r.decode().rstrip("\r\n") for r in raws])
        norm = median_s(lambda raws=raws: [normalise(r) for r in raws])
        parse = median_s(lambda raws=raws: _parse_all(raws))
        print(
            f"{name:12s} floor {floor * 1e3:7.1f} ms  normalise {norm / floor:5.1f}x"
            f"  parse {parse / floor:6.1f}x"
        )


def _parse_all(raws: list[bytes]) -> None:
    parser = LineParser("bench.log")
    for n, raw in enumerate(raws, 1):
        parser.parse(raw, n, 0)


if __name__ == "__main__":
    main()
