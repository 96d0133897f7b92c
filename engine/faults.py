"""Named, switchable faults: each reproduces a real failure class so diagnoses can be tested on truth."""

from __future__ import annotations

from enum import StrEnum


class Fault(StrEnum):
    """One injected defect; the value is the CLI name (``--fault stale_spec_info``)."""

    # v1 skips ScheduleBatch.clear_for_nonspec on the switch to plain decode, so the target graph
    # runner lays out bs x num_draft_tokens rows from the stale EagleDraftInput (story crash 1).
    STALE_SPEC_INFO = "stale_spec_info"
    # The fix for crash 1 re-allocates one slot per request on the switch to plain, but unpacks
    # alloc_token_slots as if backup_state=True: ValueError once bs > 2 (story crash 2).
    ALLOC_UNPACK = "alloc_unpack"
    # spec_info is cleared on the ModelWorkerBatch copy, the ScheduleBatch keeps it: the decode
    # graphs get the stale 2-row inputs for a 10-row batch (story crash 3).
    CLEAR_MWB_SPEC_INFO = "clear_mwb_spec_info"
    # On plain -> speculative, the draft KV is not caught up: no crash, acceptance collapses.
    SKIP_DRAFT_KV_SYNC = "skip_draft_kv_sync"
    # Re-enable speculation the first step the batch is under the threshold: the switch flaps.
    NO_HYSTERESIS = "no_hysteresis"
    # Let EAGLEWorkerV2 run with topk > 1: its fixed chain layouts break with a shape error.
    V2_ALLOW_TOPK_GT1 = "v2_allow_topk_gt1"
    # Padded graph rows keep the previous replay's values (stale slots, columns, tokens).
    DIRTY_PADDING = "dirty_padding"
    # Poison one request's target logits with NaN; the sampler's NaN check crashes the step.
    NAN_LOGITS = "nan_logits"
    # The last TP rank sleeps before a collective; its peers time out (collateral), bounded.
    HANG_BEFORE_COLLECTIVE = "hang_before_collective"


def parse_faults(names: list[str] | tuple[str, ...]) -> frozenset[Fault]:
    """CLI/env names -> faults; an unknown name raises ValueError listing the valid ones."""
    out: set[Fault] = set()
    for raw in names:
        for name in raw.split(","):
            name = name.strip()
            if not name:
                continue
            try:
                out.add(Fault(name))
            except ValueError:
                valid = ", ".join(f.value for f in Fault)
                raise ValueError(f"unknown fault {name!r} (valid: {valid})") from None
    return frozenset(out)
