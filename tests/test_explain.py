"""Shape numbers explained from the run's own facts, and only from them."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from spectrace.assemblers.load import LoadSample
from spectrace.assemblers.run_config import FlagValue, RunConfig
from spectrace.assemblers.shapes import find_shape_mismatch
from spectrace.explain import Explanation, explain

SEED = "The size of tensor a (160) must match the size of tensor b (2) at non-singleton dimension 0"


def config(**flags: object) -> RunConfig:
    names = {"N": "speculative_num_draft_tokens", "K": "speculative_eagle_topk",
             "S": "speculative_num_steps", "graphs": "cuda_graph_bs",
             "T": "speculative_config.num_spec_tokens"}  # fmt: skip
    return RunConfig(
        flags={names[k]: FlagValue(v, "run.log", 2, "server_args") for k, v in flags.items()}
    )


def load(running: int) -> LoadSample:
    return LoadSample("run.log", 40, "TP0", None, running_req=running)


def run(text: str, cfg: RunConfig, sample: LoadSample | None) -> Explanation:
    mismatch = find_shape_mismatch(text)
    assert mismatch is not None
    return explain(mismatch, cfg, sample)


def test_seed_story_160_is_ten_requests_times_sixteen_draft_tokens() -> None:
    got = run(SEED, config(N=16, K=4, S=5), load(10))
    assert got.explained
    assert got.terms == {
        "160": "10 running requests × 16 draft tokens (bs×N target-verify rows: "
        "EagleVerifyInput.draft_token / positions (bs·N))"
    }
    assert got.tensor == "EagleVerifyInput.draft_token / positions (bs·N)"
    assert got.unexplained == (2,)
    assert got.facts == {"running_req": 10, "num_draft_tokens": 16, "topk": 4, "steps": 5}
    assert got.summary.startswith("tensor a (160) vs tensor b (2) at dim 0: 160 = 10 running")
    assert "2 is not a product of the known facts (running_req=10" in got.summary
    plain = next(r for r in got.readings if r.startswith("2 fits no product"))
    assert "as one row per request (plain decode) it would be a batch of 2 requests" in plain
    assert "batch of 2 requests, not the 10 of the last logged Decode batch line" in plain
    assert "captured cuda-graph" not in plain  # graph sizes unknown: not claimed
    assert any("one side has a speculative shape" in r for r in got.readings)


def test_two_is_named_a_captured_graph_size_only_when_the_log_lists_it() -> None:
    got = run(SEED, config(N=16, K=4, S=5, graphs=[1, 2, 4, 8, 10, 12]), load(10))
    assert got.unexplained == (2,)
    assert any("2 is also a captured cuda-graph batch size [1, 2, 4, 8, 10, 12]" in r
               for r in got.readings)  # fmt: skip


def test_nothing_known_means_unexplained() -> None:
    got = run(SEED, RunConfig(), None)
    assert not got.explained
    assert got.terms == {} and got.tensor is None and got.readings == ()
    assert got.unexplained == (160, 2)
    assert got.summary.endswith("160 and 2 are not a product of the known facts (no run facts "
                                "were found).")  # fmt: skip


def test_without_running_req_a_divisor_is_only_a_reading() -> None:
    got = run(SEED, config(N=16, K=4, S=5), None)
    assert not got.explained and got.terms == {}
    assert got.readings[0] == (
        "160 = 10 × 16 (N): would be bs×N verify rows for a batch of 10 requests, "
        "which no logged batch size confirms"
    )
    assert "160 = 40 × 4 (K)" in got.readings[1]


def test_several_matching_products_are_all_listed() -> None:
    got = run(
        "The size of tensor a (32) must match the size of tensor b (8) at non-singleton dimension 0",
        config(N=4, K=4, S=2),
        load(8),
    )
    assert got.terms["32"].count(" or ") == 1
    assert "8 running requests × 4 draft tokens" in got.terms["32"]
    assert "8 running requests × topk 4" in got.terms["32"]
    assert got.tensor is None  # two tensors fit: none is picked silently
    assert got.terms["8"].startswith("8 running requests (bs: plain decode")


def test_padded_graph_batch_size() -> None:
    got = run(
        "The size of tensor a (2) must match the size of tensor b (160) at non-singleton dimension 0",
        config(N=16, graphs=[1, 2, 4, 8, 10, 12, 14, 16]),
        load(9),
    )
    assert got.facts["graph_bs"] == 10
    assert got.terms["160"].startswith("padded cuda-graph bs 10 × 16 draft tokens")


def test_view_of_a_plain_tensor_as_bs_by_n() -> None:
    got = run("shape '[10, 16, -1]' is invalid for input of size 8192", config(N=16, K=4, S=5),
              load(10))  # fmt: skip
    assert got.terms["10"].startswith("10 running requests (bs")
    assert "16 draft tokens (N)" in got.terms["16"]
    assert got.unexplained == (8192,)
    assert "8192 = 512 × 16 (N)" in got.readings[0]


def test_expand_target_and_tensor_sizes() -> None:
    got = run(
        "The expanded size of the tensor (160) must match the existing size (10) at non-singleton "
        "dimension 0.  Target sizes: [160, 16].  Tensor sizes: [10, 16]",
        config(N=16, K=4, S=5),
        load(10),
    )
    assert set(got.terms) == {"160", "10", "16"} and got.unexplained == ()
    assert got.tensor is not None  # bs×N is the only speculative product among 160, 10
    assert "retrive_index" in got.terms["16"]


def test_cat_sizes_draft_extend_against_verify() -> None:
    got = run(
        "Sizes of tensors must match except in dimension 1. Expected size 6 but got size 8 for "
        "tensor number 1 in the list.",
        config(N=8, K=1, S=5),
        load(1),
    )
    assert "1 running requests × 6 (steps + 1)" in got.terms["6"]
    assert "1 running requests × 8 draft tokens" in got.terms["8"]


def test_matmul_eagle3_fused_hidden_reading() -> None:
    got = run("mat1 and mat2 shapes cannot be multiplied (160x12288 and 4096x4096)",
              config(N=16), load(10))  # fmt: skip
    assert "160" in got.terms
    assert any(r.startswith("12288 = 3 × 4096") for r in got.readings)


def test_index_out_of_bounds_reading() -> None:
    got = run("index 12 is out of bounds for dimension 0 with size 10", config(N=16), load(10))
    assert got.terms["10"].startswith("10 running requests")
    assert got.readings == (
        "index 12 would be in range for a bs×N target-verify rows tensor of 160 rows "
        "(10 running requests × 16 draft tokens)",
    )


def test_topk_out_of_range_explained_by_the_draft_tree_constraint() -> None:
    got = run("selected index k out of range", config(N=16, K=2, S=2), None)
    assert got.explained
    assert got.terms == {"15": "N - 1 = 15 > K + (S-1)·K² = 2 + 1·4 = 6"}
    ok = run("selected index k out of range", config(N=16, K=4, S=5), None)
    assert not ok.explained and "68 candidates" in ok.summary
    unknown = run("selected index k out of range", config(N=16), None)
    assert not unknown.explained and "num_draft_tokens=16" in unknown.summary


def test_unpack_is_not_a_shape_and_stays_unexplained() -> None:
    got = run("too many values to unpack (expected 2)", config(N=16), load(10))
    assert not got.explained and got.tensor is None
    assert "not a tensor shape" in got.summary and "signature changed" in got.summary


def test_vllm_verify_rows() -> None:
    got = run(
        "The size of tensor a (40) must match the size of tensor b (10) at non-singleton dimension 0",
        config(T=3),
        load(10),
    )
    assert got.explained
    assert "10 running requests × 4 (spec tokens + 1)" in got.terms["40"]


@settings(max_examples=300, deadline=None)
@given(
    a=st.integers(0, 5000),
    b=st.integers(0, 5000),
    n=st.integers(1, 64),
    k=st.integers(1, 8),
    s=st.integers(1, 8),
    running=st.none() | st.integers(0, 512),
)
def test_every_term_is_an_exact_product_of_the_facts(
    a: int, b: int, n: int, k: int, s: int, running: int | None
) -> None:
    text = f"The size of tensor a ({a}) must match the size of tensor b ({b}) at non-singleton dimension 0"
    got = run(text, config(N=n, K=k, S=s), load(running) if running is not None else None)
    assert set(got.terms) | {str(x) for x in got.unexplained} == {str(x) for x in {a, b} if x >= 2}
    for value, term in got.terms.items():
        for alternative in term.split(" or "):
            expr = re.split(r" \((?:bs|per-request)", alternative)[0]
            product = 1
            for factor in re.split(r"× (?=\d|topk \d)", expr):
                product *= int(re.findall(r"\d+", factor)[0])
            assert product == int(value), alternative
    if running is None:  # widths alone explain only when every number fits one
        assert got.explained == (a != b and min(a, b) >= 2 and got.unexplained == ())


def test_capture_crash_uses_the_batch_size_being_captured() -> None:
    cfg = config(N=16, K=4, S=5)
    cfg.flags["capture_bs"] = FlagValue(48, "run.log", 30, "capture_log")
    got = run(
        "The size of tensor a (768) must match the size of tensor b (48) at non-singleton dimension 0",
        cfg,
        None,
    )
    assert got.explained and got.facts["capture_bs"] == 48
    assert got.terms["768"].startswith("cuda-graph capture bs 48 × 16 draft tokens")
    assert got.terms["48"].startswith("cuda-graph capture bs 48 (bs: plain decode")
    decoding = run(
        "The size of tensor a (768) must match the size of tensor b (48) at non-singleton dimension 0",
        cfg,
        load(10),
    )
    assert "capture_bs" not in decoding.facts  # serving had begun: the capture bs is history


def test_batch_shrank_to_two_after_a_speculative_step_of_ten() -> None:
    """ENGINE_ANCHORS 2.7: stale bs=10 verify state met a plain batch of 2 live requests."""
    got = run(SEED, config(N=16, K=4, S=5), load(2))
    assert got.explained and got.unexplained == (160,)
    assert got.terms == {
        "2": "2 running requests (bs: plain decode, one row per request: plain-decode rows (bs))"
    }
    assert got.readings[0] == (
        "160 = 10 × 16 (N): would be bs×N verify rows for a batch of 10 requests, "
        "which no logged batch size confirms"
    )


def test_vllm_crash_dump_total_tokens_is_a_fact() -> None:
    dump = LoadSample("run.log", 90, None, None, running_req=3, kind="crash_dump",
                      fields={"total_num_scheduled_tokens": "12"})  # fmt: skip
    got = run(
        "The size of tensor a (12) must match the size of tensor b (9) at non-singleton dimension 0",
        config(T=3),
        dump,
    )
    assert got.terms["12"].startswith("12 scheduled tokens (every token of the crashing step")
    assert "3 requests in the crashing step × 4 (spec tokens + 1)" in got.terms["12"]
    assert got.terms["9"].startswith("3 requests in the crashing step × 3 spec tokens")
    assert got.facts == {"step_requests": 3, "scheduled_tokens": 12, "num_spec_tokens": 3}
