"""torch's shape messages -> numbers; each message written by us in torch's exact wording."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spectrace.assemblers.shapes import find_shape_mismatch


@pytest.mark.parametrize(
    ("text", "pattern", "numbers"),
    [
        (
            "RuntimeError: The size of tensor a (160) must match the size of tensor b (2) at "
            "non-singleton dimension 0",
            "size_of_tensor", {"a": 160, "b": 2, "dim": 0},
        ),
        (
            "RuntimeError: Sizes of tensors must match except in dimension 1. Expected size 6 but "
            "got size 8 for tensor number 1 in the list.",
            "cat_sizes", {"dim": 1, "expected": 6, "got": 8, "tensor_number": 1},
        ),
        (
            "RuntimeError: shape '[10, 16, -1]' is invalid for input of size 4000",
            "view_invalid", {"shape0": 10, "shape1": 16, "shape2": -1, "input_size": 4000},
        ),
        (
            "RuntimeError: The expanded size of the tensor (160) must match the existing size (2) at "
            "non-singleton dimension 0.  Target sizes: [160, 4096].  Tensor sizes: [2, 4096]",
            "expand",
            {"expanded": 160, "existing": 2, "dim": 0, "target0": 160, "target1": 4096,
             "tensor0": 2, "tensor1": 4096},
        ),
        (
            "RuntimeError: The expanded size of the tensor (160) must match the existing size (2) at "
            "non-singleton dimension 0.  Target sizes: [160].  Tensor sizes: [2]",
            "expand", {"expanded": 160, "existing": 2, "dim": 0, "target0": 160, "tensor0": 2},
        ),
        (
            "RuntimeError: mat1 and mat2 shapes cannot be multiplied (160x12288 and 4096x4096)",
            "matmul", {"mat1_rows": 160, "mat1_cols": 12288, "mat2_rows": 4096, "mat2_cols": 4096},
        ),
        (
            "IndexError: index 12 is out of bounds for dimension 0 with size 10",
            "index_oob", {"index": 12, "dim": 0, "size": 10},
        ),
        ("RuntimeError: selected index k out of range", "topk_range", {}),
        ("ValueError: too many values to unpack (expected 2)", "unpack", {"expected": 2}),
        (
            "ValueError: too many values to unpack (expected 2, got 3)",
            "unpack", {"expected": 2, "got": 3},
        ),
    ],
)  # fmt: skip
def test_each_message(text: str, pattern: str, numbers: dict[str, int]) -> None:
    mismatch = find_shape_mismatch(text)
    assert mismatch is not None
    assert (mismatch.pattern, mismatch.numbers) == (pattern, numbers)
    assert mismatch.text in text and not mismatch.text.startswith(("RuntimeError", "ValueError"))


def test_found_inside_a_multi_line_message() -> None:
    text = (
        "Capture cuda graph failed: The size of tensor a (48) must match the size of tensor b (12) "
        "at non-singleton dimension 1\nPossible solutions:\n1. set --mem-fraction-static to a "
        "smaller value (e.g., 0.8 or 0.7)"
    )
    mismatch = find_shape_mismatch(text)
    assert mismatch is not None and mismatch.numbers == {"a": 48, "b": 12, "dim": 1}


@pytest.mark.parametrize(
    "text",
    [
        "CUDA error: an illegal memory access was encountered",
        "NCCL watchdog timeout: Watchdog caught collective operation timeout",
        "RuntimeError: size mismatch",
        "",
    ],
)
def test_other_messages_are_not_shape_mismatches(text: str) -> None:
    assert find_shape_mismatch(text) is None


def test_absurd_numbers_do_not_raise() -> None:
    huge = "9" * 5000
    text = f"The size of tensor a ({huge}) must match the size of tensor b (2) at non-singleton dimension 0"
    assert find_shape_mismatch(text) is None
    view = find_shape_mismatch(f"shape '[{huge}, -1]' is invalid for input of size 12")
    assert view is not None and view.numbers["input_size"] == 12


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_any_text_is_handled(text: str) -> None:
    found = find_shape_mismatch("RuntimeError: " + text)
    assert found is None or found.text in "RuntimeError: " + text
