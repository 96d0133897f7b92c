"""A server's own load lines are most of its log: they must not become config lines.

Session 10 added result words (``throughput``, ``token/s``) to the scan's config literals so
that a pull request's benchmark result shows a run; every SGLang ``Decode batch`` and vLLM
``Avg prompt throughput`` line then became a config line, and triage of a server log ran 5-18x
slower. A benchmark's own result lines must still be kept and read as a run."""

from __future__ import annotations

import pytest

from spectrace.assemblers import config as config_mod
from spectrace.assemblers.run_shown import run_line
from spectrace.path_mentions import mention_literals

LOAD_LINES = [
    "[2026-01-02 10:00:01 TP0] Decode batch. #running-req: 10, #token: 4000, token usage: 0.05, "
    "accept len: 2.41, cuda graph: True, gen throughput (token/s): 512.33, #queue-req: 0",
    "[2026-01-02 10:00:02 TP0] Decode batch, #running-req: 12, #token: 8421, token usage: 0.04, "
    "accept len: 2.87, accept rate: 0.72, cuda graph: True, gen throughput (token/s): 1543.21, #queue-req: 0",
    "[2026-01-02 10:00:01 TP0] Prefill batch. #new-seq: 1, #new-token: 512, #cached-token: 0, "
    "token usage: 0.01, #running-req: 0, #queue-req: 0",
    "INFO 01-02 10:00:01 [loggers.py:123] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg "
    "generation throughput: 45.1 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: "
    "0.2%, Prefix cache hit rate: 0.0%",
]
RESULT_LINES = [
    "Output token throughput (tok/s):         1843.21",
    "Request throughput (req/s):              3.52",
    "Throughput: 5.01 requests/s, 2345.67 total tokens/s, 1234.56 output tokens/s",
    "Decode.  median latency: 0.01021 s, median throughput:   3134.68 token/s",
    "Total Output Throughput (tokens/sec):    912.4",
    "===== 12 passed in 31.02s =====",
]


def _kept(text: str) -> bool:
    literals = config_mod.CONFIG_LITERALS + mention_literals()
    return any(lit in text.encode() for lit in literals)


@pytest.mark.parametrize("text", LOAD_LINES)
def test_a_server_load_line_is_no_config_line(text: str) -> None:
    assert not _kept(text)


@pytest.mark.parametrize("text", RESULT_LINES)
def test_a_benchmark_or_test_result_is_kept_and_shows_a_run(text: str) -> None:
    assert _kept(text) and run_line(text)
