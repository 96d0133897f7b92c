"""Tensor shape-mismatch messages -> numbers (``ShapeMismatch``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ShapeMismatch:
    # "size_of_tensor", "cat_sizes", "view_invalid", "expand", "expand_ndim", "matmul",
    # "broadcast", "ndim", "split_sizes", "size_check", "index_oob", "topk_range", "unpack",
    # "trt_invalid_shape", "tvm_size"; listed dims are "shape0.." and "target0.."
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


def _pair(m: re.Match[str]) -> dict[str, int]:
    """Two lists of dims: ``shape`` is the side that was given, ``target`` the one it had to fit."""
    return {**_listed("shape", m["shape"]), **_listed("target", m["target"])}


def _old_cat(m: re.Match[str]) -> dict[str, int]:
    out = {"dim": int(m["dim"]), "expected": int(m["exp"]), "got": int(m["got"]),
           "at_dim": int(m["at"])}  # fmt: skip
    return out | ({"tensor_number": int(m["num"])} if m["num"] else {})


def _expand_ndim(m: re.Match[str]) -> dict[str, int]:
    return {"n_sizes": int(m["n"]), "ndim": int(m["ndim"]),
            **_listed("tensor", m["tensor"]), **_listed("target", m["target"])}  # fmt: skip


def _first(m: re.Match[str], *names: str) -> int:
    return int(next(v for n in names if (v := m[n]) is not None))


def _ndim(m: re.Match[str]) -> dict[str, int]:
    return {"a_dims": _first(m, "a", "a2"), "b_dims": _first(m, "b", "b2")}


def _check(m: re.Match[str]) -> dict[str, int]:
    """Several checks' wordings in one regex: each alternative names its pair a/b, a2/b2, ..."""
    return {"lhs": _first(m, "a", "a2", "a3", "a4"), "rhs": _first(m, "b", "b2", "b3", "b4")}


def _split(m: re.Match[str]) -> dict[str, int]:
    sizes = _listed("shape", m["shape"])
    total = int(m["sum"]) if m["sum"] else sum(sizes.values())
    return {"input_size": int(m["size"]), "split_sum": total, **sizes} | (
        {"dim": int(m["dim"])} if m["dim"] else {}
    )


