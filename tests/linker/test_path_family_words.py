"""Family words as a report writes them (path_base.family_words): lists joined by slashes,
TensorRT-LLM's own one-word mode names, and a negated "works" that reports the run's failure."""

from __future__ import annotations

import pytest

from spectrace.path_base import family_words


@pytest.mark.parametrize(
    ("line", "families"),
    [
        # a list of family words is two words, not a path (r26 28's title shape)
        ("[Bug]: KV offload never serves when MTP/EAGLE speculative decoding is enabled",
         {"MTP", "EAGLE"}),
        ("Crash with EAGLE/EAGLE3 drafts on ROCm", {"EAGLE", "EAGLE3"}),
        # TensorRT-LLM's "MTP Eagle" is one MTP mode, not MTP beside EAGLE (r26 34 shape)
        ("MTP vanilla now matches MTP Eagle on R1", {"MTP"}),
        ("Hang in MTP-Eagle with 3 layers", {"MTP"}),
        ("MTPEagle accept rate drops after the update", {"MTP"}),
        ("# Recurrent Drafter not working on 0.21", {"EXPLICIT_DRAFT_TOKENS"}),
        ("NextN does not work on the new release", {"MTP"}),
        # the run works only with the method off: the method is the run's (r27 33's title shape)
        ("Qwen3-DSpark crashes at start with DSpark decoding (works fine when disabled)",
         {"DSPARK"}),
        ("MTP hangs after warmup; works if it is turned off", {"MTP"}),
        # a switch further on, past a word opening another clause, is another thing's
        ("EAGLE3 with overlap disabled crashes the scheduler", {"EAGLE3"}),
        ("NextN hangs when the radix cache is disabled", {"MTP"}),
        ("Medusa falls off a cliff at batch 64", {"MEDUSA"}),
        ("Once I enable DFlash, the server would crash within minutes", {"DFLASH"}),
    ],
)
def test_family_words_a_run_names(line: str, families: set[str]) -> None:
    assert family_words(line) == families


@pytest.mark.parametrize(
    "line",
    [
        "/models/MTP/EAGLE/config.json is the draft",  # a path, not a list
        "see mtp/speculative-decode for the label",
        "MTPEagleWorker.forward raised",  # a class name: the class readers' business
        "without MTP Eagle the server is stable",  # named as off
        "EAGLE3 works fine, the plain server crashes",  # another run that works
        "EAGLE works fine when the prefix cache is disabled",  # works, with something else off
        "MTP works but the draft is slow, EAGLE not working either? maybe",  # a question
        # named as off a few words on, in the same clause
        "We kept Medusa on that box switched off for the sweep",
        "NextN in our config is disabled",
        # a counterfactual: what the method would do, not what ran
        "With DFlash the numbers would probably double",
        "EAGLE3 might help here",
    ],
)
def test_no_family_where_the_line_names_none_of_the_run(line: str) -> None:
    assert family_words(line) == set()
