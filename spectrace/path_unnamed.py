"""What a speculating SGLang run whose algorithm no line names could have run, besides the EAGLE
family's worker: the case of a decode line's ``accept len`` being the only proof of speculation.

Why: every SGLang release prints ``accept len`` for any speculative algorithm (the scheduler's
decode log tests ``spec_algorithm.is_none()`` only), so the counter proves speculation, not
EAGLE. A scheduler loop frame then tells the overlap state, and each algorithm the release
bound leaves runs its own worker in that state; the verdict names each one as a condition on
the algorithm. Before STANDALONE (0.5.2) only the EAGLE family existed, so the loop decides;
the overlap loop drives only V2 workers, so before STANDALONE's (0.5.8) it decides EAGLE's.
"""

from __future__ import annotations

from spectrace.assemblers.dump_path import verdict_from_dump
from spectrace.assemblers.sglang_eras import Version, parse_release
from spectrace.assemblers.spec_prose import eagle_family
from spectrace.path_frames import method_releases


def other_workers(
    era: str | None, release: Version | None, newest: Version | None
) -> dict[str, str]:
    """Loop path ("v1": the normal loop, overlap off; "v2": the overlap loop) -> "Worker for
    ALGO; ..." over the algorithms outside the EAGLE family that the release (or the newest
    release the log's dates allow) holds; a path none of them leaves is absent."""
    bound = release or newest
    out: dict[str, str] = {}
    for path, overlap in (("v1", False), ("v2", True)):
        parts = []
        for algorithm, first in method_releases("sglang"):
            since = parse_release(first.removeprefix("v"))
            if eagle_family(algorithm.upper()) or since is None:  # EAGLE, EAGLE3, NEXTN
                continue
            if bound is not None and since > bound:
                continue  # not released yet when the run's code was
            values = {"speculative_algorithm": algorithm, "disable_overlap_schedule": not overlap}
            verdict = verdict_from_dump(values, era, None, release, newest)
            if verdict is None or not (verdict.worker_class or verdict.condition):
                continue
            if overlap and verdict.points_to != "v2" and "V2" not in (verdict.condition or ""):
                continue  # the overlap loop drives V2 workers only (NGRAM refuses it)
            parts.append(f"{verdict.worker_class or verdict.condition} for {algorithm}")
        if parts:
            out[path] = "; ".join(parts)
    return out
