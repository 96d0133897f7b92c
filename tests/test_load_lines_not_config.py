"""A server's own load lines are most of its log: they must not become config lines.

Session 10 added result words (``throughput``, ``token/s``) to the scan's config literals so
that a pull request's benchmark result shows a run; every SGLang ``Decode batch`` and vLLM
``Avg prompt throughput`` line then became a config line, and triage of a server log ran 5-18x
slower. A benchmark's own result lines must still be kept and read as a run.

Session 16 did it again with ``accept rate`` (150x), so every load-line shape the engines print
(SGLang's decode/prefill lines of each release, hybrid and PD fields; vLLM's engine stats of V0,
V1 and the optional parts of later releases) is checked against every scan literal here. vLLM's
speculative metrics line is the one load line that is also evidence (the run speculated): a server
prints one every ten seconds, so one per run is kept, not thousands."""

from __future__ import annotations

import pytest

from spectrace.assemblers import config as config_mod
from spectrace.assemblers.fatal import FatalMatcher
from spectrace.assemblers.run_shown import run_line
from spectrace.collect import Collector
from spectrace.dialects.base import LogLine
from spectrace.path_mentions import mention_literals
from spectrace.ruleset import RuleSet

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
    # SGLang 0.5.4's counter header, the trailing comma of 0.5.4-0.5.8, an NPU graph
    "[2025-11-02 10:00:01 TP0] Decode batch [240], #running-req: 3, #token: 900, token usage: 0.01, "
    "accept len: 3.10, accept rate: 0.78, npu graph: True, gen throughput (token/s): 88.10, #queue-req: 0, ",
    # hybrid SWA and Mamba token parts, PD-decode fields, MFU estimates, 0.5.17's block accept len
    "[2026-03-02 10:00:01 DP1 TP4] Decode batch, #running-req: 64, #full token: 90000, full token usage: "
    "0.31, #swa token: 4000, swa token usage: 0.02, accept len: 2.20, accept rate: 0.55, block accept "
    "len: 1.90, pre-allocated usage: 0.00, #prealloc-req: 0, #transfer-req: 2, #retracted-req: 0, cuda "
    "graph: True, gen throughput (token/s): 4100.55, #queue-req: 7, est. decode TFLOPS/s (per GPU): "
    "120.40, est. read BW (GB/s per GPU): 2100.00, est. write BW (GB/s per GPU): 80.00",
    "[2026-03-02 10:00:01 TP0] Decode batch, #running-req: 8, #full token: 7000, full token usage: 0.02, "
    "mamba num: 8, mamba usage: 0.10, cpu graph: False, gen throughput (token/s): 51.00, #queue-req: 0",
    # 0.4.x's dotted header; PD-prefill's input throughput and its prealloc/inflight counts
    "[2025-03-10 09:00:01] Decode batch. #running-req: 1, #token: 37, token usage: 0.00, gen throughput "
    "(token/s): 35.20, #queue-req: 0",
    "[2026-03-02 10:00:01 TP0] Prefill batch, #new-seq: 4, #new-token: 8192, #cached-token: 1024, token "
    "usage: 0.12, #running-req: 3, #queue-req: 1, #prealloc-req: 0, #inflight-req: 2, cuda graph: False, "
    "input throughput (token/s): 20511.30",
    # vLLM's engine stats with 0.33's optional parts; V0's stats line
    "(APIServer pid=9) INFO 06-01 10:00:01 [loggers.py:257] Engine 000: Avg prompt throughput: 10.0 "
    "tokens/s, Avg generation throughput: 300.2 tokens/s, Running: 4 reqs, Waiting: 0 reqs, Deferred: 0 "
    "reqs, Preemptions: 0, XPU KV cache usage: 3.1%, Prefix cache hit rate: 12.0%, External prefix cache "
    "hit rate: 0.0%, MM cache hit rate: 0.0%, Corrupted: 0 reqs",
    "INFO 08-10 12:00:01 metrics.py:351] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: "
    "12.3 tokens/s, Running: 1 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 0.4%, CPU KV "
    "cache usage: 0.0%.",
]
# vLLM's speculative metrics line of each era: V0, the first V1 line, 0.11's and later
SPEC_METRICS = [
    "INFO 08-10 12:00:{s:02d} metrics.py:473] Speculative metrics: Draft acceptance rate: 0.{s:02d}1, "
    "System efficiency: 0.167, Number of speculative tokens: 5, Number of accepted tokens: {s}, Number of "
    "draft tokens: 5, Number of emitted tokens: 1.",
    "INFO 04-02 10:00:{s:02d} [metrics.py:96] SpecDecoding metrics: Draft acceptance rate: {s}.0%, "
    "Accepted: {s} tokens, Drafted: 66 tokens",
    "(APIServer pid=9) INFO 06-01 10:00:{s:02d} [metrics.py:96] SpecDecoding metrics: Mean acceptance "
    "length: 2.{s:02d}, Accepted throughput: 4.37 tokens/s, Drafted throughput: 4.92 tokens/s, Accepted: "
    "{s} tokens, Drafted: 295 tokens, Per-position acceptance rate: 0.983, 0.949, Avg Draft acceptance "
    "rate: 88.8%",
]
CONFIG = ("(EngineCore_DP0 pid=10) INFO 06-01 10:00:00 [core.py:77] Initializing a V1 LLM engine "
          "(v0.11.0) with config: model='m', speculative_config=SpeculativeConfig(method='eagle3', "
          "model='d', num_spec_tokens={k})")  # fmt: skip
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


def _collector() -> Collector:
    literals = config_mod.CONFIG_LITERALS + mention_literals()
    return Collector(FatalMatcher(RuleSet.load()), config_literals=[lit.decode() for lit in literals])


def _feed(collector: Collector, texts: list[str], start: int) -> None:
    for n, text in enumerate(texts, start):
        collector.feed(LogLine("server.log", n, 0, text, text, "vllm", ""))


@pytest.mark.parametrize("shape", SPEC_METRICS)
def test_a_runs_speculative_metrics_lines_are_kept_once_each_run(shape: str) -> None:
    collector = _collector()
    first = [CONFIG.format(k=3)] + [shape.format(s=s) for s in range(1, 40)]
    second = [CONFIG.format(k=5)] + [shape.format(s=s) for s in range(1, 40)]
    _feed(collector, first + second, 1)
    kept = [line.lineno for line in collector.config_lines]
    # each run: its config line, then its first metrics line (the one that shows it speculated)
    assert kept == [1, 2, 41, 42]


def test_each_engines_metrics_line_is_kept_where_they_meet() -> None:
    # a V0 line right before a V1 line: two engines' evidence, not one run's repeats
    collector = _collector()
    _feed(collector, [SPEC_METRICS[0].format(s=1), SPEC_METRICS[2].format(s=2), SPEC_METRICS[2].format(s=3)], 1)
    assert [line.lineno for line in collector.config_lines] == [1, 2]
