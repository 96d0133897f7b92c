"""ShapeMismatch + run facts -> the arithmetic that explains it (160 = 10 x 16).

Only exact products of facts the log itself states count as an explanation (the last
``#running-req``, N = speculative_num_draft_tokens, K = topk, S = steps, a captured graph
bs). Anything weaker is a *reading*: offered, labelled, never claimed.
"""

from __future__ import annotations

from dataclasses import dataclass

from spectrace.assemblers.load import LoadSample
from spectrace.assemblers.run_config import RunConfig
from spectrace.assemblers.shapes import ShapeMismatch
from spectrace.spec_shapes import Product, graph_sizes, products, run_facts


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why the numbers of a shape mismatch are what they are, or that we cannot tell.

    ``terms`` maps each number of the mismatch (as text, e.g. "160") to the product that
    produced it ("10 running requests x 16 draft tokens"); ``tensor`` names the spec_info
    tensor the shape belongs to when it can be told (LOG_FORMATS.md 1.7).
    """

    explained: bool
    summary: str  # one sentence a user reads first
    terms: dict[str, str]
    tensor: str | None
    facts: dict[str, int]  # the run facts used: running_req, num_draft_tokens, topk, steps, ...
    readings: tuple[str, ...] = ()  # possible readings the facts do not settle, each said so
    unexplained: tuple[int, ...] = ()  # the numbers no product of the facts gives


# The numbers of each message worth explaining, in reading order.
_PRIMARY = {
    "size_of_tensor": ("a", "b"),
    "cat_sizes": ("expected", "got"),
    "view_invalid": ("input_size",),
    "expand": ("expanded", "existing"),
    "matmul": ("mat1_rows", "mat1_cols", "mat2_rows"),
    "index_oob": ("size",),
    "tvm_size": ("expected", "got"),
}


_PRIMARY.update({
    "split_sizes": ("input_size", "split_sum"),
    "size_check": ("lhs", "rhs", "expected", "got"),
})  # fmt: skip
_LISTED = ("shape", "target", "tensor")


def _listed(sm: ShapeMismatch, prefix: str) -> list[int]:
    return [v for k, v in sm.numbers.items() if k.startswith(prefix) and k != "tensor_number"]


def _primary(sm: ShapeMismatch) -> list[int]:
    """The numbers that disagree. Two shapes that must broadcast: the dims that differ,
    aligned from the right as torch and NumPy align them ([10, 1] vs [10, 16]: 16)."""
    if sm.pattern == "broadcast":
        given, needed = _listed(sm, "shape"), _listed(sm, "target")
        pairs = zip(reversed(given), reversed(needed))
        values = [x for a, b in pairs if a != b for x in (b, a)]
    elif sm.pattern == "expand_ndim":
        values = _listed(sm, "tensor")  # the counts of dims say how, the tensor's dims say why
    else:
        values = [sm.numbers[k] for k in _PRIMARY.get(sm.pattern, ()) if k in sm.numbers]
    return list(dict.fromkeys(v for v in values if v >= 2))


def _numbers(sm: ShapeMismatch) -> list[int]:
    """Distinct numbers to explain: the primary ones, then listed dims (view/expand shapes)."""
    seen = _primary(sm)
    for prefix in _LISTED:
        seen += [v for v in _listed(sm, prefix) if v >= 2 and v not in seen]
    return seen


def _term(matches: list[Product]) -> str:
    return " or ".join(f"{p.expr} ({p.meaning}: {p.tensor})" for p in matches)


def _facts_text(facts: dict[str, int]) -> str:
    return ", ".join(f"{k}={v}" for k, v in facts.items()) or "no run facts were found"


def explain(sm: ShapeMismatch, config: RunConfig, load: LoadSample | None) -> Explanation:
    """Explain each number of the mismatch from the run's own facts, or say it cannot."""
    facts = run_facts(config, load)
    if sm.pattern == "topk_range":
        return _topk_range(facts)
    if sm.pattern == "unpack":
        return _unpack(sm, facts)
    candidates = products(facts)
    terms: dict[str, str] = {}
    tensors: list[str] = []
    unexplained: list[int] = []
    primary = set(_primary(sm))
    for value in _numbers(sm):
        matches = [p for p in candidates if p.value == value]
        if matches:
            terms[str(value)] = _term(matches)
            if value in primary:  # listed dims (a (bs, N) second dim) do not name the tensor
                tensors += [p.tensor for p in matches if p.spec and p.tensor not in tensors]
        else:
            unexplained.append(value)
    readings = _readings(sm, facts, candidates, terms, unexplained, graph_sizes(config))
    explained = _is_explained(primary, terms, candidates)
    return Explanation(
        explained=explained,
        summary=_summary(sm, facts, terms, unexplained),
        terms=terms,
        tensor=tensors[0] if len(tensors) == 1 else None,
        facts=facts,
        readings=tuple(readings),
        unexplained=tuple(unexplained),
    )


