"""Shipped weights: where they live, their checksums, and the pair a run serves.

Apart from loader.py so that each model source (the tiny pairs, SmolLM2's GGUF) verifies its
files here without importing the loader that dispatches to it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spectrace_engine.models.eagle_head import DraftHeadBase
from spectrace_engine.models.llama import TargetModel

from spectrace.errors import InputError

WEIGHTS_DIR = Path(__file__).parents[1] / "weights"


class WeightsError(InputError):
    """Shipped weights are missing, corrupt or do not match their checksum."""


@dataclass
class ModelPair:
    target: TargetModel
    draft: DraftHeadBase
    tokenizer: Any
    prompts: list[list[int]]
    name: str
    sha256: dict[str, str] = field(default_factory=dict)


def file_sha256(path: Path) -> str:
    with path.open("rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def verified_file(name: str, weights_dir: Path = WEIGHTS_DIR) -> tuple[Path, str]:
    """Path and sha256 of a weights file, after checking it against SHA256SUMS.json."""
    path = weights_dir / name
    sums_path = weights_dir / "SHA256SUMS.json"
    if not path.is_file():
        raise WeightsError(
            f"engine weights missing: {path} (retrain with python -m "
            f"spectrace_engine.train.train, see docs/engine-models.md)"
        )
    try:
        sums = json.loads(sums_path.read_text())
    except (OSError, ValueError) as exc:
        raise WeightsError(f"cannot read checksum list {sums_path}: {exc}") from None
    digest = file_sha256(path)
    if sums.get(name) != digest:
        raise WeightsError(f"checksum mismatch for {path}: expected {sums.get(name)}, got {digest}")
    return path, digest
