"""Write crash-dense logs (every request failing): thousands of tracebacks in four shapes.

Usage: python benchmarks/gen_crash_dense.py --out DIR [--crashes N]

Shapes: ``plain`` (bare Python tracebacks, as uvicorn prints a failing request), ``chained``
(``During handling ...`` chains of two), ``ranks`` (8 SGLang ranks, headers tagged, bodies
interleaved line by line), ``vllm`` (every line under a vLLM process tag and ERROR header) and
``worker`` (each rank's scheduler dying in turn through the speculative worker's frames, the
frames the path readers look at, with decode records between).
Deterministic: the same arguments give the same files.
"""

from __future__ import annotations

import argparse
from datetime import datetime, timedelta
from pathlib import Path

SITE = "/usr/local/lib/python3.12/dist-packages"
START = datetime(2026, 2, 27, 21, 0, 0)
EXCEPTIONS = ("RuntimeError", "ValueError", "KeyError", "AssertionError", "IndexError")


def _body(n: int) -> list[str]:
    """Frames and exception line of crash ``n``: 25 distinct failing functions, repeated."""
    k = n % 25
    return [
        "Traceback (most recent call last):",
        f'  File "{SITE}/uvicorn/protocols/http/httptools_impl.py", line 409, in run_asgi',
        "    result = await app(  # type: ignore[func-returns-value]",
        f'  File "{SITE}/sglang/srt/entrypoints/http_server.py", line 512, in generate_request',
        "    ret = await _global_state.tokenizer_manager.generate_request(obj, request)",
        f'  File "{SITE}/sglang/srt/managers/tokenizer_manager.py", line {400 + k}, in handle_{k}',
        f"    raise {EXCEPTIONS[k % 5]}(msg)",
        f"{EXCEPTIONS[k % 5]}: request {n} failed: bad input {k}",
    ]


def plain(n: int) -> list[str]:
    return ["ERROR:    Exception in ASGI application", *_body(n)]


def chained(n: int) -> list[str]:
    cause = _body(n + 7)
    return [*cause, "", "During handling of the above exception, another exception occurred:", "",
            *_body(n)]  # fmt: skip


def ranks(n: int) -> list[str]:
    """One crash printed by 8 ranks at once: tagged headers, untagged bodies interleaved."""
    stamp = (START + timedelta(seconds=n)).strftime("%Y-%m-%d %H:%M:%S")
    body = _body(n)[1:]
    lines = [f"[{stamp} TP{r}] Scheduler hit an exception: Traceback (most recent call last):"
             for r in range(8)]  # fmt: skip
    for line in body:
        lines.extend([line] * 8)
    return lines


def vllm(n: int) -> list[str]:
    stamp = (START + timedelta(seconds=n)).strftime("%m-%d %H:%M:%S")
    tag = f"(EngineCore_DP0 pid={3990 + n % 4})"
    return [f"{tag} ERROR {stamp} [core.py:710] {line}" for line in _body(n)]


def worker(n: int) -> list[str]:
    """Rank ``n % 8`` dies in the EAGLE worker's verify; its decode record comes first."""
    stamp = (START + timedelta(seconds=n)).strftime("%Y-%m-%d %H:%M:%S")
    head = f"[{stamp} TP{n % 8}]"
    srt = f"{SITE}/sglang/srt"
    return [
        f"{head} Decode batch. #running-req: {n % 40}, #token: {900 + n}, gen throughput (token/s): 81.20",
        f"{head} Scheduler hit an exception: Traceback (most recent call last):",
        f'  File "{srt}/managers/scheduler.py", line 2573, in run_scheduler_process',
        f'  File "{srt}/managers/scheduler.py", line 1032, in event_loop_normal',
        f'  File "{srt}/speculative/eagle_worker.py", line 287, in forward_batch_speculative_generation',
        f'  File "{srt}/speculative/eagle_worker.py", line 631, in verify',
        f"{EXCEPTIONS[n % 5]}: request {n} failed in verify",
    ]


SHAPES = {"plain": plain, "chained": chained, "ranks": ranks, "vllm": vllm, "worker": worker}


def write(path: Path, shape: str, crashes: int) -> None:
    """One log of ``crashes`` crashes (``ranks``: crashes / 8 events of 8 tracebacks)."""
    make = SHAPES[shape]
    count = crashes // 8 if shape == "ranks" else crashes
    lines = [f"INFO:     Started server process [{100 + len(shape)}]"]
    for n in range(count):
        lines.extend(make(n))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--crashes", type=int, default=5000)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for shape in SHAPES:
        write(args.out / f"{shape}.log", shape, args.crashes)
        print(args.out / f"{shape}.log")


if __name__ == "__main__":
    main()
