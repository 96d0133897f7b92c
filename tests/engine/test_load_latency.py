"""Per-request latency recorded by the engine, and the weight bytes behind the bench's HBM floor."""

from __future__ import annotations

import pytest
import torch
from spectrace_engine.models.loader import load_pair
from spectrace_engine.observe.latency import LatencyBook, percentile
from spectrace_engine.observe.roofline import (
    draft_forward_bytes,
    floor_step_s,
    target_read_bytes,
    weight_traffic,
)

LOAD = ("--num-requests", "4", "--concurrency", "2", "--max-new-tokens", "8")


@pytest.mark.parametrize("worker", ["v1", "v2"])
def test_every_finished_request_records_ordered_latencies(engine_run, worker):
    run = engine_run(*LOAD, "--worker", worker)
    assert run.code == 0, run.output
    finished = run.of("request_finish")
    assert len(finished) == 4
    for e in finished:
        assert 0 < e["ttft_ms"] <= e["latency_ms"]
        n = len(e["output_ids"])
        assert e["tpot_ms"] == pytest.approx((e["latency_ms"] - e["ttft_ms"]) / (n - 1), abs=1e-3)
    end = run.end()
    for m in ("ttft_ms", "latency_ms", "tpot_ms"):
        assert end[f"{m}_p50"] <= end[f"{m}_p99"]
    assert end["latency_ms_mean"] == pytest.approx(
        sum(e["latency_ms"] for e in finished) / 4, abs=1e-2
    )
    assert end["ttft_ms_p99"] <= end["latency_ms_p99"]


def test_run_end_reports_the_weight_bytes_of_plain_and_speculative_steps(engine_run):
    plain = engine_run(*LOAD, "--speculative-algorithm", "NONE").end()
    spec = engine_run(*LOAD, "--worker", "v2").end()
    pair = load_pair("tiny", algorithm="EAGLE")  # the run's algorithm (the CLI default)
    assert plain["weight_bytes_target"] == spec["weight_bytes_target"]
    assert plain["weight_bytes_spec_extra"] == 0
    assert spec["weight_bytes_spec_extra"] == 3 * draft_forward_bytes(pair.draft)  # s = 3


def test_weight_bytes_follow_the_parameter_counts_and_the_dtype():
    pair = load_pair("tiny")
    c = pair.target.cfg
    hd = c.dim // c.n_heads
    attn = c.dim * c.n_heads * hd * 2 + c.dim * c.n_kv_heads * hd * 2
    layer = attn + 3 * c.dim * c.ffn_dim + 2 * c.dim
    params = c.n_layers * layer + c.dim + c.vocab_size * c.dim  # final norm, tied head
    assert target_read_bytes(pair.target) == 4 * params
    wide = 2 * c.dim  # the head's attention reads norm(emb) ++ norm(feature)
    head_own = 3 * c.dim * c.dim + wide * c.n_heads * hd + 2 * wide * c.n_kv_heads * hd
    head_own += c.n_heads * hd * c.dim + 3 * c.dim * c.ffn_dim + 4 * c.dim  # fc, attn, ffn, norms
    assert draft_forward_bytes(pair.draft) == 4 * (head_own + c.vocab_size * c.dim)
    half = load_pair("tiny", dtype=torch.bfloat16)
    assert weight_traffic(half.target, half.draft, 3).target_bytes == 2 * params
    assert weight_traffic(half.target, None, 3).spec_extra_bytes == 0


def test_floor_averages_plain_and_speculative_steps():
    # 10 steps, 4 of them speculative: (10 * 1000 + 4 * 500) bytes / 10 steps / 1000 B/s
    assert floor_step_s(10, 4, 1000, 500, 1000.0) == pytest.approx(1.2)
    assert floor_step_s(0, 0, 1000, 500, 1000.0) is None


def test_percentiles_interpolate_and_one_token_answers_have_no_tpot():
    assert percentile([4.0, 1.0, 3.0, 2.0], 50) == 2.5
    assert percentile([1.0, 2.0], 99) == pytest.approx(1.99)
    book = LatencyBook()
    book.arrive(7)
    book.first_token(7)
    rec = book.finish(7, n_out=1)
    assert rec is not None and rec.tpot_ms is None and rec.ttft_ms <= rec.latency_ms
    assert book.finish(99, n_out=3) is None  # never arrived: nothing invented
    s = book.summary()
    assert s["tpot_ms_mean"] is None and s["ttft_ms_p50"] == rec.ttft_ms


@pytest.mark.parametrize("algo", [("--speculative-algorithm", "NONE"), ("--worker", "v2")])
def test_sixty_four_clients_run_at_once_on_captured_graph_sizes(engine_run, algo):
    run = engine_run(
        *algo,
        *("--num-requests", "64", "--concurrency", "64", "--max-new-tokens", "4"),
        *("--max-running-requests", "64"),
    )
    assert run.code == 0, run.output
    steps = run.of("step")
    assert max(s["bs"] for s in steps) == 64
    assert all(s["graph"] != "eager" for s in steps) and run.end()["graph_misses"] == 0
    assert len(run.of("request_finish")) == 64
