"""The EAGLE and EAGLE-3 draft heads: one decoder layer over the target's hidden states.

They differ in what they read from the target, as SGLang's ``llama_eagle.py`` and
``llama_eagle3.py`` do:

* ``DraftHead`` (EAGLE-3, ``LlamaForCausalLMEagle3``): the target captures the hidden states after
  three blocks (low, mid, high: ``capture_aux_hidden_states``), ``fc`` fuses them to ``dim``; the
  layer reads ``norm(embedding) ++ norm(feature)`` (2*dim wide) with the residual over the feature,
  and logits come through a final norm.
* ``EagleDraftHead`` (EAGLE, ``LlamaForCausalLMEagle``): the target hands over its last hidden
  state (after the final norm, what its LM head reads); ``fc`` maps ``embedding ++ feature`` to
  ``dim`` (with bias), the layer has no input norm (EAGLE skips layer 0's), the residual is over
  the ``fc`` output, and the LM head reads the layer's output directly.

Public API (both)::

    Head(cfg: ModelConfig, target: TargetModel, draft_vocab: Tensor | None = None)
        shares (and never trains) target.embed and target.lm_head; own fc, layer, KV cache.
        draft_vocab (EAGLE-3's d2t): target ids the head may propose; logits of other ids are the
        dtype's minimum, so top-k never picks them (the SmolLM2 head uses ~4k of 49k ids).
        .algorithm ("EAGLE3" | "EAGLE"), .architecture (SGLang's class name), .feature_dim
        .fuse(target_feature [B,T,feature_dim]) -> [B,T,dim]
        .new_kv_cache(slots, max_len, size=0, req_to_token=None) -> KVCache   # one layer
        .forward(tokens, hidden, positions, slots, cache_locs, attn_mask, kv) -> (logits, hidden_out)
            Same cache/mask conventions as TargetModel.forward. logits [B,T,V] float32,
            hidden_out [B,T,dim] (feed it back as `hidden` for the next draft step).
        .own_state_dict() -> dict  # head parameters only (what weights/*.safetensors store)

Position convention (training and inference must agree): the draft row at position p reads
(token x[p+1], feature h[p]) where h[p] is the fused target feature of position p (or the head's own
hidden_out of the previous draft step), writes its K/V at cache column p and predicts x[p+2].
So after the target has verified x[0..n] (x[n] = bonus), the draft extend runs tokens x[1..n] with
features h[0..n-1] at positions 0..n-1; the first draft step then runs (d1, hidden_out[n-1]) at
position n, and so on.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import torch
import torch.nn.functional as F
from spectrace_engine.models.llama import (
    Attention,
    FeedForward,
    KVCache,
    ModelConfig,
    RMSNorm,
    RopeModule,
    TargetModel,
    mask_bias,
    new_kv_buffers,
    rope_table,
    static_req_to_token,
)
from torch import Tensor, nn


class DraftHeadBase(RopeModule, ABC):
    """What both heads share: the target's embedding and LM head, one layer, its KV cache."""

    vocab_map: Tensor | None
    algorithm = ""
    architecture = ""
    fc: nn.Linear

    def __init__(
        self, cfg: ModelConfig, target: TargetModel, draft_vocab: Tensor | None, in_dim: int
    ) -> None:
        super().__init__()
        self.cfg = cfg
        self.register_buffer("vocab_map", draft_vocab)
        self.embed = target.embed
        self.lm_head = target.lm_head
        self.attn = Attention(cfg, in_dim=in_dim, tp=target.tp)
        self.ffn_norm = RMSNorm(cfg.dim, cfg.norm_eps)
        self.ffn = FeedForward(cfg.dim, cfg.ffn_dim, target.tp)
        self.register_buffer("rope", rope_table(cfg), persistent=False)

    @property
    @abstractmethod
    def feature_dim(self) -> int:
        """Width of the target feature the head reads (what ``fuse`` takes)."""

    @abstractmethod
    def fuse(self, target_feature: Tensor) -> Tensor:
        """The target's feature (one layer, or three fused) down to the head's width."""

    @abstractmethod
    def layer_input(self, tokens: Tensor, hidden: Tensor) -> Tensor:
        """What the head's one layer reads: the tokens' embedding with the fused feature."""

    @abstractmethod
    def residual(self, layer_in: Tensor, hidden: Tensor) -> Tensor:
        """The residual stream the layer adds to."""

    @abstractmethod
    def head_input(self, x: Tensor) -> Tensor:
        """The layer's output as the LM head reads it."""

    def own_state_dict(self) -> dict[str, Tensor]:
        """Head weights without the shared (frozen) target embedding and LM head."""
        shared = ("embed.", "lm_head.")
        return {k: v for k, v in self.state_dict().items() if not k.startswith(shared)}

    def new_kv_cache(
        self, slots: int, max_len: int, size: int = 0, req_to_token: Tensor | None = None
    ) -> KVCache:
        """One layer; the engine shares the target's req_to_token (SGLang's draft pool does)."""
        c, ref = self.cfg, self.attn.wq.weight
        if req_to_token is None:
            req_to_token, size = static_req_to_token(slots, max_len, ref.device), slots * max_len
        k, v = new_kv_buffers(ref, 1, size, self.attn.n_kv, c.head_dim)
        return KVCache(k, v, req_to_token)

    def finish(self, residual: Tensor, attn_out: Tensor) -> tuple[Tensor, Tensor]:
        """Residual, MLP, then logits (draft vocab only) via the shared head."""
        x = residual + attn_out
        x = x + self.ffn(self.ffn_norm(x))
        if self.vocab_map is None:
            return self.lm_head(self.head_input(x)).float(), x
        weight = self.lm_head.weight[self.vocab_map]
        return F.linear(self.head_input(x), weight).float(), x

    def full_vocab(self, logits: Tensor) -> Tensor:
        """Draft-vocab logits [..., Vd] -> target-vocab logits [..., V] (others at the minimum)."""
        if self.vocab_map is None:
            return logits
        shape = (*logits.shape[:-1], self.cfg.vocab_size)
        full = logits.new_full(shape, torch.finfo(logits.dtype).min)
        return full.index_copy_(-1, self.vocab_map, logits)

    def forward(
        self,
        tokens: Tensor,
        hidden: Tensor,
        positions: Tensor,
        slots: Tensor,
        cache_locs: Tensor,
        attn_mask: Tensor,
        kv: KVCache,
    ) -> tuple[Tensor, Tensor]:
        x = self.layer_input(tokens, hidden)
        batch = kv.attn_batch(slots, cache_locs, attn_mask, x.dtype)
        out = self.attn.forward_cached(x, self.rope, positions, batch, kv.k[0], kv.v[0])
        logits, hidden_out = self.finish(self.residual(x, hidden), out)
        return self.full_vocab(logits), hidden_out

    def forward_ttt(self, tokens: Tensor, feats: Tensor, steps: int) -> list[Tensor]:
        """Training-time test: unroll `steps` draft steps over whole sequences without a cache.

        tokens [B,T+steps] (x[1..]), feats [B,T,dim] fused target features h[0..T-1]. Step j's
        row p sits at position p+j, reads token x[p+1+j] and the step j-1 output of row p, and
        attends to step-0 keys of positions < p+1 (real features) plus its own keys of steps 1..j,
        exactly what a chain draft sees at inference. Returns logits per step [B,T,Vd] (draft vocab).
        """
        b, t, _ = feats.shape
        dev = feats.device
        base = torch.arange(t, device=dev)
        ks, vs, out = [], [], []
        hidden = feats
        for j in range(steps):
            pos = (base + j).expand(b, t)
            x = self.layer_input(tokens[:, j : j + t], hidden)
            q, k, v = self.attn.project(x, self.rope, pos)
            ks.append(k.transpose(1, 2))
            vs.append(v.transpose(1, 2))
            bias = mask_bias(ttt_mask(t, j + 1, dev).expand(b, t, -1), x.dtype)
            att = self.attn.attend(q, torch.cat(ks, dim=2), torch.cat(vs, dim=2), bias)
            logits, hidden = self.finish(self.residual(x, hidden), att)
            out.append(logits)
        return out


