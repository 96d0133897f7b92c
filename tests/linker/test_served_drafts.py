"""A draft a trainer made is served by the run that names it ("+ SpecForge draft", "a
SpecForge-trained EAGLE3 draft", "EAGLE with a trained draft"): the line's method is the run's.
Training a draft ("Training Eagle3 for X fails", "I trained the EAGLE draft with SpecForge",
"SpecForge training OOM") is no serving run (``spec_prose._TRAINING`` through ``set_apart``).
A PR's verified line naming its SpecForge draft decides its family in
tests/linker/test_ticked_test_plan.py. Every line is ours, in the shapes of saved PRs and issues
(round 40 09, round 42 10)."""

from __future__ import annotations

import pytest

from spectrace.assemblers.spec_prose import set_apart


@pytest.mark.parametrize("said", [
    "Verified with EAGLE3 (a 30B MoE target in FP8 + SpecForge draft, `--speculative-num-steps 3`)",
    "Serving with a SpecForge-trained EAGLE3 draft on 8x H200",
    "EAGLE with a trained draft, fully reproducible:",
    "The trained Eagle head gives an accept length of 1.2.",
])  # fmt: skip
def test_a_served_draft_a_trainer_made_is_no_training_line(said: str) -> None:
    assert not set_apart(said)


@pytest.mark.parametrize("said", [
    "Training Eagle3 for a 120B model fails with a NaN loss",
    "I trained the EAGLE draft with SpecForge and the loss diverges",
    "SpecForge training OOMs at step 10",
    "How to train EAGLE3 heads for a new target?",
])  # fmt: skip
def test_training_a_draft_stays_apart(said: str) -> None:
    assert set_apart(said)

