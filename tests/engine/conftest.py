"""Run the engine through its CLI and read what it wrote (events with ``json``, the log as text)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import pytest
from spectrace_engine.entrypoints.cli import engine_app
from typer.testing import CliRunner


@dataclass
class Run:
    code: int
    out: Path
    output: str
    events: list[dict]

    @property
    def log(self) -> Path:
        return self.out / "engine.log"

    def of(self, kind: str, rank: int | None = None) -> list[dict]:
        return [
            e for e in self.events if e["event"] == kind and (rank is None or e["rank"] == rank)
        ]

    def outputs(self) -> dict[int, list[int]]:
        return {e["rid"]: e["output_ids"] for e in self.of("request_finish", 0)}

    def end(self, rank: int = 0) -> dict:
        return self.of("run_end", rank)[0]


def read_events(out: Path) -> list[dict]:
    events = []
    for path in sorted(out.glob("events*.jsonl")):
        with path.open() as fh:
            events += [json.loads(line) for line in fh]
    return events


def on_test_device(flags: tuple[str, ...]) -> tuple[str, ...]:
    """SPECTRACE_ENGINE_DEVICE=cuda reruns the CPU matrix on a GPU (one-GPU runs only)."""
    device = os.environ.get("SPECTRACE_ENGINE_DEVICE")
    tp = flags[flags.index("--tp") + 1] if "--tp" in flags else "1"
    if not device or "--device" in flags or tp != "1":
        return flags
    return (*flags, "--device", device)


@pytest.fixture(scope="session")
def engine_run(tmp_path_factory: pytest.TempPathFactory):
    """``engine_run(*flags)`` -> Run; identical flag lists share one run per session."""
    cache: dict[tuple[str, ...], Run] = {}

    def run(*flags: str) -> Run:
        flags = on_test_device(flags)
        if flags not in cache:
            out = tmp_path_factory.mktemp("engine")
            res = CliRunner().invoke(engine_app, ["run", "--out", str(out), *flags])
            if res.exception is not None and not isinstance(res.exception, SystemExit):
                raise res.exception
            cache[flags] = Run(res.exit_code, out, res.output, read_events(out))
        return cache[flags]

    return run
