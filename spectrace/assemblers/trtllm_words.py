"""TensorRT-LLM's own names of its speculative modes, as a report's words name them.

TensorRT-LLM calls some modes by names no other engine uses, so the family words every line is
read for miss them: "SA" / "Suffix Automaton" (``SADecodingConfig``, ``decoding_type: SA``,
``_torch/speculative/sa_worker.py``'s ``SAWorker``), "ReDrafter" / "Recurrent Drafter" (the
engine's EXPLICIT_DRAFT_TOKENS mode, ``examples/redrafter``, ``ExplicitDraftTokensLayer``) and
"MTP Eagle" (``MTPDecodingConfig`` without ``use_mtp_vanilla``: one MTP mode, not MTP beside
EAGLE), "Draft-Target-Model" / "draft/target" (the draft-target mode) and a Medusa heads
checkpoint named alone (``medusa-vicuna-7b-v1.3``). ``trtllm_word_matches`` gives each such word's family and span; the tables below say
what a TensorRT-LLM run whose text names a family runs (``path_named``'s TensorRT-LLM verdict).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# a word, not part of a path, a file or a class name (``examples/redrafter``, ``MTPEagleWorker``);
# ``MTP_Eagle`` / ``mtp_eagle`` are the enum's and the code's spellings (a review's note on
# ``is_mtp_eagle()``), not a writer's word for the run's mode
_WORD = re.compile(
    r"(?i)(?<![\w/.-])(?:(?P<mtp>mtp[ -]?eagle)|(?P<suffix>suffix[ _-]automaton)"
    r"|(?P<explicit>re-?drafter|recurrent[ _-]drafter|explicit[ _-]draft[ _-]tokens))"
    r"(?![\w/.-])"
    # "SA" alone is an ordinary abbreviation: only the speculative words right after it make it
    # TensorRT-LLM's suffix automaton ("SA (Suffix Automaton)", "SA speculative decoding",
    # "SA specdec", "SA md=2", "SA drafting")
    r"|(?<![\w/.-])(?P<sa>(?-i:SA))(?=\s*\((?i:suffix)|\s+(?i:spec\w*|md\s*=|draft\w*|worker)\b)"
    # PARD (parallel draft, PARDDecodingConfig), in its capitals only
    r"|(?<![\w/.-])(?P<pard>(?-i:PARD))(?![\w/.-])"
    # the draft-target mode by TensorRT-LLM's own name ("Draft-Target-Model", examples/
    # draft_target_model) and its users' ("draft/target", "target/draft model", "draft-target")
    r"|(?<![\w/.-])(?P<dtm>(?i:draft[ /_-]target|target[ /_-]draft)(?:[ _-]model)?"
    # a draft engine the engine flow built ("the draft and target TRT engines", "draft engine")
    r"|(?i:draft(?: and target)?(?: TRT| TensorRT)? engines?))(?![\w/.-])"
    # a Medusa heads checkpoint named alone (``medusa-vicuna-7b-v1.3``, the Medusa example's
    # heads): not a hub path (``FasterDecoding/medusa-...``), which the draft readers own
    r"|(?<![\w/.-])(?P<heads>(?i:medusa)-(?i:vicuna|llama|qwen|mistral|mixtral|zephyr)[\w.-]*)"
)
_FAMILY = {"mtp": "MTP", "suffix": "SUFFIX", "sa": "SUFFIX", "explicit": "EXPLICIT_DRAFT_TOKENS",
           "pard": "PARD", "dtm": "DRAFT_MODEL", "heads": "MEDUSA"}  # fmt: skip

# What a line must hold for ``trtllm_word_matches`` to find a word ("MTP" is a family literal
# already): the line reaches the family reader only through one of these.
WORD_LITERALS = ("Suffix Automaton", "Suffix automaton", "suffix automaton", "suffix_automaton",
                 "SA (", "SA spec", "SA md", "SA draft", "SA worker", "ReDrafter", "Redrafter",
                 "redrafter", "Re-Drafter", "Recurrent Drafter", "Recurrent drafter",
                 "recurrent drafter", "EXPLICIT_DRAFT_TOKENS", "explicit_draft_tokens",
                 "xplicit draft tokens", "TP Eagle", "TP-Eagle", "TPEagle", "TP eagle",
                 "TP-eagle", "tp eagle", "tp-eagle", "PARD", "raft/target", "raft-target",
                 "raft target", "raft_target", "arget/draft", "arget-draft", "arget draft",
                 "edusa-", "raft engine", "raft and target", "raft TRT engine",
                 "raft TensorRT engine")  # fmt: skip


@dataclass(frozen=True, slots=True)
class WordMatch:
    """One TensorRT-LLM mode name in a line: its family and where it stands."""

    family: str
    start: int
    end: int


def trtllm_word_matches(text: str) -> list[WordMatch]:
    """TensorRT-LLM's own mode names in ``text``; a family word reader skips its own words
    inside their spans ("MTP Eagle" names MTP, not EAGLE)."""
    return [WordMatch(_FAMILY[m.lastgroup or ""], m.start(), m.end())
            for m in _WORD.finditer(text)]  # fmt: skip


# The ``decoding_type`` a PyTorch-backend family stands for, read as a YAML stating it would be
# (llmapi/llm_args.py: MTPDecodingConfig "MTP", EagleDecodingConfig "Eagle" (EAGLE-3 on the
# PyTorch backend, whichever EAGLE a text names; "Eagle3" from 1.2; the engine's own EAGLE with
# --backend tensorrt, which the Eagle condition names), NGramDecodingConfig "NGram",
# DraftTargetDecodingConfig "DraftTarget", SADecodingConfig "SA", PARDDecodingConfig "PARD",
# DFlashDecodingConfig "DFlash", DSparkDecodingConfig "DSpark": one class each on the PyTorch
# backend, PARDWorker / DFlashWorker / DSparkWorker).
PROSE_DECODING_TYPES = {"MTP": "MTP", "EAGLE3": "Eagle", "EAGLE": "Eagle", "NGRAM": "NGram",
                        "DRAFT_MODEL": "DraftTarget", "SUFFIX": "SA", "PARD": "PARD",
                        "DFLASH": "DFlash", "DSPARK": "DSpark"}  # fmt: skip
# Families only the TensorRT engine flow runs, in every release: MedusaDecodingConfig and
# LookaheadDecodingConfig refuse the PyTorch backend (supports_backend), and ReDrafter has no
# decoding config and no PyTorch mode at all (only the engine's EXPLICIT_DRAFT_TOKENS mode,
# built with examples/redrafter). Their class is the decoding layer trtllm.toml's [[symbol]]
# rows name (MedusaDecodingLayer, LookaheadDecodingLayer, ExplicitDraftTokensLayer).
ENGINE_ONLY = ("MEDUSA", "LOOKAHEAD", "EXPLICIT_DRAFT_TOKENS")


# TensorRT-LLM's PyTorch backend runs EAGLE-3 in one of two modes, and its docs, tests and PR
# titles name them by model count: "one-model" / "Eagle3-one-model" / ``eagle3_one_model`` /
# ``eagle_one_model`` (EagleDecodingConfig.eagle3_one_model true: Eagle3OneModelWorker) and
# "two-model" / "eagle3 two model" (false: the separate draft model's ModelDrafter). Hyphenated
# or joined, the count word is the mode's name; with blanks ("one model") it names the mode
# only beside an EAGLE word ("eagle3 one model", "two model Eagle3"), not in ordinary prose
# ("we serve one model per node"); a test's name spells it too; a key with its value (``eagle3_one_model: false``) is the
# config readers' (trtllm_yaml), not a word.
_MODEL_COUNT = re.compile(
    r"(?i)(?<![\w/.-])(?:eagle[-_]?3?[-_])?(?P<count>one|single|two|separate)[-_]model(?![\w.-])(?!\s*[:=])"
    r"|(?i:eagle[-_ ]?3?)\s+(?P<after>one|single|two)\s+models?\b"
    r"|\b(?P<before>one|single|two)\s+models?\s+(?i:eagle)"
    # a test named for the mode (the AutoDeploy accuracy test ``test_eagle3_one_model_gsm8k``,
    # ``TestX::test_eagle3_two_model[...]``): a report of that test ran the mode
    r"|(?<![\w/.-])test_(?:\w+_)?eagle3?_(?P<test>one|two)_model(?![a-z0-9])"
)
_ONE_COUNT = ("one", "single")


# a line introducing the mode as new code: a feature tag (TensorRT-LLM's PR titles
# ``[TRTLLM-1234][feat] ...``, ``feat: ...``) or a leading add / enable / support verb
_ADDED = re.compile(
    r"(?i)\[feat(?:ure)?\]|(?<![\w-])feat(?:\([^)]*\))?:"
    r"|^[#\s]*(?:\[[^\]]*\]\s*)*(?:add(?:s|ed|ing)?|enabl(?:e|es|ed|ing)|support(?:s|ed|ing)?|implement\w*)\b"
)


def eagle_model_count(text: str) -> bool | None:
    """True for a line naming EAGLE-3's one-model mode, False for its two-model mode, None for
    neither, both, or a line adding the mode as a feature ("[feat] Eagle3 two-model for X":
    the mode the change adds, not one a run chose)."""
    if _ADDED.search(text):
        return None
    found = {(m.group("count") or m.group("after") or m.group("before") or m.group("test")).lower() in _ONE_COUNT
             for m in _MODEL_COUNT.finditer(text)}  # fmt: skip
    return found.pop() if len(found) == 1 else None


# The mode the TensorRT engine flow runs a family in (trtllm.toml's C++ [[symbol]] rows name its
# decoding layer under cpp/tensorrt_llm/layers, one per mode): the draft-target mode and
# prompt lookup both feed external draft tokens (examples/draft_target_model and
# examples/prompt_lookup build with ``--speculative_decoding_mode=draft_tokens_external``:
# ExternalDraftTokensLayer). EAGLE is left out: the engine's EagleDecodingLayer came late in the
# engine flow's life (threads of 2024 ask when it will run), so a day before 0.17 does not show
# it ran; EAGLE-3 never ran there. Medusa, lookahead and ReDrafter are ENGINE_ONLY.
ENGINE_FLOW_MODES = {"DRAFT_MODEL": "DRAFT_TARGET", "NGRAM": "DRAFT_TARGET"}
# the ``what`` of those C++ symbol rows (tools/path_tables/trtllm_rules.py writes it)
ENGINE_MODE_ROW = "TensorRT-LLM C++ "
