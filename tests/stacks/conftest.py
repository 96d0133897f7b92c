"""Fixtures for the stacks tests: one hung SGLang-titled process tree per module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from stacks_helpers import HungServer, start_hung, stop


@pytest.fixture(scope="module")
def hung_sglang(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HungServer]:
    """4 ranks titled sglang::scheduler_TPn; TP2 spins in verify, the others wait in all_reduce."""
    server = start_hung(
        tmp_path_factory.mktemp("hung"), "--world", "4", "--stuck", "2", "--mode", "spin"
    )
    yield server
    stop(server.proc)
