"""ShapeMismatch + run facts -> the arithmetic that explains it (160 = 10 x 16)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why the numbers of a shape mismatch are what they are, or that we cannot tell.

    ``terms`` maps each number of the mismatch (as text, e.g. "160") to the product that
    produced it ("10 running requests x 16 draft tokens"); ``tensor`` names the spec_info
    tensor the shape belongs to when it can be told (LOG_FORMATS.md 1.7).
    """

    explained: bool
    summary: str  # one sentence a user reads first
    terms: dict[str, str]
    tensor: str | None
    facts: dict[str, int]  # the run facts used: running_req, num_draft_tokens, topk, steps, ...
