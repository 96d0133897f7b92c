"""SGLang's multi-layer EAGLE told in words (issue 11, session 24, lead).

A run whose EAGLE or MTP the text calls multi-layer EAGLE ("its built-in 8-layer multi-layer
EAGLE", "serving X with MTP (multi-layer EAGLE)") ran MultiLayerEagleWorker(V2), never
EAGLEWorker(V2): two of the session's sealed texts on a model with a built-in multi-layer head
were decided EAGLEWorkerV2 or given the EAGLE v1/v2 condition. Every line below is our own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import probed_path

from spectrace.assemblers.sglang_prose_flags import multi_layer_stated
from spectrace.path_base import family_words

HEAD = ["sgl-project/sglang · issue #4242 · open · Python", "labels: bug"]


@pytest.mark.parametrize("said", [
    "Acme-Large-NVFP4 runs out of memory at start-up with its built-in 8-layer multi-layer EAGLE.",
    "Serving Acme with MTP (multi-layer EAGLE) crashes while capturing the draft graph.",
    "We run it with multi-layer EAGLE on and the scheduler dies.",
])  # fmt: skip
def test_multi_layer_eagle_said_on(said: str) -> None:
    assert multi_layer_stated(said)


@pytest.mark.parametrize("said", [
    "We should try multi-layer EAGLE with 8 layers.",
    "With multi-layer EAGLE disabled it works.",
    "Does it also crash with multi-layer EAGLE?",
])  # fmt: skip
def test_multi_layer_eagle_not_said_on(said: str) -> None:
    assert not multi_layer_stated(said)


def test_the_eagle_word_of_multi_layer_eagle_is_not_eagle() -> None:
    assert family_words("Acme multi-layer EAGLE OOMs while allocating draft pools") == set()
    assert family_words("Acme EAGLE OOMs while allocating draft pools") == {"EAGLE"}


def test_a_run_told_with_multi_layer_eagle_gets_its_workers(tmp_path: Path) -> None:
    lines = [*HEAD, "# [Bug] Acme multi-layer EAGLE OOMs while allocating draft pools", "",
             "ivy · description · 2026-07-17", "",
             "Our Acme-Large-NVFP4 server, built-in 8-layer multi-layer EAGLE on, dies allocating its pools.",
             "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"]
    path = probed_path(tmp_path, lines)
    assert path.worker_class in ("MultiLayerEagleWorkerV2", "MultiLayerEagleWorker") or (
        path.conditional is not None and "MultiLayerEagleWorker" in path.conditional), path
    assert path.worker_class not in ("EAGLEWorker", "EAGLEWorkerV2")
    assert "EAGLEWorker " not in (path.conditional or "") + " "


def test_plain_eagle_still_decides(tmp_path: Path) -> None:
    lines = [*HEAD, "# [Bug] Acme EAGLE OOMs while allocating draft pools", "",
             "ivy · description · 2026-07-17", "",
             "Acme-Large-NVFP4 with EAGLE OOMs during KV-pool sizing on sglang 0.5.15.",
             "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"]
    assert probed_path(tmp_path, lines).worker_class == "EAGLEWorkerV2"