def _is_explained(primary: set[int], terms: dict[str, str], candidates: list[Product]) -> bool:
    """A batch-sized product explains; bare widths (N, K, S+1) only when every number fits."""
    by_batch = any(p.value == v and p.uses_batch for v in primary for p in candidates)
    widths_only = len(primary) >= 2 and all(str(v) in terms for v in primary)
    return by_batch or widths_only


def _dims(numbers: dict[str, int], prefix: str) -> str:
    return ", ".join(str(v) for k, v in numbers.items() if k.startswith(prefix))


def _lead(sm: ShapeMismatch) -> str:
    n = sm.numbers
    leads = {
        "size_of_tensor": f"tensor a ({n.get('a')}) vs tensor b ({n.get('b')}) at dim {n.get('dim')}",
        "cat_sizes": f"cat expected {n.get('expected')} but got {n.get('got')} at dim {n.get('dim')}",
        "view_invalid": f"view/reshape of {n.get('input_size')} elements",
        "expand": f"expand to {n.get('expanded')} from {n.get('existing')} at dim {n.get('dim')}",
        "matmul": f"matmul {n.get('mat1_rows')}x{n.get('mat1_cols')} by "
        f"{n.get('mat2_rows')}x{n.get('mat2_cols')}",
        "index_oob": f"index {n.get('index')} on dim {n.get('dim')} of size {n.get('size')}",
        "tvm_size": f"dim {n.get('dim')} expected {n.get('expected')} but got {n.get('got')}",
        "trt_invalid_shape": f"shape ({_dims(n, 'shape')}) where ({_dims(n, 'target')}) was expected",
        "broadcast": f"shapes [{_dims(n, 'shape')}] and [{_dims(n, 'target')}] do not broadcast",
        "expand_ndim": f"expand of a {n.get('ndim')}-d tensor [{_dims(n, 'tensor')}] to "
        f"{n.get('n_sizes')} sizes [{_dims(n, 'target')}]",
        "ndim": f"tensors of {n.get('a_dims')} and {n.get('b_dims')} dimensions",
        "split_sizes": f"split sizes summing to {n.get('split_sum')} of a dim of {n.get('input_size')}",
        "size_check": f"size check {n.get('lhs', n.get('expected'))} vs {n.get('rhs', n.get('got'))}",
    }
    return leads.get(sm.pattern, sm.pattern)


def _summary(
    sm: ShapeMismatch, facts: dict[str, int], terms: dict[str, str], unexplained: list[int]
) -> str:
    parts = [f"{k} = {v}" for k, v in terms.items()]
    if unexplained:
        listed = " and ".join(str(x) for x in unexplained)
        verb = "is" if len(unexplained) == 1 else "are"
        parts.append(f"{listed} {verb} not a product of the known facts ({_facts_text(facts)})")
    return (
        f"{_lead(sm)}: " + "; ".join(parts) + "." if parts else f"{_lead(sm)}: nothing to explain."
    )


# Messages with a side of each shape: one speculative, the other plain, is a reading.
_TWO_SIDED = frozenset({"size_of_tensor", "cat_sizes", "expand", "broadcast", "size_check",
                        "split_sizes"})  # fmt: skip


def _readings(
    sm: ShapeMismatch,
    facts: dict[str, int],
    candidates: list[Product],
    terms: dict[str, str],
    unexplained: list[int],
    sizes: list[int],
) -> list[str]:
    """Possible readings the facts do not settle, each worded as a possibility."""
    out: list[str] = []
    for value in unexplained:
        out += _divisor_readings(value, facts)
    spec_side = [int(k) for k in terms if any(p.value == int(k) and p.spec for p in candidates)]
    if sm.pattern in _TWO_SIDED and spec_side:
        for value in unexplained:
            out.append(_plain_reading(value, facts, sizes))
        out.append(
            "one side has a speculative shape and the other does not: possibly a tensor "
            "or buffer laid out for a speculative step (spec_info, the verify graph's "
            "buffers, the token allocator) met one laid out for a plain decode step"
        )
    if sm.pattern == "index_oob":
        out += _index_reading(sm, candidates)
    if sm.pattern == "matmul":
        out += _matmul_reading(sm)
    return out


