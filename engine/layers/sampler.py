"""Sampling from the target: SGLang's temperature / top-k / top-p processing plus seeded noise.

Plain decode, the prefill's first token and the speculative verify all draw from the same
processed distribution ``probs`` (softmax of logits / temperature, then top-k, then top-p
renormalisation, the order of SGLang's sampler and of its ``EagleVerifyInput.verify``), so a
speculative run at temperature T emits tokens distributed as plain sampling at T.

Every draw is an exponential race, ``argmax(probs / E)`` with ``E ~ Exp(1)`` per token: token i
wins with probability ``probs[i] / sum(probs)``, without ``torch.multinomial``'s host sync, so the
v2 worker's step stays sync-free. All noise comes from one ``torch.Generator`` seeded with the
run's ``random_seed``: every TP rank holds the full logits after the all-reduce and draws the same
noise, so ranks agree token for token, and a rerun with the same seed repeats its outputs.

A plain decode's token choice runs inside the captured DECODE graph (``SampleEpilogue``), as
gpt-fast compiles its sampling with the forward: launched after the replay, argmax, the NaN check
and the packing of the host copy were eight small launches, a quarter of the step's host time on
an H200 (benchmarks/results/2026-12-03-h200-load-story.md). The race weights are drawn before the
replay from the run's generator into a static buffer, exactly the draw the eager path makes, so
both choose the same tokens; the generator never runs inside a graph.
"""

from __future__ import annotations

import torch
from spectrace_engine.kernels.verify import sampling_noise
from spectrace_engine.server_args import SamplingParams
from torch import Tensor

TINY = torch.finfo(torch.float32).tiny


class Sampler:
    """The run's sampling params and its one seeded generator (on the model's device)."""

    def __init__(self, params: SamplingParams, seed: int, device: torch.device) -> None:
        self.params = params
        self.generator = torch.Generator(device=device)
        self.generator.manual_seed(seed)
        self.device = device

    @property
    def greedy(self) -> bool:
        return self.params.greedy

    def probs(self, logits: Tensor) -> Tensor:
        """Processed target probabilities [..., V] (float32) at the run's temperature/top-k/top-p."""
        p = self.params
        probs = torch.softmax(logits.float() / p.temperature, dim=-1)
        if 0 < p.top_k < probs.shape[-1]:
            probs = top_k_renorm(probs, p.top_k)
        if p.top_p < 1.0:
            probs = top_p_renorm(probs, p.top_p)
        return probs

    def sample(self, logits: Tensor) -> Tensor:
        """One token per row of logits [bs, V]: argmax when greedy, else an exponential race."""
        if self.greedy:
            return logits.argmax(-1)
        race = torch.empty(logits.shape, device=logits.device).exponential_(
            generator=self.generator
        )
        return self.choose(logits, race)

    def choose(self, logits: Tensor, race: Tensor | None) -> Tensor:
        """The race's winner per row given its Exp(1) weights (argmax when greedy): no draw, so
        a graph can hold it."""
        if race is None:
            return logits.argmax(-1)
        return (self.probs(logits) / race.clamp(min=TINY)).argmax(-1)  # Exp(1) may be exactly 0

    def noise(self, bs: int, n: int, vocab: int) -> tuple[Tensor, Tensor]:
        """Verify noise: a coin per tree node and race weights for each request's correction."""
        return sampling_noise(bs, n, vocab, generator=self.generator, device=self.device)


class SampleEpilogue:
    """A plain decode's token choice, captured in the DECODE graph after the forward.

    Outputs per request: the token and the row ``[0, token, nan]`` the host copies (the layout
    ``FutureTokens`` reads: accept length 0, one token, the row's NaN flag). ``prepare`` draws the
    live rows' race weights before the replay (padded rows keep old ones: their tokens are never
    read); ``publish`` keeps the live rows' outputs for the worker, as views of the graph's
    outputs, which the next replay of that graph rewrites.
    """

    def __init__(self, sampler: Sampler, max_bs: int, vocab: int) -> None:
        self.sampler = sampler
        self.race = None if sampler.greedy else torch.ones(max_bs, vocab, device=sampler.device)
        self.outs: tuple[Tensor, ...] = ()

    def prepare(self, forward_batch: object, bs: int, gbs: int) -> None:
        if self.race is not None:
            self.race[:bs].exponential_(generator=self.sampler.generator)

    def __call__(self, views: tuple, out: tuple[Tensor, Tensor]) -> tuple[Tensor, ...]:
        logits = out[0][:, 0]
        race = None if self.race is None else self.race[: logits.shape[0]]
        ids = self.sampler.choose(logits, race)
        nan = torch.isnan(logits).any(-1)
        return ids, torch.stack((torch.zeros_like(ids), ids, nan.long()), 1)

    def publish(self, forward_batch: object, outs: tuple[Tensor, ...]) -> bool:
        self.outs = outs
        return True

    def take(self) -> tuple[Tensor, ...]:
        """The last replay's (tokens, rows), once: empty when no replay chose since."""
        outs, self.outs = self.outs, ()
        return outs


def top_k_renorm(probs: Tensor, k: int) -> Tensor:
    """Keep the k most likely tokens (ties at the k-th value kept too), renormalised."""
    kth = probs.topk(k, dim=-1).values[..., -1:]
    kept = torch.where(probs >= kth, probs, torch.zeros_like(probs))
    return kept / kept.sum(-1, keepdim=True)


def top_p_renorm(probs: Tensor, top_p: float) -> Tensor:
    """The smallest most-likely set whose mass reaches top_p (the nucleus), renormalised."""
    sorted_p, order = probs.sort(dim=-1, descending=True)
    before = sorted_p.cumsum(-1) - sorted_p  # mass of the strictly more likely tokens
    keep_sorted = before < top_p
    keep = torch.zeros_like(keep_sorted).scatter_(-1, order, keep_sorted)
    kept = torch.where(keep, probs, torch.zeros_like(probs))
    return kept / kept.sum(-1, keepdim=True)
