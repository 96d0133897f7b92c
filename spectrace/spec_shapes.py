"""Run facts and the spec_info tensor sizes they produce (LOG_FORMATS.md 1.7), for ``explain``.

bs = batch size, N = speculative_num_draft_tokens, K = speculative_eagle_topk,
S = speculative_num_steps; vLLM's T = num_spec_tokens verifies T + 1 rows per request.
"""

from __future__ import annotations

from dataclasses import dataclass

from spectrace.assemblers.load import LoadSample
from spectrace.assemblers.run_config import RunConfig

_FACT_FLAGS = (
    ("num_draft_tokens", "speculative_num_draft_tokens"),
    ("topk", "speculative_eagle_topk"),
    ("steps", "speculative_num_steps"),
    ("num_spec_tokens", "speculative_config.num_spec_tokens"),
    ("tp_size", "tp_size"),
)


@dataclass(frozen=True, slots=True)
class Product:
    """One size the facts produce: its value, how, and which tensor has it."""

    value: int
    expr: str  # "10 running requests × 16 draft tokens"
    meaning: str  # "bs×N target-verify rows"
    tensor: str | None
    spec: bool  # involves a speculative width (not a plain per-request count)
    uses_batch: bool = True


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def graph_sizes(config: RunConfig) -> list[int]:
    """The captured cuda-graph batch sizes, when the log lists them."""
    flag = config.flags.get("cuda_graph_bs")
    values = flag.value if flag is not None and isinstance(flag.value, list) else []
    return sorted(v for v in values if _int(v) is not None)


def run_facts(config: RunConfig, load: LoadSample | None) -> dict[str, int]:
    """The integers the log states: running_req (last sample), N, K, S, T, tp, padded graph bs."""
    facts: dict[str, int] = {}
    if load is not None and load.running_req is not None:
        key = "step_requests" if load.kind == "crash_dump" else "running_req"
        facts[key] = load.running_req
        new_seq = load.fields.get("#new-seq", "")
        if load.kind == "prefill" and new_seq.isdigit():
            facts[key] += int(new_seq)  # the decode after a prefill runs old + new requests
    total = load.fields.get("total_num_scheduled_tokens", "") if load is not None else ""
    if total.isdigit():
        facts["scheduled_tokens"] = int(total)  # vLLM's crash dump: the step's exact tokens
    for fact, flag in _FACT_FLAGS:
        value = config.flags.get(flag)
        number = _int(value.value) if value is not None else None
        if number is not None and number > 0:
            facts[fact] = number
    capture = config.flags.get("capture_bs")
    capture_bs = _int(capture.value) if capture is not None else None
    if (
        not facts.keys() & {"running_req", "step_requests"} and capture_bs
    ):  # no decode yet: the capture was running
        facts["capture_bs"] = capture_bs
    sizes = graph_sizes(config)
    running = facts.get("running_req")
    if running is not None and sizes:
        padded = [s for s in sizes if s >= running]
        if padded and padded[0] != running:
            facts["graph_bs"] = padded[0]  # replay pads to the next captured size (bisect_left)
    order = ("running_req", "step_requests", "scheduled_tokens", "graph_bs", "capture_bs") + tuple(
        fact for fact, _ in _FACT_FLAGS
    )
    return {key: facts[key] for key in order if key in facts}


def _batches(facts: dict[str, int]) -> list[tuple[int, str]]:
    out = []
    if "running_req" in facts:
        out.append((facts["running_req"], f"{facts['running_req']} running requests"))
    if "step_requests" in facts:
        out.append(
            (facts["step_requests"], f"{facts['step_requests']} requests in the crashing step")
        )
    if "graph_bs" in facts:
        out.append((facts["graph_bs"], f"padded cuda-graph bs {facts['graph_bs']}"))
    if "capture_bs" in facts:
        out.append((facts["capture_bs"], f"cuda-graph capture bs {facts['capture_bs']}"))
    return out


def _widths(facts: dict[str, int]) -> dict[str, int | None]:
    n, k, s, t = (facts.get(x) for x in ("num_draft_tokens", "topk", "steps", "num_spec_tokens"))
    return {
        "N": n,
        "NN": n * n if n else None,
        "K": k if k and k > 1 else None,  # topk 1 gives plain bs again
        "S+1": s + 1 if s else None,
        "SK": s * k if s and k else None,
        "T+1": t + 1 if t else None,
        "T": t,
    }


# Per-request width -> (how it reads, its meaning, the tensor that has bs x width rows).
_BATCH_SHAPES = {
    "N": ("× {w} draft tokens", "bs×N target-verify rows",
          "EagleVerifyInput.draft_token / positions (bs·N)"),
    "NN": ("× {w} (N²)", "bs·N² QLEN_ONLY mask", "EagleVerifyInput.custom_mask (bs·N·N)"),
    "K": ("× topk {w}", "bs×K draft-step tokens",
          "draft step input / EagleDraftInput.positions (bs·K)"),
    "S+1": ("× {w} (steps + 1)", "bs×(S+1) draft-extend rows", "draft-extend input (bs·(S+1))"),
    "SK": ("× {w} (steps × topk)", "bs×S×K draft KV slots", "draft out_cache_loc (bs·S·K)"),
    "T+1": ("× {w} (spec tokens + 1)", "bs×(T+1) verify rows", "vLLM verify input (bs·(T+1))"),
    "T": ("× {w} spec tokens", "bs×T draft tokens", "vLLM draft_token_ids (bs·T)"),
}  # fmt: skip

# Widths alone: the second dim of (bs, width) tensors.
_ROW_SHAPES = {
    "N": ("{w} draft tokens (N)", "per-request verify width",
          "EagleVerifyInput.retrive_index / retrive_next_token (bs, N)"),
    "K": ("topk {w} (K)", "per-request draft branching",
          "EagleDraftInput.topk_p / topk_index (bs, K)"),
    "S+1": ("{w} (steps + 1)", "per-request accept width", "accept_index (bs, S+1)"),
}  # fmt: skip


def products(facts: dict[str, int]) -> list[Product]:
    """Every size the facts produce, batch products first, in a stable order."""
    widths = _widths(facts)
    out: list[Product] = []
    if "scheduled_tokens" in facts:
        total = facts["scheduled_tokens"]
        out.append(Product(total, f"{total} scheduled tokens", "every token of the crashing step",
                           "the step's flattened input (total_num_scheduled_tokens)", False))  # fmt: skip
    for bs, label in _batches(facts):
        out.append(Product(bs, label, "bs: plain decode, one row per request",
                           "plain-decode rows (bs)", False))  # fmt: skip
        for key, (expr, meaning, tensor) in _BATCH_SHAPES.items():
            width = widths[key]
            if width and width > 1:  # a width of 1 is plain bs again
                out.append(
                    Product(bs * width, f"{label} {expr.format(w=width)}", meaning, tensor, True)
                )
    for key, (expr, meaning, tensor) in _ROW_SHAPES.items():
        width = widths[key]
        if width:
            out.append(Product(width, expr.format(w=width), meaning, tensor, True, False))
    return out
