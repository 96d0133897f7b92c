"""TensorRT-LLM's own mode names as words (trtllm_words): SA / Suffix Automaton, ReDrafter /
Recurrent Drafter / explicit draft tokens, MTP Eagle as one MTP word; our own lines."""

from __future__ import annotations

import pytest

from spectrace.assemblers.trtllm_words import (
    ENGINE_ONLY,
    PROSE_DECODING_TYPES,
    WORD_LITERALS,
    trtllm_word_matches,
)


def _families(text: str) -> list[str]:
    return sorted({m.family for m in trtllm_word_matches(text)})


@pytest.mark.parametrize(
    "text",
    [
        "# [Bug]: SA (Suffix Automaton) speculative decoding hangs when the prompt is long",
        "Suffix automaton drafting returns no tokens after a restart",
        "Clean A/B with SA md=3 on eight GPUs, CUDA graphs on",
        "SA specdec + overlap scheduler corrupts the output",
        "SA speculative decoding with max_draft_len 4",
    ],
)
def test_suffix_automaton_names(text: str) -> None:
    """Every way TensorRT-LLM's threads write its suffix automaton names SUFFIX (SAWorker)."""
    assert _families(text) == ["SUFFIX"]


@pytest.mark.parametrize(
    "text",
    [
        "The SA region of the report",  # the abbreviation alone is no mode
        "USA and SA teams both saw it",
        "Loaded the SA-1B dataset",
        "see tensorrt_llm/_torch/speculative/suffix_automaton.py for the kernel",  # a file
    ],
)
def test_sa_alone_or_in_a_path_names_nothing(text: str) -> None:
    assert _families(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "# Recurrent Drafter produces one token per step",
        "ReDrafter engine built for Vicuna fails at load",
        "re-drafter with beam width 8",
        "speculative_decoding_mode explicit_draft_tokens was set at build",
    ],
)
def test_redrafter_names_explicit_draft_tokens(text: str) -> None:
    assert _families(text) == ["EXPLICIT_DRAFT_TOKENS"]


def test_redrafter_paths_name_nothing() -> None:
    """A folder or a repository name is no run's word (``examples/redrafter``, the authors'
    ``ml-recurrent-drafter``)."""
    assert _families("Follow examples/redrafter/README.md and apple/ml-recurrent-drafter") == []


@pytest.mark.parametrize("text", ["MTP Eagle is faster here", "MTP-Eagle with nextn 3",
                                  "MTPEagle on DeepSeek-R1", "mtp eagle mode"])
def test_mtp_eagle_is_one_mtp_word(text: str) -> None:
    """"MTP Eagle" is one MTP mode: its span covers the Eagle word a family reader would
    otherwise read as a second family."""
    (match,) = trtllm_word_matches(text)
    assert match.family == "MTP"
    assert "agle" in text[match.start : match.end].lower()


def test_class_and_enum_names_are_not_words() -> None:
    """``MTPEagleWorker``, ``MTP_EAGLE_ONE_MODEL`` and a review's ``MTP_Eagle`` (the enum's
    spelling, R26 01's shape) are code names other readers handle, not the run's mode."""
    assert _families("MTPEagleWorker and MTP_EAGLE_ONE_MODEL") == []
    assert _families("For MTP, only `MTP_Eagle` has extra KV tokens; see mtp_eagle") == []


def test_every_word_has_a_literal_that_keeps_its_line() -> None:
    """Each name the reader knows holds one of WORD_LITERALS (the scan keeps only such lines)."""
    for text in ("SA (Suffix", "SA md=2", "SA specdec", "Recurrent Drafter", "ReDrafter",
                 "explicit_draft_tokens", "MTP Eagle", "MTP-Eagle", "MTPEagle", "mtp eagle"):
        assert any(lit in text for lit in WORD_LITERALS), text


def test_tables_cover_suffix_and_redrafter() -> None:
    assert PROSE_DECODING_TYPES["SUFFIX"] == "SA"
    assert "EXPLICIT_DRAFT_TOKENS" in ENGINE_ONLY


def test_pard_in_capitals_is_a_word_and_its_class_names_are_not() -> None:
    """PARD (parallel draft) as TensorRT-LLM's threads write it; ``PARDWorker`` and a hyphened
    compound are code or another word."""
    assert _families("# [Bug]: PARD speculative decoding hangs with CUDA graphs") == ["PARD"]
    assert _families("PARDWorker raised in the draft loop; a PARD-like scheme") == []
    assert _families("we pard the leaves") == []


def test_every_decoding_type_family_is_a_value_the_yaml_reader_knows() -> None:
    """Each prose family stands for a ``decoding_type`` the YAML reader maps to a method."""
    from spectrace.assemblers.trtllm_config import trtllm_spec_flags

    for family, value in PROSE_DECODING_TYPES.items():
        flags = trtllm_spec_flags(f"  decoding_type: {value}")
        assert flags.get("speculative_config.method"), (family, value)