class DraftHead(DraftHeadBase):
    """EAGLE-3 (SGLang's ``LlamaForCausalLMEagle3``): fused low/mid/high target features."""

    algorithm = "EAGLE3"
    architecture = "LlamaForCausalLMEagle3"

    def __init__(
        self, cfg: ModelConfig, target: TargetModel, draft_vocab: Tensor | None = None
    ) -> None:
        super().__init__(cfg, target, draft_vocab, in_dim=2 * cfg.dim)
        self.fc = nn.Linear(3 * cfg.dim, cfg.dim, bias=False)
        self.input_norm = RMSNorm(cfg.dim, cfg.norm_eps)
        self.hidden_norm = RMSNorm(cfg.dim, cfg.norm_eps)
        self.norm = RMSNorm(cfg.dim, cfg.norm_eps)

    @property
    def feature_dim(self) -> int:
        return self.fc.in_features

    def fuse(self, target_feature: Tensor) -> Tensor:
        return self.fc(target_feature)

    def layer_input(self, tokens: Tensor, hidden: Tensor) -> Tensor:
        """Attention reads norm(embedding) ++ norm(feature), 2*dim wide."""
        emb = self.embed(tokens).to(hidden.dtype)
        return torch.cat([self.input_norm(emb), self.hidden_norm(hidden)], dim=-1)

    def residual(self, layer_in: Tensor, hidden: Tensor) -> Tensor:
        return hidden

    def head_input(self, x: Tensor) -> Tensor:
        return self.norm(x)


class EagleDraftHead(DraftHeadBase):
    """EAGLE (SGLang's ``LlamaForCausalLMEagle``): the target's last hidden state and the token
    embedding, concatenated and mapped to ``dim`` by ``fc``."""

    algorithm = "EAGLE"
    architecture = "LlamaForCausalLMEagle"

    def __init__(
        self, cfg: ModelConfig, target: TargetModel, draft_vocab: Tensor | None = None
    ) -> None:
        super().__init__(cfg, target, draft_vocab, in_dim=cfg.dim)
        self.fc = nn.Linear(2 * cfg.dim, cfg.dim)

    @property
    def feature_dim(self) -> int:
        return self.fc.in_features - self.cfg.dim

    def fuse(self, target_feature: Tensor) -> Tensor:
        return target_feature  # already the last layer's state, ``dim`` wide

    def layer_input(self, tokens: Tensor, hidden: Tensor) -> Tensor:
        emb = self.embed(tokens).to(hidden.dtype)
        return self.fc(torch.cat([emb, hidden], dim=-1))

    def residual(self, layer_in: Tensor, hidden: Tensor) -> Tensor:
        return layer_in

    def head_input(self, x: Tensor) -> Tensor:
        return x


HEADS: dict[str, type[DraftHeadBase]] = {"EAGLE3": DraftHead, "EAGLE": EagleDraftHead}


def ttt_mask(t: int, n_steps: int, device: torch.device) -> Tensor:
    """[T, n_steps*T] bool: causal over step-0 keys, then the diagonal of each later step."""
    causal = torch.ones(t, t, dtype=torch.bool, device=device).tril()
    eye = torch.eye(t, dtype=torch.bool, device=device)
    return torch.cat([causal] + [eye] * (n_steps - 1), dim=1)
