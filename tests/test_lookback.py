"""Load context looked up before each crash: what is remembered between crashes never changes it."""

from __future__ import annotations

import random
from functools import partial
from pathlib import Path

import pytest

from spectrace.lookback import LoadLookback
from spectrace.pipeline import build_spec
from spectrace.read import Reader
from spectrace.ruleset import RuleSet
from spectrace.scan import ScanResult, scan_range

SITE = "/usr/local/lib/python3.12/dist-packages/sglang/srt"


def decode(tp: int, running: int) -> str:
    return (f"[2026-02-27 21:00:01 TP{tp}] Decode batch, #running-req: {running}, #token: 100, "
            "token usage: 0.01, accept len: 2.50, accept rate: 0.40, cuda graph: True, "
            "gen throughput (token/s): 300.00, #queue-req: 0")  # fmt: skip


def crash(n: int, tp: int) -> list[str]:
    return [
        f"[2026-02-27 21:00:02 TP{tp}] Scheduler hit an exception: Traceback (most recent call last):",
        f'  File "{SITE}/managers/scheduler.py", line 2703, in run_scheduler_process',
        f'  File "{SITE}/layers/op_{n}.py", line {100 + n}, in forward_op_{n}',
        f"ValueError: op {n} failed",
    ]


def dense_log(path: Path, seed: int) -> Path:
    """Crash after crash, load lines now and then: long stretches hold none, some hold many."""
    rng = random.Random(seed)
    lines = []
    for n in range(400):
        lines += crash(n, n % 4)
        if n >= 100 and rng.random() < 0.15:  # the first 100 crashes have no load line before
            lines += [decode(tp, rng.randrange(1, 64)) for tp in range(rng.randrange(1, 5))]
        lines += [
            f"[2026-02-27 21:00:03 TP{n % 4}] Prefill chunk {n}" for _ in range(rng.randrange(3))
        ]
    path.write_text("\n".join(lines) + "\n")
    return path


def loads(result: ScanResult) -> list[tuple[int, list[tuple[int, str | None, int | None]]]]:
    return [(c.lineno, [(s.lineno, s.rank, s.running_req) for s in samples])
            for c, samples in zip(result.crashes, result.load, strict=True)]  # fmt: skip


@pytest.mark.parametrize(("seed", "block"), [(1, 4096), (2, 65_536), (3, 4 << 20)])
def test_load_context_is_what_a_fresh_look_back_finds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, block: int
) -> None:
    log = dense_log(tmp_path / "server.log", seed)
    spec = build_spec(RuleSet.load(), [])
    monkeypatch.setattr("spectrace.scan.Reader", partial(Reader, block_size=block))
    remembered = loads(scan_range(str(log), spec))
    find = LoadLookback._find

    def forgetful(self: LoadLookback, *args: object) -> list[int]:
        self._empty.clear()  # every look back searches its whole span again
        return find(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(LoadLookback, "_find", forgetful)
    assert loads(scan_range(str(log), spec)) == remembered
    assert len(remembered) == 400
    assert not any(s for _, s in remembered[:100]) and all(s for _, s in remembered[200:])
