"""LLaMA-style target model over a static KV cache, capturing the hidden states a draft head reads.

Public API (H7 codes against it)::

    ModelConfig(vocab_size, dim, n_layers, n_heads, n_kv_heads, ffn_dim, max_seq_len,
                rope_theta=10000.0, norm_eps=1e-5, aux_layers=(), tie_embeddings=True)
        .head_dim, .capture_layers  (aux_layers, or (1, L//2, L-1) / (2, L//2, L-3) when empty)
    KVCache(k, v, req_to_token, attn_backend="auto")  k, v: [n_layers, size+1, n_kv_heads, head_dim]
        (token 0 = padding), req_to_token: [slots, max_len] token index of each request column
        (SGLang's ReqToTokenPool); attn_backend: auto|torch|triton (layers/paged_attention.py)
        .max_len, .slots, .attn_batch(slots, cache_locs, attn_mask, dtype, head_dim),
        .move(slots [B], src [B,T], dst [B,T])
    TargetModel(cfg, tp=None)   # tp: GroupCoordinator; heads, MLP and vocabulary split over it
        .new_kv_cache(slots, max_len, size=0, req_to_token=None) -> KVCache   # zeros; no table:
            each slot owns max_len tokens (training, acceptance); the engine passes its pool's
        .forward(tokens, positions, slots, cache_locs, attn_mask, kv) -> (logits, aux_hidden)
            tokens, positions, cache_locs: [B,T] int64; slots: [B] int64 (KV row per request);
            attn_mask: [B,T,L] bool, True = may attend cache column l of its row, L = kv.max_len.
            Writes K/V of token (b,t) at kv token req_to_token[slots[b], cache_locs[b,t]], attends over
            the columns its mask allows, so a row must have True for its own cache_loc.
            logits: [B,T,V] float32;  aux_hidden: [B,T,3*dim] (model dtype), hidden states after
            blocks cfg.capture_layers, concatenated low|mid|high (EAGLE-3); with
            .capture_aux_hidden_states = False, [B,T,dim]: the last state after the final norm (EAGLE).
        .forward_train(tokens [B,T]) -> (logits, aux_hidden)  # causal, no cache, for training

Capture rules: static shapes, no host sync, no branching on tensor values. A row whose mask is all
False gives finite garbage (masked scores use the dtype's minimum, not -inf), so padded graph rows
never poison the cache with NaN; point padded rows at a scratch slot/column of your choice.
Numerics: on CPU (the reference) every query attends over all L cache columns whatever T is, so
a T-token verify and T one-token decodes differ only by matmul blocking (float32: ~1e-6 relative,
see docs/engine-models.md); on CUDA the Triton kernel walks a request's columns up to the last
one its mask allows, in blocks of 64, with an online softmax.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch
import torch.nn.functional as F
from spectrace_engine.distributed.parallel_state import GroupCoordinator
from spectrace_engine.layers.linear import ColumnParallelLinear, RowParallelLinear, divide
from spectrace_engine.layers.paged_attention import (
    AttnBatch,
    paged_attention,
    reference_attention,
    rope_and_cache,
    sdpa,
    use_triton,
    visible_columns,
)
from spectrace_engine.layers.vocab_parallel_embedding import ParallelLMHead, VocabParallelEmbedding
from torch import Tensor, nn


@dataclass(frozen=True, slots=True)
class ModelConfig:
    vocab_size: int
    dim: int
    n_layers: int
    n_heads: int
    n_kv_heads: int
    ffn_dim: int
    max_seq_len: int
    rope_theta: float = 10000.0
    norm_eps: float = 1e-5
    aux_layers: tuple[int, ...] = field(default=())
    tie_embeddings: bool = True

    @property
    def head_dim(self) -> int:
        return self.dim // self.n_heads

    @property
    def capture_layers(self) -> tuple[int, int, int]:
        """EAGLE-3 picks blocks 2, L//2, L-3; tiny models need the top block to be useful."""
        if self.aux_layers:
            low, mid, high = self.aux_layers
            return (low, mid, high)
        n = self.n_layers
        if n < 8:
            return (min(1, n - 1), n // 2, n - 1)
        return (2, n // 2, n - 3)


@dataclass
class KVCache:
    """Token-major KV buffers and the request-to-token table they are addressed through.

    A request's cache column ``c`` lives at token ``req_to_token[slot, c]`` (SGLang's
    ReqToTokenPool row); token 0 is the padding slot. The engine shares one table between the
    target and draft caches and fills it from its allocator; ``new_kv_cache`` gives a fixed table
    (each slot owns ``max_len`` tokens) for callers without an allocator (training, acceptance).
    """

    k: Tensor  # [n_layers, size + 1, n_kv_heads, head_dim]
    v: Tensor
    req_to_token: Tensor  # [slots, max_len] int64
    attn_backend: str = "auto"  # layers/paged_attention.py: the kernel on CUDA, else the reference

    @property
    def max_len(self) -> int:
        return self.req_to_token.shape[1]

    @property
    def slots(self) -> int:
        return self.req_to_token.shape[0]

    def attn_batch(
        self, slots: Tensor, cache_locs: Tensor, attn_mask: Tensor, dtype: torch.dtype
    ) -> AttnBatch:
        """What every layer of one forward reads: the tokens the rows write ``[B,T]``, and either
        the columns the kernel walks or the reference's additive mask."""
        locs = self.req_to_token[slots[:, None], cache_locs]
        if use_triton(self.attn_backend, self.k.device, self.k.shape[-1]):
            return AttnBatch(
                locs, slots, self.req_to_token, attn_mask, visible_columns(attn_mask), None
            )
        return AttnBatch(
            locs, slots, self.req_to_token, attn_mask, None, mask_bias(attn_mask, dtype)
        )

    def move(self, slots: Tensor, src: Tensor, dst: Tensor) -> None:
        """Compact accepted tree nodes: copy columns src[b,t] -> dst[b,t] of row slots[b]."""
        rows = slots[:, None]
        src_tok, dst_tok = self.req_to_token[rows, src], self.req_to_token[rows, dst]
        for cache in (self.k, self.v):
            cache[:, dst_tok] = cache[:, src_tok]


def static_req_to_token(slots: int, max_len: int, device: torch.device) -> Tensor:
    """Each slot owns ``max_len`` consecutive tokens after the padding token 0."""
    return torch.arange(1, slots * max_len + 1, device=device).view(slots, max_len)


def new_kv_buffers(
    ref: Tensor, n_layers: int, size: int, n_kv: int, head_dim: int
) -> tuple[Tensor, Tensor]:
    """Zeroed k, v of ``size + 1`` tokens (token 0 = padding) on ``ref``'s device and dtype."""
    shape = (n_layers, size + 1, n_kv, head_dim)
    return ref.new_zeros(shape), ref.new_zeros(shape)


class RopeModule(nn.Module):
    """Keeps the RoPE table in float32 on the module's device whatever dtype the module is cast to."""

    rope: Tensor

    def _apply(self, fn, recurse=True):  # type: ignore[no-untyped-def]
        super()._apply(fn, recurse)
        self.rope = rope_table(self.cfg, self.rope.device)
        return self


def rope_table(cfg: ModelConfig, device: torch.device | str | None = None) -> Tensor:
    """cos|sin table [max_seq_len, head_dim] in float32 (rotate-half convention)."""
    half = cfg.head_dim // 2
    inv = 1.0 / (cfg.rope_theta ** (torch.arange(half, dtype=torch.float64, device=device) / half))
    ang = torch.arange(cfg.max_seq_len, dtype=torch.float64, device=device)[:, None] * inv
    return torch.cat([ang.cos(), ang.sin()], dim=-1).float()


def apply_rope(x: Tensor, table: Tensor, positions: Tensor) -> Tensor:
    """x [B,T,H,D]; rotate pairs (i, i+D/2) by the angle of each token's position."""
    half = x.shape[-1] // 2
    cs = table[positions].unsqueeze(2)  # [B,T,1,D]
    cos, sin = cs[..., :half], cs[..., half:]
    x1, x2 = x[..., :half].float(), x[..., half:].float()
    out = torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)
    return out.to(x.dtype)


def mask_bias(attn_mask: Tensor, dtype: torch.dtype) -> Tensor:
    """Bool [B,T,L] -> additive [B,1,T,L]; the finite minimum keeps all-masked rows finite."""
    zero = torch.zeros((), dtype=dtype, device=attn_mask.device)
    low = torch.full((), torch.finfo(dtype).min, dtype=dtype, device=attn_mask.device)
    return torch.where(attn_mask, zero, low).unsqueeze(1)


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: Tensor) -> Tensor:
        if x.is_cuda:  # torch's fused kernel: one launch instead of eight (same float32 maths)
            return F.rms_norm(x, (x.shape[-1],), self.weight, self.eps)
        xf = x.float()
        xf = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.eps)
        return xf.to(x.dtype) * self.weight


