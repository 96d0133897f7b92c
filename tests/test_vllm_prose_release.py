"""A vLLM release written with a fourth number (vLLM's patch-of-a-patch releases 0.9.0.1 and
0.10.1.1) is the release a sentence or title names (issue 11, round 29): it used to be read as
no release at all, so the engine generation stayed open. Our own lines, other methods."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import crash_path, run
from test_never_wrong import PROBE_CRASH, VLLM_REPO, thread

from spectrace.assemblers.vllm_config import prose_version


@pytest.mark.parametrize(("text", "release"), [
    ("the same crash with vLLM 0.9.0.1 and 0.9.1", "0.9.0.1"),
    ("pip install vllm==0.10.1.1", "0.10.1.1"),
    ("vLLM version: 0.10.1.1", "0.10.1.1"),
    ("vllm 0.6.1.post1 on 2xA100", "0.6.1"),
])  # fmt: skip
def test_a_release_with_four_numbers_is_read_whole(text: str, release: str) -> None:
    assert prose_version(text) == release


@pytest.mark.parametrize("text", ["vLLM 0.9.0.1.2 nightly", "vLLM 0.11 branch", "vllm-ascend 0.9.0.1"])
def test_what_is_no_vllm_release(text: str) -> None:
    assert prose_version(text) is None


def test_a_four_number_release_settles_the_engine_generation(tmp_path: Path) -> None:
    lines = thread(VLLM_REPO, "[Bug]: ngram speculative decoding returns garbage on vLLM 0.9.0.1",
                   "2025-06-10", "The output repeats the prompt after 200 tokens.")  # fmt: skip
    path = crash_path(run(tmp_path, [*lines, *PROBE_CRASH], name="thread.md"))
    assert (path.value, path.worker_class) == ("other", "NgramProposer"), path
