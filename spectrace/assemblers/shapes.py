"""Tensor shape-mismatch messages -> numbers (``ShapeMismatch``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ShapeMismatch:
    # "size_of_tensor", "cat_sizes", "view_invalid", "expand", "matmul", "index_oob",
    # "topk_range", "unpack", "trt_invalid_shape"
    pattern: str
    numbers: dict[str, int]  # e.g. {"a": 160, "b": 2, "dim": 0}
    text: str  # the matched message


def _ints(text: str) -> list[int]:
    return [int(x) for x in re.findall(r"-?\d{1,18}", text)]


def _listed(prefix: str, text: str | None) -> dict[str, int]:
    """``[10, 16, -1]`` -> {"prefix0": 10, "prefix1": 16, "prefix2": -1}."""
    return {f"{prefix}{i}": v for i, v in enumerate(_ints(text or ""))}


def _size_of_tensor(m: re.Match[str]) -> dict[str, int]:
    return {"a": int(m["a"]), "b": int(m["b"]), "dim": int(m["dim"])}


def _cat(m: re.Match[str]) -> dict[str, int]:
    return {
        "dim": int(m["dim"]),
        "expected": int(m["exp"]),
        "got": int(m["got"]),
        "tensor_number": int(m["num"]),
    }


def _view(m: re.Match[str]) -> dict[str, int]:
    return {**_listed("shape", m["shape"]), "input_size": int(m["size"])}


def _expand(m: re.Match[str]) -> dict[str, int]:
    return {
        "expanded": int(m["exp"]),
        "existing": int(m["ex"]),
        "dim": int(m["dim"]),
        **_listed("target", m["target"]),
        **_listed("tensor", m["tensor"]),
    }


def _matmul(m: re.Match[str]) -> dict[str, int]:
    return {
        "mat1_rows": int(m["a"]),
        "mat1_cols": int(m["b"]),
        "mat2_rows": int(m["c"]),
        "mat2_cols": int(m["d"]),
    }


def _index(m: re.Match[str]) -> dict[str, int]:
    return {"index": int(m["i"]), "dim": int(m["dim"]), "size": int(m["size"])}


def _unpack(m: re.Match[str]) -> dict[str, int]:
    out = {"expected": int(m["exp"])}
    return out | ({"got": int(m["got"])} if m["got"] else {})


def _trt_shape(m: re.Match[str]) -> dict[str, int]:
    return {**_listed("shape", m["got"]), **_listed("target", m["exp"])}


def _tvm_size(m: re.Match[str]) -> dict[str, int]:
    return {"dim": int(m["dim"]), "expected": int(m["exp"]), "got": int(m["got"])}


def _none(_m: re.Match[str]) -> dict[str, int]:
    return {}


# (pattern name, regex, numbers) in the order they are tried; the messages are torch's own.
_PATTERNS: tuple[tuple[str, re.Pattern[str], Callable[[re.Match[str]], dict[str, int]]], ...] = (
    (
        "size_of_tensor",
        re.compile(
            r"The size of tensor a \((?P<a>\d{1,18})\) must match the size of tensor b \((?P<b>\d{1,18})\)"
            r" at non-singleton dimension (?P<dim>\d{1,18})"
        ),
        _size_of_tensor,
    ),
    (
        "cat_sizes",
        re.compile(
            r"Sizes of tensors must match except in dimension (?P<dim>\d{1,18})\. Expected size (?P<exp>\d{1,18})"
            r" but got size (?P<got>\d{1,18}) for tensor number (?P<num>\d{1,18}) in the list"
        ),
        _cat,
    ),
    (
        "view_invalid",
        re.compile(
            r"shape '\[(?P<shape>[-\d, ]*)\]' is invalid for input of size (?P<size>\d{1,18})"
        ),
        _view,
    ),
    (
        "expand",
        re.compile(
            r"The expanded size of the tensor \((?P<exp>-?\d{1,18})\) must match the existing size "
            r"\((?P<ex>\d{1,18})\) at non-singleton dimension (?P<dim>\d{1,18})\.?"
            r"(?:\s+Target sizes: \[(?P<target>[-\d, ]*)\]\.?)?(?:\s+Tensor sizes: \[(?P<tensor>[\d, ]*)\])?"
        ),
        _expand,
    ),
    (
        "matmul",
        re.compile(
            r"mat1 and mat2 shapes cannot be multiplied \((?P<a>\d{1,18})x(?P<b>\d{1,18}) and (?P<c>\d{1,18})x(?P<d>\d{1,18})\)"
        ),
        _matmul,
    ),
    (
        "index_oob",
        re.compile(
            r"index (?P<i>-?\d{1,18}) is out of bounds for dimension (?P<dim>\d{1,18}) with size (?P<size>\d{1,18})"
        ),
        _index,
    ),
    ("topk_range", re.compile(r"selected index k out of range"), _none),
    (  # TensorRT-LLM's C++ check: "Tensor 'draft_tokens' has invalid shape (8, 4), expected (8, 5)"
        "trt_invalid_shape",
        re.compile(r"has invalid shape \((?P<got>[-\d, ]*)\), expected \((?P<exp>[-\d, ]*)\)"),
        _trt_shape,
    ),
    (  # tvm_ffi's tensor check (sglang's JIT kernels): the dim is named after its meaning
        "tvm_size",
        re.compile(
            r"Size mismatch for shape#(?P<dim>\d{1,18})\('(?P<name>[^']*)'\): "
            r"expected (?P<exp>\d{1,18}) but got (?P<got>\d{1,18})"
        ),
        _tvm_size,
    ),
    (
        "unpack",
        re.compile(
            r"(?:too many|not enough) values to unpack \(expected (?P<exp>\d{1,18})(?:, got (?P<got>\d{1,18}))?\)"
        ),
        _unpack,
    ),
)


def find_shape_mismatch(text: str) -> ShapeMismatch | None:
    """The first torch shape message in the text, decoded into its numbers."""
    for name, regex, numbers in _PATTERNS:
        match = regex.search(text)
        if match is not None:
            return ShapeMismatch(name, numbers(match), match.group(0))
    return None
