"""Flag sets shared by the engine tests (small loads: the tiny pair on 2 shared cores)."""

from __future__ import annotations

BASE = "--model tiny --num-requests 6 --concurrency 3 --max-new-tokens 20".split()
TREE = ("--speculative-eagle-topk 4 --speculative-num-steps 3 --speculative-num-draft-tokens 16 "
        "--worker v1").split()
CHAIN_V1 = "--speculative-eagle-topk 1 --speculative-num-steps 3 --worker v1".split()
CHAIN_V2 = "--speculative-eagle-topk 1 --speculative-num-steps 3 --worker v2".split()
PLAIN = "--speculative-algorithm NONE".split()
# v2 let through with a tree (topk 4): the fault switch that breaks v2's fixed bs x N layout.
V2_TOPK4 = [*BASE, *("--worker v2 --speculative-eagle-topk 4 --speculative-num-draft-tokens 8 "
                     "--fault v2_allow_topk_gt1").split()]
# The story's crash: 2 clients, 8 more join at iteration 2 (before the first two can finish
# whatever the acceptance: >= 16 tokens each, <= 4 per step), threshold 8, tree of 16.
STORY = [*("--model tiny --num-requests 12 --concurrency 10 --max-new-tokens 32 --ramp-clients 2 "
           "--ramp-step 2 --speculative-disable-batch-threshold 8").split(), *TREE]
# Story crash 2 needs a batch of more than 2 when the switch re-allocates (2 would unpack).
STORY_ALLOC = [*("--model tiny --num-requests 12 --concurrency 10 --max-new-tokens 32 "
                 "--ramp-clients 4 --ramp-step 2 --speculative-disable-batch-threshold 8").split(),
               *TREE]
# Load that crosses a threshold of 7 both ways: 9 clients, requests of varied length, think time.
CHURN = ("--model tiny --num-requests 24 --concurrency 9 --max-new-tokens 16 "
         "--speculative-disable-batch-threshold 7").split()
# A long plain phase then a resume: 2 clients, 8 more at iteration 2, threshold 4.
RAMP = ("--model tiny --num-requests 10 --concurrency 10 --max-new-tokens 48 --ramp-clients 2 "
        "--ramp-step 2 --speculative-disable-batch-threshold 4").split()


def accepted_after_resume(run, window: int = 3) -> list[int]:
    """Accepted counts of the first ``window`` verify steps after each plain -> spec switch."""
    steps, out = run.of("step"), []
    for t in run.of("spec_toggle"):
        if t["to"] == "spec":
            after = [s for s in steps if s["step"] >= t["step"] and s["mode"] == "verify"]
            for s in after[:window]:
                out += s["accepted"]
    return out
