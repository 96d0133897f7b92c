"""Score a triage of a gen_log.py log against its FILE.truth.json: crashes lost and invented.

Usage: python benchmarks/score_truth.py FILE [FILE ...]

Per file it prints the root causes reported against the true ones, the recall (a true root
found as a root incident of its type holding its first line), the invented roots (root
incidents holding no true root's line), and how many true multi-rank crashes came back as one
incident with every rank and the right origin.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from spectrace.incidents import Incident
from spectrace.pipeline import analyse


@dataclass(frozen=True, slots=True)
class Score:
    roots: int  # root incidents reported
    true_roots: int
    found: int  # true roots found as a root of their type at their first line
    invented: int  # root incidents that hold no true root's line
    whole: int  # true roots reported as one incident with all their ranks, origin first
    secs: float


def score(path: str) -> Score:
    truth = json.loads(Path(f"{path}.truth.json").read_text())
    start = time.perf_counter()
    incidents = analyse([path]).incidents
    secs = time.perf_counter() - start
    roots = [i for i in incidents if i.root_cause]
    true_roots = [t for t in truth["incidents"] if t["root_cause"]]
    true_lines = {line for t in true_roots for line in t["lines"]}
    found = sum(1 for t in true_roots if _holder(roots, t) is not None)
    whole = sum(1 for t in true_roots if _whole(_holder(roots, t), t))
    invented = sum(1 for r in roots if not {o.lineno for o in r.occurrences} & true_lines)
    return Score(len(roots), len(true_roots), found, invented, whole, secs)


def _holder(roots: list[Incident], true: dict) -> Incident | None:
    return next(
        (r for r in roots if r.exception_type == true["type"]
         and true["lines"][0] in {o.lineno for o in r.occurrences}), None,
    )  # fmt: skip


def _whole(found: Incident | None, true: dict) -> bool:
    if found is None:
        return False
    ranks = [r for r in true["ranks"] if r]
    return set(ranks) <= set(found.ranks) and (not ranks or found.origin_rank == ranks[0])


def main() -> int:
    for path in sys.argv[1:]:
        s = score(path)
        print(f"{path}: {s.roots} root causes for {s.true_roots} true; recall {s.found}/{s.true_roots}; "
              f"invented {s.invented}; whole with origin {s.whole}/{s.true_roots}; {s.secs:.1f} s")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
