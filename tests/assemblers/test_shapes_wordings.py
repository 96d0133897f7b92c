"""Every shape-mismatch wording (torch, NumPy, Triton, kernel checks) decoded against the
run's own numbers, in a traceback and alone on one line. Messages written by us in each
library's wording (ATen, numpy, triton semantic, flashinfer / sgl-kernel CHECK_EQ)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spectrace.assemblers.load import LoadSample
from spectrace.assemblers.run_config import FlagValue, RunConfig
from spectrace.assemblers.shapes import find_shape_mismatch
from spectrace.explain import explain
from spectrace.pipeline import analyse

# (message, pattern, the number that is bs x N for 10 requests x 16 draft tokens)
WORDINGS = [
    ("RuntimeError: output with shape [10, 1] doesn't match the broadcast shape [160, 1]",
     "broadcast"),
    ("ValueError: could not broadcast input array from shape (160,) into shape (10,)", "broadcast"),
    ("ValueError: operands could not be broadcast together with shapes (160,4) (10,4) ",
     "broadcast"),
    ("RuntimeError: Sizes of tensors must match except in dimension 1. Expected size 160 but got "
     "size 10 for tensor number 1 in the list.", "cat_sizes"),
    ("RuntimeError: Sizes of tensors must match except in dimension 1. Got 160 and 10 in "
     "dimension 0 (The offending index is 1)", "cat_sizes"),
    ("RuntimeError: The expanded size of the tensor (160) must match the existing size (10) at "
     "non-singleton dimension 0.  Target sizes: [160, 8].  Tensor sizes: [10, 8]", "expand"),
    ("RuntimeError: expand(torch.cuda.LongTensor{[160, 1, 1]}, size=[160, 1]): the number of sizes "
     "provided (2) must be greater or equal to the number of dimensions in the tensor (3)",
     "expand_ndim"),
    ("RuntimeError: shape '[10, 16]' is invalid for input of size 160", "view_invalid"),
    ("RuntimeError: mat1 and mat2 shapes cannot be multiplied (160x4096 and 12288x4096)", "matmul"),
    ("RuntimeError: split_with_sizes expects split_sizes to sum exactly to 160 (input tensor's size "
     "at dimension 0), but got split_sizes=[10, 10]", "split_sizes"),
    ("RuntimeError: CHECK_EQ(draft_tokens.size(0), num_tokens) failed. 160 vs 10", "size_check"),
    ("RuntimeError: Check failed: draft_tokens.size(0) == num_tokens (160 vs. 10)", "size_check"),
    ("ValueError: Cannot make_shape_compatible: incompatible dimensions at index 0: 160 and 10",
     "size_check"),
    ("RuntimeError: shape mismatch: value tensor of shape [160] cannot be broadcast to indexing "
     "result of shape [10]", "broadcast"),
    ("AssertionError: verify input rows: expected 160 but got 10", "size_check"),
]  # fmt: skip


def cfg() -> RunConfig:
    flags = {"speculative_num_draft_tokens": 16, "speculative_eagle_topk": 1,
             "speculative_num_steps": 3}  # fmt: skip
    return RunConfig(flags={k: FlagValue(v, "run.log", 2, "server_args") for k, v in flags.items()})


@pytest.mark.parametrize(("text", "pattern"), WORDINGS, ids=[w[1] for w in WORDINGS])
def test_each_wording_is_decoded_against_the_run(text: str, pattern: str) -> None:
    mismatch = find_shape_mismatch(text)
    assert mismatch is not None and mismatch.pattern == pattern
    got = explain(mismatch, cfg(), LoadSample("run.log", 9, "TP0", None, running_req=10))
    assert got.explained, got.summary
    assert "10 running requests × 16 draft tokens" in got.terms["160"]


def test_a_message_wrapped_over_lines_is_read_whole() -> None:
    wrapped = "The size of tensor a (160) must match the size of tensor b (10) at\n    non-singleton dimension 0"
    mismatch = find_shape_mismatch(wrapped)
    assert mismatch is not None and mismatch.numbers == {"a": 160, "b": 10, "dim": 0}


def test_broadcast_names_the_dims_that_differ_aligned_right() -> None:
    mismatch = find_shape_mismatch("output with shape [10, 1] doesn't match the broadcast shape [10, 16]")
    assert mismatch is not None
    got = explain(mismatch, cfg(), LoadSample("run.log", 9, "TP0", None, running_req=10))
    assert got.summary.startswith("shapes [10, 1] and [10, 16] do not broadcast: 16 = 16 draft")
    assert list(got.terms) == ["16", "10"]  # the differing dim first, then the listed ones


@pytest.mark.parametrize(
    "text", ["Check failed: ret == 0 (-1 vs. 0)", "expected 2 arguments but got 3"]
)
def test_checks_that_are_not_about_sizes_are_not_shape_mismatches(text: str) -> None:
    assert find_shape_mismatch(text) is None


@pytest.mark.parametrize(("text", "pattern"), WORDINGS[:14], ids=[w[1] for w in WORDINGS[:14]])
def test_a_mismatch_alone_on_one_line_is_a_decoded_crash(
    tmp_path: Path, text: str, pattern: str
) -> None:
    bare = text.split(": ", 1)[1]  # the exception type cut off, as a logger prints the message
    log = tmp_path / "run.log"
    log.write_text(
        "[2026-05-01 10:00:00] server_args=ServerArgs(speculative_algorithm='EAGLE', "
        "speculative_num_draft_tokens=16, speculative_eagle_topk=1, speculative_num_steps=3)\n"
        "[2026-05-01 10:00:05 TP0] Decode batch. #running-req: 10, #token: 900, token usage: "
        "0.02, accept len: 2.50, gen throughput (token/s): 300.00, #queue-req: 0\n"
        f"[2026-05-01 10:00:06 TP0] {bare}\n",
        encoding="utf-8",
    )
    (crash,) = [i for i in analyse([str(log)]).incidents if i.root_cause]
    assert crash.crash_class == "shape_mismatch"
    assert crash.shape_mismatch is not None and crash.shape_mismatch.pattern == pattern
    assert crash.explanation is not None and "160" in crash.explanation.terms
