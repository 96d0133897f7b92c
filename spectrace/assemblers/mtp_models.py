"""Model families that carry their own MTP / NextN draft layers (rules/paths/mtp_models.toml):
the checkpoints vLLM's speculative config rewrites to an MTP type, and the draft files SGLang
loads for them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from spectrace.assemblers.release_dates import rules_table
from spectrace.errors import RuleError

TABLE = "paths/mtp_models.toml"
HEADS = ("target", "assistant")
# a draft named for another method is that method's checkpoint, never a family's own MTP head
# ("z-lab/Qwen3.5-9B-DFlash", "EAGLE3-DeepSeek-V3", "Qwen3.5-27B-speculator.eagle3")
_OTHER_METHOD = re.compile(r"(?i)eagle|dflash|dspark|medusa|speculator|n-?gram")


@dataclass(frozen=True, slots=True)
class MtpModel:
    """One row: a model family whose checkpoints (or published assistant head) hold MTP layers."""

    name: str
    pattern: re.Pattern[str]
    literals: tuple[str, ...]
    head: str  # "target": the checkpoint drafts with itself; "assistant": a separate head
    as_draft: bool  # a method-less draft of this name is read as its MTP head
    model_type: str
    vllm_file: str
    vllm_first: str
    sglang_file: str
    sglang_first: str


@cache
def mtp_models() -> tuple[MtpModel, ...]:
    """The table's rows; a malformed row is a one-line RuleError naming the table."""
    out = []
    for i, row in enumerate(rules_table(TABLE).get("model", [])):  # type: ignore[union-attr]
        keys = ("name", "pattern", "head", "model_type", "vllm_file", "vllm_first",
                "sglang_file", "sglang_first")  # fmt: skip
        literals = row.get("literals", [])
        if not all(isinstance(row.get(k), str) for k in keys) or row["head"] not in HEADS \
                or not isinstance(literals, list) or not isinstance(row.get("as_draft"), bool):  # fmt: skip
            raise RuleError(f"{TABLE}: model {i + 1} needs string {', '.join(keys)} and a head of {HEADS}")
        try:
            pattern = re.compile(row["pattern"], re.I)
        except re.error as exc:
            raise RuleError(f"{TABLE}: model {i + 1}: {exc}") from None
        out.append(MtpModel(row["name"], pattern, tuple(map(str, literals)), row["head"], row["as_draft"], row["model_type"], row["vllm_file"],
                            row["vllm_first"], row["sglang_file"], row["sglang_first"]))  # fmt: skip
    return tuple(out)


def literals() -> tuple[bytes, ...]:
    """The config lines' pre-filter literals of the target families' names."""
    return tuple(lit.encode() for row in mtp_models() if row.head == "target" for lit in row.literals)


def mtp_draft_model(name: str) -> MtpModel | None:
    """The row whose MTP head a method-less draft ``name`` is read as (a model id or path);
    None for a draft named for another method, or of a family not read so (``as_draft``)."""
    if _OTHER_METHOD.search(name):
        return None
    return next((row for row in mtp_models() if row.as_draft and row.pattern.search(name)), None)


def own_mtp_models(text: str) -> list[tuple[MtpModel, re.Match[str]]]:
    """Each target family (head "target") ``text`` names, with where; none where the text's
    name is a draft of another method."""
    found = []
    for row in mtp_models():
        if row.head != "target":
            continue
        for m in row.pattern.finditer(text):
            word = re.search(r"[^\s`'\"(),;]*$", text[: m.start()])
            tail = re.match(r"[^\s`'\"(),;]*", text[m.end():])
            whole = (word.group(0) if word else "") + m.group(0) + (tail.group(0) if tail else "")
            if not _OTHER_METHOD.search(whole):
                found.append((row, m))
    return found
