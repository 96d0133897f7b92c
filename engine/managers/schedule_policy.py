"""Admission and retraction against the KV token budget (SGLang's PrefillAdder and retract_decode).

Admission is optimistic, as SGLang's: a running request is expected to need only
``new_token_ratio`` of its remaining ``max_new_tokens`` (the ratio starts at 0.7 and decays each
decode step to 0.098), so a small ``--max-total-tokens`` admits more than it can finish. When a
decode step cannot get its tokens (``check_decode_mem``), requests are retracted from the batch,
their KV freed, and they go back to the queue with their output kept; the ratio jumps up to what
the survivors really used and the scheduler logs SGLang's line,
``KV cache pool is full. Retract requests. #retracted_reqs: N, #new_token_ratio: a -> b``.
``SpecController`` is the other policy the scheduler consults each step: dynamic speculation
disable (threshold and hysteresis).
"""

from __future__ import annotations

from dataclasses import dataclass

from spectrace_engine.managers.schedule_batch import Req, ScheduleBatch
from spectrace_engine.mem_cache.memory_pool import KVPool

INIT_NEW_TOKEN_RATIO = 0.7  # SGLANG_INIT_NEW_TOKEN_RATIO x schedule_conservativeness 1.0
MIN_NEW_TOKEN_RATIO = INIT_NEW_TOKEN_RATIO * 0.14  # SGLANG_MIN_NEW_TOKEN_RATIO_FACTOR
NEW_TOKEN_RATIO_DECAY_STEPS = 600
RETRACT_DECODE_STEPS = 20  # SGLANG_RETRACT_DECODE_STEPS: tokens a survivor is assumed to need


@dataclass(slots=True)
class TokenBudget:
    """The scheduler's ``new_token_ratio`` and the per-step memory need of a decode."""

    buf_multiplier: int  # tokens per request per decode (1; spec v1: N + topk x steps)
    new_token_ratio: float = INIT_NEW_TOKEN_RATIO

    def decay(self) -> None:
        step = (INIT_NEW_TOKEN_RATIO - MIN_NEW_TOKEN_RATIO) / NEW_TOKEN_RATIO_DECAY_STEPS
        self.new_token_ratio = max(self.new_token_ratio - step, MIN_NEW_TOKEN_RATIO)

    def tokens_next_decode(self, batch: ScheduleBatch, reqs: list[Req]) -> int:
        if batch.alloc_len_per_decode:
            return sum(batch.decode_tokens_needed(r) for r in reqs)
        return len(reqs) * self.buf_multiplier

    def check_decode_mem(self, batch: ScheduleBatch, reqs: list[Req] | None = None) -> bool:
        reqs = batch.reqs if reqs is None else reqs
        free = batch.pool.allocator.available_size()
        # a request's committed KV is allocated, so none needs more than this: the per-request
        # sum (a Python pass over the batch, twice a step) only when the pool is nearly full
        if free >= len(reqs) * max(self.buf_multiplier, 2 * batch.alloc_len_per_decode):
            return True
        return free >= self.tokens_next_decode(batch, reqs)


def clip_max_new_tokens(r: Req, max_req_len: int) -> None:
    """SGLang's arrival rule: prompt + max_new_tokens stays below ``max_req_len`` (the context
    length or the KV pool, whichever is smaller), so one request alone always fits the pool."""
    r.max_new_tokens = max(1, min(r.max_new_tokens, max_req_len - len(r.prompt) - 1))


def admit(
    waiting: list[Req],
    running: list[Req],
    pool: KVPool,
    budget: TokenBudget,
    room: int,
    max_prefill_tokens: int,
) -> list[Req]:
    """PrefillAdder: requests in order while the token budget, the request slots and
    ``max_prefill_tokens`` allow; the first that does not fit stops the scan (FCFS)."""
    if not waiting or room <= 0:  # the common decode step: no walk over the running batch
        return []
    rem = pool.allocator.available_size() - sum(
        (r.max_new_tokens - len(r.output)) * budget.new_token_ratio for r in running
    )
    new: list[Req] = []
    tokens = 0
    for r in waiting[: min(room, pool.req_to_token_pool.available_size())]:
        fill, left = len(r.tokens), r.max_new_tokens - len(r.output)
        if fill + left >= rem or (new and tokens + fill > max_prefill_tokens):
            break
        new.append(r)
        tokens += fill
        rem -= fill + left * budget.new_token_ratio
    return new


def retract_decode(
    batch: ScheduleBatch, budget: TokenBudget, spec: bool
) -> tuple[list[Req], float]:
    """Retract until the next decode fits (at least one request; never the last). Without
    speculation the requests with the least output go first; with it, from the back of the
    batch, as SGLang's (its spec batches filter only from the back)."""
    order = list(range(batch.batch_size()))
    if not spec:
        order.sort(
            key=lambda i: (len(batch.reqs[i].output), -len(batch.reqs[i].prompt)), reverse=True
        )
    retracted: list[Req] = []
    first = True
    while first or not budget.check_decode_mem(batch, [batch.reqs[i] for i in order]):
        if len(order) == 1:
            break
        first = False
        req = batch.reqs[order.pop()]
        batch.pool.release(req.slot, req.kv_allocated_len)
        req.reset_for_retract()
        retracted.append(req)
    batch.filter_batch(sorted(order))
    decoded = sum(len(r.output) for r in batch.reqs)
    max_new = sum(r.max_new_tokens for r in batch.reqs)
    ratio = min(1.0, (decoded + RETRACT_DECODE_STEPS * len(batch.reqs)) / max_new)
    return retracted, ratio


@dataclass(slots=True)
class SpecController:
    """The on/off policy; ``below`` counts plain steps at or below the threshold."""

    enabled: bool
    threshold: int | None
    hysteresis: int
    below: int = 0

    def over(self, bs: int) -> bool:
        return self.enabled and self.threshold is not None and bs > self.threshold

    def stays_on(self, bs: int) -> bool:
        """The next step speculates with no toggle (the precondition for running ahead)."""
        return self.enabled and not self.over(bs)

    def stays_off(self, bs: int) -> bool:
        """Speculation is off and this step cannot resume it (the batch is over the threshold,
        and resuming takes ``hysteresis`` steps at or below it): a plain step of a speculative
        server may run ahead as a plain server's does (without it, dynamic disable ran 7-12 %
        below plain at c 64-128 on the H200: the host work of every plain step was serial)."""
        return not self.enabled and self.over_threshold(bs) and self.hysteresis > 0

    def over_threshold(self, bs: int) -> bool:
        return self.threshold is not None and bs > self.threshold

    def may_resume(self, bs: int) -> bool:
        """Called before a plain step; True when speculation should resume for this step."""
        if self.enabled or self.threshold is None or bs > self.threshold:
            self.below = 0
            return False
        if self.below >= self.hysteresis:
            return True
        self.below += 1
        return False