def _expected_got(m: re.Match[str]) -> dict[str, int]:
    return {"expected": int(m["exp"]), "got": int(m["got"])}


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
    (  # the wording of torch <= 1.x and of CUDA's cat: "Got 160 and 10 in dimension 0"
        "cat_sizes",
        re.compile(
            r"Sizes of tensors must match except in dimension (?P<dim>\d{1,18})\.? Got (?P<exp>\d{1,18})"
            r" and (?P<got>\d{1,18}) in dimension (?P<at>\d{1,18})(?: \(The offending index is (?P<num>\d{1,18})\))?"
        ),
        _old_cat,
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
        "expand_ndim",
        re.compile(
            r"expand\([\w.]*\{\[(?P<tensor>[-\d, ]*)\]\}, size=\[(?P<target>[-\d, ]*)\]\): the number of sizes "
            r"provided \((?P<n>\d{1,18})\) must be greater or equal to the number of dimensions in the "
            r"tensor \((?P<ndim>\d{1,18})\)"
        ),
        _expand_ndim,
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
    (  # torch's in-place op / copy_ and NumPy's ufunc ``out=``: the output cannot grow
        "broadcast",
        re.compile(
            r"(?:output|Destination|output operand)(?: with shape)? [\[(](?P<shape>[-\d, ]*)[\])] "
            r"doesn't match the broadcast shape [\[(](?P<target>[-\d, ]*)[\])]"
        ),
        _pair,
    ),
    (  # NumPy assignment: a[...] = b
        "broadcast",
        re.compile(
            r"could not broadcast input array from shape \((?P<shape>[-\d, ]*)\) into shape "
            r"\((?P<target>[-\d, ]*)\)"
        ),
        _pair,
    ),
    (  # NumPy binary ops, also the "remapped shapes [original->remapped]" form
        "broadcast",
        re.compile(
            r"operands could not be broadcast together with (?:remapped )?shapes (?:\[original->remapped\]: )?"
            r"\((?P<shape>[-\d, ]*)\)(?:->\([^)]*\))? \((?P<target>[-\d, ]*)\)"
        ),
        _pair,
    ),
    (  # torch index_put_ / masked assignment
        "broadcast",
        re.compile(
            r"shape mismatch: value tensor of shape \[(?P<shape>[-\d, ]*)\] cannot be broadcast to "
            r"indexing result of shape \[(?P<target>[-\d, ]*)\]"
        ),
        _pair,
    ),
    (
        "broadcast",
        re.compile(
            r"The shape of the mask \[(?P<shape>[-\d, ]*)\] at index \d{1,18} does not match the shape of "
            r"the indexed tensor \[(?P<target>[-\d, ]*)\]"
        ),
        _pair,
    ),
    (  # load_state_dict: a draft head or checkpoint of another shape
        "broadcast",
        re.compile(
            r"copying a param with shape torch\.Size\(\[(?P<shape>[-\d, ]*)\]\) from checkpoint, the "
            r"shape in current model is torch\.Size\(\[(?P<target>[-\d, ]*)\]\)"
        ),
        _pair,
    ),
    (  # bmm / baddbmm
        "broadcast",
        re.compile(
            r"Expected size for first two dimensions of \w+ tensor to be: \[(?P<target>[-\d, ]*)\] but "
            r"got: \[(?P<shape>[-\d, ]*)\]"
        ),
        _pair,
    ),
    (
        "split_sizes",
        re.compile(
            r"split_with_sizes expects split_sizes to sum exactly to (?P<size>\d{1,18})"
            r"(?: \(input tensor's size at dimension (?P<dim>-?\d{1,18})\))?, but got "
            r"(?:split_sizes=)?\[(?P<shape>[-\d, ]*)\](?P<sum>)"
        ),
        _split,
    ),
    (  # torch.compile's fake tensors say it the other way round
        "split_sizes",
        re.compile(
            r"Split sizes add up to (?P<sum>\d{1,18}) but got the tensor's size of (?P<size>\d{1,18})"
            r"(?P<dim>)(?P<shape>)"
        ),
        _split,
    ),
    (
        "ndim",
        re.compile(
            r"Tensors must have same number of dimensions: got (?P<a>\d{1,18}) and (?P<b>\d{1,18})"
            r"|\.dim\(\) != \S+\.dim\(\)\. (?P<a2>\d{1,18}) vs (?P<b2>\d{1,18})"
        ),
        _ndim,
    ),
    (  # flashinfer / sgl-kernel CHECK_EQ, c10's TORCH_CHECK_EQ, Triton's shape check
        "size_check",
        re.compile(
            r"CHECK_(?:EQ|GE|LE|GT|LT)\((?P<expr>[^\n]{0,200}?(?:size|shape|dim|numel|len|num_|batch|tokens)"
            r"[^\n]{0,200}?)\) failed\. (?P<a>-?\d{1,18}) vs (?P<b>-?\d{1,18})"
            r"|Check failed: (?P<expr2>[^\n]{0,200}?(?:size|shape|dim|numel|len|num_|batch|tokens)[^\n]{0,200}?) "
            r"\((?P<a2>-?\d{1,18}) vs\. (?P<b2>-?\d{1,18})\)"
            r"|incompatible dimensions at index \d{1,18}: (?P<a3>\d{1,18}) and (?P<b3>\d{1,18})"
            r"|Expected input batch_size \((?P<a4>\d{1,18})\) to match target batch_size \((?P<b4>\d{1,18})\)"
        ),
        _check,
    ),
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


_BREAK = re.compile(r"[ \t]*\r?\n[ \t]*")
_GENERIC = re.compile(  # any framework's size check naming both numbers ("... size: expected 5, got 4")
    r"\b(?:size|shape|dim(?:ension)?|length|numel|tokens|rows)\b[^\n]{0,80}?\b[Ee]xpected:? \(?(?P<exp>\d{1,18})\)?,?"
    r" (?:but )?(?:got|found|received|is|was):? \(?(?P<got>\d{1,18})\)?"
)


def find_shape_mismatch(text: str) -> ShapeMismatch | None:
    """The first shape message in the text, decoded into its numbers. A line break and the
    indent after it count as one space: a message wrapped over lines still reads whole."""
    if "\n" in text:
        text = _BREAK.sub(" ", text)
    for name, regex, numbers in _PATTERNS:
        match = regex.search(text)
        if match is not None:
            return ShapeMismatch(name, numbers(match), match.group(0))
    match = _GENERIC.search(text)
    if match is not None:
        return ShapeMismatch("size_check", _expected_got(match), match.group(0))
    return None
