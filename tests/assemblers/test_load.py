"""Throughput lines of every version -> LoadSample (LOG_FORMATS.md 1.11, 2.5), written by us."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spectrace.assemblers.load import LOAD_LITERALS, LoadSample, load_table, parse_load_line
from spectrace.dialects.base import LogLine


def line(text: str, lineno: int = 7, rank: str | None = "TP0") -> LogLine:
    ts = datetime(2026, 2, 27, 21, 0, 4)
    return LogLine("run.log", lineno, 0, text, text, "sglang", rank or "", rank, ts)


def parse(text: str) -> LoadSample:
    assert any(lit.decode() in text for lit in LOAD_LITERALS), "the pipeline prefilter drops it"
    sample = parse_load_line(line(text))
    assert sample is not None
    return sample


def numbers(s: LoadSample) -> tuple[object, ...]:
    return (s.kind, s.running_req, s.accept_len, s.accept_rate, s.gen_throughput, s.queue_req,
            s.cuda_graph)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (  # 0.5.9+: no trailing comma
            "Decode batch, #running-req: 12, #token: 8421, token usage: 0.04, accept len: 2.87, "
            "accept rate: 0.72, cuda graph: True, gen throughput (token/s): 1543.21, #queue-req: 0",
            ("decode", 12, 2.87, 0.72, 1543.21, 0, True),
        ),
        (  # 0.5.4: forward counter and trailing ", "
            "Decode batch [4120], #running-req: 10, #token: 9000, token usage: 0.05, "
            "accept len: 2.40, accept rate: 0.48, cuda graph: False, gen throughput (token/s): 880.50, "
            "#queue-req: 3, ",
            ("decode", 10, 2.40, 0.48, 880.50, 3, False),
        ),
        (  # 0.5.5-0.5.8 without spec fields, trailing ", "
            "Decode batch, #running-req: 1, #token: 512, token usage: 0.00, cuda graph: True, "
            "gen throughput (token/s): 61.02, #queue-req: 0, ",
            ("decode", 1, None, None, 61.02, 0, True),
        ),
        (  # hybrid SWA + PD-decode + MFU + block accept len, cpu graph
            "Decode batch, #running-req: 48, #full token: 1200, full token usage: 0.10, "
            "#swa token: 300, swa token usage: 0.02, accept len: 3.50, accept rate: 0.70, "
            "block accept len: 3.10, pre-allocated usage: 0.00, #prealloc-req: 0, #transfer-req: 2, "
            "#retracted-req: 0, cpu graph: True, gen throughput (token/s): 2210.00, #queue-req: 5, "
            "est. decode TFLOPS/s (per GPU): 120.5, est. read BW (GB/s per GPU): 3100.2",
            ("decode", 48, 3.50, 0.70, 2210.00, 5, True),
        ),
        (  # 0.4.x
            "Decode batch. #running-req: 2, #token: 300, token usage: 0.00, "
            "gen throughput (token/s): 40.10, #queue-req: 0",
            ("decode", 2, None, None, 40.10, 0, None),
        ),
        (  # 0.5.10 prefill
            "Prefill batch, #new-seq: 4, #new-token: 2048, #cached-token: 0, token usage: 0.01, "
            "#running-req: 6, #queue-req: 1, npu graph: False, input throughput (token/s): 9000.00",
            ("prefill", 6, None, None, None, 1, False),
        ),
        (  # 0.5.4-0.5.8 prefill, trailing ", "
            "Prefill batch, #new-seq: 1, #new-token: 37, #cached-token: 0, token usage: 0.00, "
            "#running-req: 0, #queue-req: 0, ",
            ("prefill", 0, None, None, None, 0, None),
        ),
    ],
)  # fmt: skip
def test_sglang_batch_lines(text: str, expected: tuple[object, ...]) -> None:
    sample = parse(text)
    assert numbers(sample) == expected
    assert (sample.source, sample.lineno, sample.rank) == ("run.log", 7, "TP0")


def test_extra_fields_kept_with_their_awkward_keys() -> None:
    sample = parse(
        "Decode batch, #running-req: 48, #full token: 1200, mamba num: 3, mamba usage: 0.25, "
        "cuda graph: True, gen throughput (token/s): 10.00, #queue-req: 0, "
        "est. write BW (GB/s per GPU): 12.5"
    )
    assert sample.fields["#full token"] == "1200"
    assert sample.fields["mamba usage"] == "0.25"
    assert sample.fields["est. write BW (GB/s per GPU)"] == "12.5"


@pytest.mark.parametrize(
    ("text", "accept_len", "accept_rate"),
    [
        (
            "Speculative metrics: Draft acceptance rate: 0.200, System efficiency: 0.167, "
            "Number of speculative tokens: 5, Number of accepted tokens: 1, "
            "Number of draft tokens: 5, Number of emitted tokens: 1.",
            None, 0.2,
        ),
        (
            "SpecDecoding metrics: Draft acceptance rate: 100.0%, Accepted: 66 tokens, "
            "Drafted: 66 tokens",
            None, 1.0,
        ),
        (
            "SpecDecoding metrics: Draft acceptance rate: 71.4%, Mean acceptance length: 3.14, "
            "Accepted: 300 tokens, Drafted: 420 tokens, Per-position acceptance rate: 0.900, 0.700, 0.542",
            3.14, 0.714,
        ),
        (
            "SpecDecoding metrics: Draft acceptance rate: 88.8%, Mean acceptance length: 5.44, "
            "Accepted throughput: 4.37 tokens/s, Drafted throughput: 4.92 tokens/s, Accepted: 262 tokens, "
            "Drafted: 295 tokens, Per-position acceptance rate: 0.983, 0.949, 0.915, 0.881, 0.712",
            5.44, 0.888,
        ),
        (
            "SpecDecoding metrics: Mean acceptance length: 2.51, Accepted throughput: 30.10 tokens/s, "
            "Drafted throughput: 60.00 tokens/s, Accepted: 301 tokens, Drafted: 600 tokens, "
            "Per-position acceptance rate: 0.700, 0.510, 0.300, Avg Draft acceptance rate: 50.2%",
            2.51, 0.502,
        ),
    ],
)  # fmt: skip
def test_vllm_spec_metrics_of_every_period(
    text: str, accept_len: float | None, accept_rate: float
) -> None:
    sample = parse(text)
    assert sample.kind == "spec_metrics"
    assert sample.accept_len == accept_len
    assert sample.accept_rate == pytest.approx(accept_rate)


def test_per_position_list_keeps_its_commas() -> None:
    sample = parse(
        "SpecDecoding metrics: Mean acceptance length: 2.51, Accepted: 301 tokens, "
        "Drafted: 600 tokens, Per-position acceptance rate: 0.700, 0.510, 0.300, "
        "Avg Draft acceptance rate: 50.2%"
    )
    assert sample.fields["Per-position acceptance rate"] == "0.700, 0.510, 0.300"
    assert sample.fields["Avg Draft acceptance rate"] == "50.2%"


@pytest.mark.parametrize(
    "text",
    [
        "Engine 000: Avg prompt throughput: 120.5 tokens/s, Avg generation throughput: 842.0 tokens/s, "
        "Running: 10 reqs, Waiting: 2 reqs, GPU KV cache usage: 12.5%, Prefix cache hit rate: 0.0%",
        "Engine 000: Avg prompt throughput: 120.5 tokens/s, Avg generation throughput: 842.0 tokens/s, "
        "Running: 10 reqs, Waiting: 2 reqs, Deferred: 0 reqs, Preemptions: 0, "
        "XPU KV cache usage: 12.5%",
    ],
)  # fmt: skip
def test_vllm_engine_stats(text: str) -> None:
    sample = parse(text)
    assert numbers(sample) == ("engine_stats", 10, None, None, 842.0, 2, None)


@pytest.mark.parametrize(
    "text",
    [
        "Decode batch size exceeds the captured graphs",
        "Prefill batch is empty",
        "The server is fired up and ready to roll!",
    ],
)
def test_other_lines_are_not_samples(text: str) -> None:
    assert parse_load_line(line(text)) is None


def test_load_table_one_row_per_sample() -> None:
    samples = [
        parse("Decode batch, #running-req: 8, #token: 1, token usage: 0.00, cuda graph: True, "
              "gen throughput (token/s): 100.00, #queue-req: 0"),
        parse("SpecDecoding metrics: Draft acceptance rate: 50.0%, Accepted: 5 tokens, "
              "Drafted: 10 tokens"),
    ]  # fmt: skip
    table = load_table(samples)
    assert table.height == 2
    assert table["running_req"].to_list() == [8, None]
    assert table["accept_rate"].to_list() == [None, 0.5]
    assert table["kind"].to_list() == ["decode", "spec_metrics"]
    assert table["ts"].to_list()[0] == datetime(2026, 2, 27, 21, 0, 4)
    assert load_table([]).columns == table.columns


@settings(max_examples=200, deadline=None)
@given(
    head=st.sampled_from(["Decode batch, ", "Prefill batch [3], ", "SpecDecoding metrics: ",
                          "Engine 000: Avg prompt throughput: "]),
    tail=st.text(alphabet=st.sampled_from("#ab :,.%()-0123456789TrueFals"), max_size=80),
)  # fmt: skip
def test_damaged_throughput_lines_never_raise(head: str, tail: str) -> None:
    sample = parse_load_line(line(head + tail + "9" * 400))
    assert sample is None or sample.lineno == 7


def test_vllm_crash_dump_gives_the_crashing_step_batch() -> None:
    sample = parse(
        "Dumping scheduler output for model execution: SchedulerOutput(scheduled_new_reqs=[],"
        "scheduled_cached_reqs=CachedRequestData(req_ids=['cmpl-a-0', 'cmpl-b-0', 'cmpl-c-0'],"
        "resumed_from_preemption=[false, false, false]),"
        "num_scheduled_tokens={cmpl-a-0: 4, cmpl-b-0: 4, cmpl-c-0: 4},total_num_scheduled_tokens=12,"
        "scheduled_spec_decode_tokens={cmpl-a-0: [11, 12, 13], cmpl-b-0: [14, 15, 16], "
        "cmpl-c-0: [17, 18, 19]},scheduled_encoder_inputs={},num_common_prefix_blocks=[0],"
        "finished_req_ids=[],free_encoder_mm_hashes=[])"
    )
    assert (sample.kind, sample.running_req) == ("crash_dump", 3)
    assert sample.fields == {
        "num_scheduled_tokens": "3",
        "scheduled_spec_decode_tokens": "3",
        "total_num_scheduled_tokens": "12",
    }
    cut = parse_load_line(line("Dumping scheduler output for model execution: SchedulerOutput(sch"))
    assert cut is None
