"""Flag sets shared by the engine tests (small loads: the tiny pair on 2 shared cores)."""

from __future__ import annotations

BASE = ["--model", "tiny", "--num-requests", "6", "--concurrency", "3", "--max-new-tokens", "20"]
TREE = [
    "--speculative-eagle-topk",
    "4",
    "--speculative-num-steps",
    "3",
    "--speculative-num-draft-tokens",
    "16",
    "--worker",
    "v1",
]
CHAIN_V1 = ["--speculative-eagle-topk", "1", "--speculative-num-steps", "3", "--worker", "v1"]
CHAIN_V2 = ["--speculative-eagle-topk", "1", "--speculative-num-steps", "3", "--worker", "v2"]
PLAIN = ["--speculative-algorithm", "NONE"]
# The story's crash: 2 clients, 8 more join at iteration 3, threshold 8, tree of 16.
STORY = [
    "--model",
    "tiny",
    "--num-requests",
    "12",
    "--concurrency",
    "10",
    "--max-new-tokens",
    "16",
    "--ramp-clients",
    "2",
    "--ramp-step",
    "3",
    "--speculative-disable-batch-threshold",
    "8",
    *TREE,
]


# Load that crosses a threshold of 7 both ways: 9 clients, requests of varied length, think time.
CHURN = [
    "--model",
    "tiny",
    "--num-requests",
    "24",
    "--concurrency",
    "9",
    "--max-new-tokens",
    "16",
    "--speculative-disable-batch-threshold",
    "7",
]


def accepted_after_resume(run, window: int = 3) -> list[int]:
    """Accepted counts of the first ``window`` verify steps after each plain -> spec switch."""
    steps, out = run.of("step"), []
    for t in run.of("spec_toggle"):
        if t["to"] == "spec":
            after = [s for s in steps if s["step"] >= t["step"] and s["mode"] == "verify"]
            for s in after[:window]:
                out += s["accepted"]
    return out
