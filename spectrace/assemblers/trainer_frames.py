"""Whether a crash ran a speculative-draft trainer's capture or training code, not a server.

Why: a trainer (SpecForge, speculators) builds the engine's model runner itself to capture the
target's hidden states; a traceback of that capture passes through the engine's files
(``sglang/srt/managers/schedule_batch.py``) and the thread names the draft it trains ("fix(dflash):
..."). Read as a run, the method word and the engine's release gave a speculative worker class to
a text where none was built (the trainer runs the target plain). The trainers' files are data
(``rules/paths/trainers.toml``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from spectrace.assemblers.crash import Frame
from spectrace.assemblers.release_dates import rules_table
from spectrace.errors import RuleError

_NAME = "paths/trainers.toml"


@dataclass(frozen=True, slots=True)
class Trainer:
    """One trainer's own code: parts of its frame paths and entry-point file names."""

    repo: str
    paths: tuple[str, ...]
    files: frozenset[str]
    drafts: str | None = None  # the one draft family it trains (SGLang's spelling), if one


def _strings(row: dict[str, object], key: str) -> tuple[str, ...]:
    raw = row.get(key, [])
    if not isinstance(raw, list) or not all(isinstance(v, str) for v in raw):
        raise RuleError(f"{_NAME}: trainer {row.get('repo')!r}: {key!r} must be a list of strings")
    return tuple(raw)


@cache
def trainers() -> tuple[Trainer, ...]:
    """The trainers of ``trainers.toml``."""
    rows = rules_table(_NAME)["trainer"]
    if not isinstance(rows, list):
        raise RuleError(f"{_NAME}: [[trainer]] rows expected")
    return tuple(Trainer(str(row["repo"]), _strings(row, "paths"), frozenset(_strings(row, "files")),
                         str(row["drafts"]) if "drafts" in row else None)
                 for row in rows)  # fmt: skip


def trainer_of(repo: str) -> Trainer | None:
    """The trainer whose own repository ``repo`` (owner/name) is, or None."""
    return next((t for t in trainers() if t.repo.lower() == repo.lower()), None)


def trainer_frame(frame: Frame) -> bool:
    """The frame is in a trainer's own code (a part of its path only that code has, or one of its
    entry files by name: a pasted path may keep only ``.../dflash_target_model.py``)."""
    path = frame.file.replace("\\", "/")
    name = path.rsplit("/", 1)[-1]
    return any(name in t.files or any(part in path for part in t.paths) for t in trainers())
