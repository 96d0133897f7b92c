"""Refresh sample_logs/engine_*/ from real engine runs (CPU), with expected.json from the events.

    python benchmarks/make_engine_samples.py

Each sample directory gets the engine's log and events, a README.md saying how it was made, and
an expected.json whose truth comes from the events (read with json), never from the log.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARKER = "Dynamic speculation disable enabled"
TREE = ("--speculative-eagle-topk 4 --speculative-num-steps 3 --speculative-num-draft-tokens 16 "
        "--worker v1").split()
SAMPLES = {
    "engine_v1_stale_spec_info": [
        *("--model tiny --num-requests 12 --concurrency 10 --max-new-tokens 32 --ramp-clients 2 "
          "--ramp-step 2 --speculative-disable-batch-threshold 8").split(),
        *TREE, "--fault", "stale_spec_info"],
    "engine_v1_alloc_unpack": [
        *("--model tiny --num-requests 12 --concurrency 10 --max-new-tokens 32 --ramp-clients 4 "
          "--ramp-step 2 --speculative-disable-batch-threshold 8").split(),
        *TREE, "--fault", "alloc_unpack"],
    "engine_plain_overlap": (
        "--model tiny --num-requests 12 --concurrency 6 --max-new-tokens 24 "
        "--speculative-algorithm NONE").split(),
    "engine_v2_dynamic_disable": (
        "--model tiny --num-requests 24 --concurrency 9 --max-new-tokens 16 "
        "--speculative-disable-batch-threshold 7 --speculative-eagle-topk 1 "
        "--speculative-num-steps 3 --worker v2").split(),
}


def run(name: str, flags: list[str]) -> Path:
    out = ROOT / "sample_logs" / name
    shutil.rmtree(out, ignore_errors=True)
    cmd = ["spectrace", "engine", "run", "--out", f"sample_logs/{name}", *flags]
    subprocess.run(
        [sys.executable, "-m", "spectrace", *cmd[1:]], cwd=ROOT, check=False, timeout=600
    )
    (out / "README.md").write_text(
        f"made by `{' '.join(cmd)}` on {date.today().isoformat()}, CPU\n"
    )
    return out


def expected(name: str, out: Path) -> dict:
    events = [json.loads(line) for line in (out / "events.jsonl").read_text().splitlines()]
    start = next(e for e in events if e["event"] == "run_start")
    spec = start["config"]["spec"]
    doc = {
        "sample": name,
        "summary": f"real engine run ({start['worker_class']}), see README.md",
        "inputs": ["engine.log"],
        "expect": [MARKER] if spec["disable_batch_threshold"] is not None else [],
        "incidents": [],
        "missing_markers": [],
        "config": {
            "speculative_algorithm": spec["algorithm"],
            **{  # a plain server's dump prints None for these, as SGLang's does
                f"speculative_{k}": spec[k] if spec["algorithm"] else None
                for k in ("eagle_topk", "num_steps", "num_draft_tokens")
            },
            "disable_overlap_schedule": start["disable_overlap_schedule"],
        },
    }
    lines = (out / "engine.log").read_text().splitlines()
    for err in (e for e in events if e["event"] == "error" and not e["collateral"]):
        first = next(
            i
            for i, line in enumerate(lines, 1)
            if line.startswith(f"[{err['log_ts']}") and "Scheduler hit an exception" in line
        )
        doc["incidents"] += [
            {
                "exception_type": err["exc_type"],
                "message_contains": err["message"],
                "root_cause": True,
                "origin_rank": None,
                "first_line": first,
                "worker_path": start["worker"],
                "worker_class": start["worker_class"],
                **_shape(err),
            },
            {
                "optional": True,
                "root_cause": False,
                "caused_by": 0,
                "message_contains": "SIGQUIT received",
            },
        ]
    return doc


def _shape(err: dict) -> dict:
    """The story's numbers: live rows against the stale draft input's rows."""
    if not err["message"].startswith("The size of tensor a"):
        return {}
    stale = err["spec_info"]["shapes"]["verified_id"][0]
    return {"shape": {"a": err["rows"], "b": stale, "dim": 0}}


def main() -> None:
    for name, flags in SAMPLES.items():
        out = run(name, flags)
        (out / "expected.json").write_text(json.dumps(expected(name, out), indent=2) + "\n")
        print(f"{name}: {sorted(p.name for p in out.iterdir())}")


if __name__ == "__main__":
    main()