def _divisor_readings(value: int, facts: dict[str, int]) -> list[str]:
    """``160 = 10 x 16``: a bs x N shape for an unlogged batch of 10 (a reading only)."""
    widths = {"num_draft_tokens": ("N", "bs×N verify rows")}
    if facts.get("topk", 0) > 2:
        widths["topk"] = ("K", "bs×K draft-step tokens")
    out: list[str] = []
    for fact, (symbol, meaning) in widths.items():
        width = facts.get(fact)
        if width and width > 2 and value % width == 0 and value // width >= 2:
            out.append(
                f"{value} = {value // width} × {width} ({symbol}): would be {meaning} for a "
                f"batch of {value // width} requests, which no logged batch size confirms"
            )
    return out


def _plain_reading(value: int, facts: dict[str, int], sizes: list[int]) -> str:
    text = f"{value} fits no product of the known facts; as one row per request (plain decode) "
    text += f"it would be a batch of {value} requests"
    if "running_req" in facts:
        text += (
            f", not the {facts['running_req']} of the last logged Decode batch line (logged "
            "periodically, so the batch may have changed after it)"
        )
    if value in sizes:
        text += f"; {value} is also a captured cuda-graph batch size {sizes}"
    return text


def _index_reading(sm: ShapeMismatch, candidates: list[Product]) -> list[str]:
    index = sm.numbers.get("index", -1)
    fits = sorted(
        (p for p in candidates if p.spec and p.uses_batch and p.value > index),
        key=lambda p: p.value,
    )
    return (
        [
            f"index {index} would be in range for a {fits[0].meaning} tensor of {fits[0].value} "
            f"rows ({fits[0].expr})"
        ]
        if fits and index >= sm.numbers.get("size", 0)
        else []
    )


def _matmul_reading(sm: ShapeMismatch) -> list[str]:
    cols, rows = sm.numbers.get("mat1_cols", 0), sm.numbers.get("mat2_rows", 0)
    if cols and rows and (cols == 3 * rows or rows == 3 * cols):
        return [
            f"{max(cols, rows)} = 3 × {min(cols, rows)}: possibly EAGLE-3's fused input of "
            "three target hidden states met a single hidden state (or the reverse)"
        ]
    return []


def _topk_range(facts: dict[str, int]) -> Explanation:
    """``selected index k out of range``: the draft tree has fewer candidates than N - 1."""
    n, k, s = facts.get("num_draft_tokens"), facts.get("topk"), facts.get("steps")
    if n is None or k is None or s is None:
        return Explanation(
            False,
            "selected index k out of range: not explained; needs "
            "speculative_num_draft_tokens, topk and steps, known: "
            f"{_facts_text(facts)}",
            {},
            None,
            facts,
        )
    have = k + (s - 1) * k * k
    if n - 1 > have:
        term = f"N - 1 = {n - 1} > K + (S-1)·K² = {k} + {s - 1}·{k * k} = {have}"
        return Explanation(
            True,
            f"selected index k out of range: {term}: the draft tree offers "
            f"{have} candidates but organize_draft_results keeps the best {n - 1} "
            "with torch.topk",
            {str(n - 1): term},
            "organize_draft_results top_scores",
            facts,
        )
    return Explanation(
        False,
        f"selected index k out of range: not explained; the draft tree has "
        f"{have} candidates for N - 1 = {n - 1} draft tokens, so the draft-tree bound does "
        "not explain it",
        {},
        None,
        facts,
    )


def _unpack(sm: ShapeMismatch, facts: dict[str, int]) -> Explanation:
    expected = sm.numbers.get("expected")
    return Explanation(
        False,
        f"{sm.text}: not a tensor shape; a call returned a different number "
        f"of values than its caller unpacks ({expected}), as when a function's "
        "return or call signature changed; no run fact explains it",
        {},
        None,
        facts,
    )