class Attention(nn.Module):
    """GQA attention; `in_dim` differs from `dim` only in the EAGLE-3 draft layer (2*dim)."""

    def __init__(
        self, cfg: ModelConfig, in_dim: int | None = None, tp: GroupCoordinator | None = None
    ) -> None:
        super().__init__()
        d, hd = cfg.dim, cfg.head_dim
        in_dim = in_dim or d
        size = tp.size if tp is not None else 1  # each rank attends with its own heads
        self.n_heads, self.n_kv = divide(cfg.n_heads, size), divide(cfg.n_kv_heads, size)
        self.head_dim = hd
        self.wq = ColumnParallelLinear(in_dim, cfg.n_heads * hd, tp)
        self.wk = ColumnParallelLinear(in_dim, cfg.n_kv_heads * hd, tp)
        self.wv = ColumnParallelLinear(in_dim, cfg.n_kv_heads * hd, tp)
        self.wo = RowParallelLinear(cfg.n_heads * hd, d, tp)

    def project(self, x: Tensor, rope: Tensor, positions: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        """q [B,T,H,D], k/v [B,T,Hkv,D] with RoPE applied to q and k."""
        q, k, v = self.qkv(x)
        return apply_rope(q, rope, positions), apply_rope(k, rope, positions), v

    def qkv(self, x: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        """The projections before RoPE, as [B,T,heads,D] views."""
        b, t, _ = x.shape
        q = self.wq(x).view(b, t, self.n_heads, self.head_dim)
        k = self.wk(x).view(b, t, self.n_kv, self.head_dim)
        v = self.wv(x).view(b, t, self.n_kv, self.head_dim)
        return q, k, v

    def attend(self, q: Tensor, k: Tensor, v: Tensor, bias: Tensor) -> Tensor:
        """Uncached (training): q [B,T,H,D], k/v [B,Hkv,S,D], bias [B,1,T,S] -> [B,T,dim]."""
        b, t = q.shape[:2]
        return self.wo(sdpa(q, k, v, bias).reshape(b, t, -1))

    def forward_cached(
        self, x: Tensor, rope: Tensor, positions: Tensor, batch: AttnBatch, kc: Tensor, vc: Tensor
    ) -> Tensor:
        """Write this step's K/V at tokens ``batch.locs`` [B,T] of one layer's buffer, then attend
        over the columns each row's mask allows (the kernel) or its whole row (the reference)."""
        if batch.bias is None:  # the kernels: rope and the cache write in one, then attention
            q = rope_and_cache(*self.qkv(x), positions, rope, batch, kc, vc)
            out = paged_attention(q, kc, vc, batch)
        else:
            q, k, v = self.project(x, rope, positions)
            kc[batch.locs] = k
            vc[batch.locs] = v
            out = reference_attention(q, kc, vc, batch)
        b, t = x.shape[:2]
        return self.wo(out.reshape(b, t, -1))


class FeedForward(nn.Module):
    def __init__(self, dim: int, ffn_dim: int, tp: GroupCoordinator | None = None) -> None:
        super().__init__()
        self.w1 = ColumnParallelLinear(dim, ffn_dim, tp)
        self.w3 = ColumnParallelLinear(dim, ffn_dim, tp)
        self.w2 = RowParallelLinear(ffn_dim, dim, tp)

    def forward(self, x: Tensor) -> Tensor:
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class Block(nn.Module):
    def __init__(self, cfg: ModelConfig, tp: GroupCoordinator | None = None) -> None:
        super().__init__()
        self.attn_norm = RMSNorm(cfg.dim, cfg.norm_eps)
        self.attn = Attention(cfg, tp=tp)
        self.ffn_norm = RMSNorm(cfg.dim, cfg.norm_eps)
        self.ffn = FeedForward(cfg.dim, cfg.ffn_dim, tp)


class TargetModel(RopeModule):
    def __init__(self, cfg: ModelConfig, tp: GroupCoordinator | None = None) -> None:
        super().__init__()
        self.cfg, self.tp = cfg, tp  # tp: the group the layers split over (None: one rank)
        self.embed = VocabParallelEmbedding(cfg.vocab_size, cfg.dim, tp)
        nn.init.normal_(self.embed.weight, std=0.02)  # tied head: N(0,1) would start at loss ~100
        self.layers = nn.ModuleList(Block(cfg, tp) for _ in range(cfg.n_layers))
        self.norm = RMSNorm(cfg.dim, cfg.norm_eps)
        self.lm_head = ParallelLMHead(cfg.vocab_size, cfg.dim, tp)
        if cfg.tie_embeddings:
            self.lm_head.weight = self.embed.weight
        self.register_buffer("rope", rope_table(cfg), persistent=False)
        self.capture_aux_hidden_states = True  # EAGLE-3's features; False: the last state (EAGLE)

    def new_kv_cache(
        self, slots: int, max_len: int, size: int = 0, req_to_token: Tensor | None = None
    ) -> KVCache:
        """``size`` tokens addressed through ``req_to_token``; without them, a fixed table."""
        c, ref = self.cfg, self.embed.weight
        if req_to_token is None:
            req_to_token, size = static_req_to_token(slots, max_len, ref.device), slots * max_len
        k, v = new_kv_buffers(ref, c.n_layers, size, self.layers[0].attn.n_kv, c.head_dim)
        return KVCache(k, v, req_to_token)

    def forward(
        self,
        tokens: Tensor,
        positions: Tensor,
        slots: Tensor,
        cache_locs: Tensor,
        attn_mask: Tensor,
        kv: KVCache,
    ) -> tuple[Tensor, Tensor]:
        x = self.embed(tokens)
        batch = kv.attn_batch(slots, cache_locs, attn_mask, x.dtype)
        aux: list[Tensor] = []
        for i, layer in enumerate(self.layers):
            h = layer.attn_norm(x)
            x = x + layer.attn.forward_cached(h, self.rope, positions, batch, kv.k[i], kv.v[i])
            x = x + layer.ffn(layer.ffn_norm(x))
            if i in self.cfg.capture_layers:
                aux.extend([x] * self.cfg.capture_layers.count(i))
        return self.logits_and_features(x, aux)

    def logits_and_features(self, x: Tensor, aux: list[Tensor]) -> tuple[Tensor, Tensor]:
        """Logits, and the hidden states the draft head reads: EAGLE-3's low|mid|high blocks
        (``capture_aux_hidden_states``, SGLang's switch), else the last state after the final
        norm, which is what the LM head reads (EAGLE's feature)."""
        last = self.norm(x)
        feats = torch.cat(aux, dim=-1) if self.capture_aux_hidden_states else last
        return self.lm_head(last).float(), feats

    def forward_train(self, tokens: Tensor) -> tuple[Tensor, Tensor]:
        """Causal forward without a cache, the same maths as `forward` (used by train.py)."""
        b, t = tokens.shape
        positions = torch.arange(t, device=tokens.device).expand(b, t)
        causal = torch.ones(t, t, dtype=torch.bool, device=tokens.device).tril()
        x = self.embed(tokens)
        bias = mask_bias(causal.expand(b, t, t), x.dtype)
        aux: list[Tensor] = []
        for i, layer in enumerate(self.layers):
            q, k, v = layer.attn.project(layer.attn_norm(x), self.rope, positions)
            x = x + layer.attn.attend(q, k.transpose(1, 2), v.transpose(1, 2), bias)
            x = x + layer.ffn(layer.ffn_norm(x))
            if i in self.cfg.capture_layers:
                aux.extend([x] * self.cfg.capture_layers.count(i))
        return self.logits_and_features(x, aux)
