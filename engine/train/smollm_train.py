"""Train the SmolLM2 draft head on CPU: `python -m spectrace_engine.train.smollm_train`.

Self-distillation as in train.py, sized for 2 CPU cores: the target's greedy answers to our own
questions (prompts/smollm2.txt, the last 16 held out), a reduced draft vocabulary (the target ids
seen in that data, EAGLE-3's d2t) so the shared 49k-row LM head costs ~12x less, hard labels
(greedy acceptance only needs the argmax) and the 2-step training-time-test unroll.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import torch
import torch.nn.functional as F
from safetensors.torch import save_file
from spectrace_engine.models.eagle_head import DraftHead
from spectrace_engine.models.llama import TargetModel
from spectrace_engine.models.smollm import PROMPTS, head_config, load_target
from spectrace_engine.models.weights import WEIGHTS_DIR, file_sha256
from spectrace_engine.train.acceptance import greedy_decode, speculative_decode

HELD_OUT = 16


@torch.no_grad()
def padded_forward(
    target: TargetModel, rows: list[list[int]], max_new: int
) -> tuple[torch.Tensor, ...]:
    """Left-padded batched greedy generation, then one pass for features: (tokens, aux, labels)."""
    bs, p = len(rows), max(len(r) for r in rows)
    pad = torch.tensor([p - len(r) for r in rows])
    total = p + max_new
    toks = torch.zeros(bs, total, dtype=torch.long)
    for b, r in enumerate(rows):
        toks[b, pad[b] : p] = torch.tensor(r)
    cols = torch.arange(total)
    slots = torch.arange(bs)
    kv = target.new_kv_cache(bs, total)
    aux_parts, label_parts = [], []
    start, t = 0, p
    while True:
        span = torch.arange(start, t)
        pos = (span[None, :] - pad[:, None]).clamp(min=0)
        mask = (cols[None, None, :] <= span[None, :, None]) & (
            cols[None, None, :] >= pad[:, None, None]
        )
        logits, aux = target(toks[:, start:t], pos, slots, span.expand(bs, -1), mask, kv)
        aux_parts.append(aux)
        label_parts.append(logits.argmax(-1))
        if t == total:
            return toks, torch.cat(aux_parts, 1), torch.cat(label_parts, 1)
        toks[:, t] = label_parts[-1][:, -1]
        start, t = t, t + 1


def build_data(
    target: TargetModel, prompts: list[list[int]], max_new: int, batch: int, crop: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Last `crop` positions of every row: tokens, fused-feature inputs and argmax labels."""
    parts = [
        padded_forward(target, prompts[i : i + batch], max_new)
        for i in range(0, len(prompts), batch)
    ]
    return tuple(torch.cat([x[i][:, -crop:] for x in parts]) for i in range(3))  # type: ignore[return-value]


def train(
    target: TargetModel,
    tokens: torch.Tensor,
    aux: torch.Tensor,
    labels: torch.Tensor,
    epochs: int,
    lr: float,
    log: list[dict],
) -> DraftHead:
    vocab = torch.unique(torch.cat([tokens.flatten(), labels.flatten()]))
    to_draft = torch.full((target.cfg.vocab_size,), -100, dtype=torch.long)
    to_draft[vocab] = torch.arange(vocab.numel())
    torch.manual_seed(0)
    head = DraftHead(head_config(target.cfg), target, draft_vocab=vocab)
    params = [p for n, p in head.named_parameters() if not n.startswith(("embed.", "lm_head."))]
    opt = torch.optim.AdamW(params, lr=lr, weight_decay=0.01)
    t = tokens.shape[1] - 2
    for epoch in range(epochs):
        for idx in torch.randperm(tokens.shape[0]).split(8):
            outs = head.forward_ttt(tokens[idx, 1:], head.fuse(aux[idx, :t]), 2)
            losses = [
                F.cross_entropy(o.flatten(0, 1), to_draft[labels[idx, 1 + j : 1 + j + t]].flatten())
                for j, o in enumerate(outs)
            ]
            opt.zero_grad(set_to_none=True)
            (losses[0] + 0.8 * losses[1]).backward()
            opt.step()
        log.append({"epoch": epoch, "loss": [round(lo.item(), 4) for lo in losses]})
    return head.eval().requires_grad_(False)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=WEIGHTS_DIR)
    ap.add_argument("--max-new", type=int, default=96)
    ap.add_argument("--epochs", type=int, default=8)
    args = ap.parse_args(argv)
    t0 = time.time()
    target, tok = load_target()
    target.eval().requires_grad_(False)
    questions = [q for q in PROMPTS.read_text().splitlines() if q.strip()][:-HELD_OUT]
    prompts = [tok.chat(q) for q in questions]
    tokens, aux, labels = build_data(target, prompts, args.max_new, 16, args.max_new + 8)
    log: list[dict] = [{"data_seconds": round(time.time() - t0, 1), "rows": tokens.shape[0]}]
    head = train(target, tokens, aux, labels, args.epochs, 2e-3, log)
    state = {
        k: (v if k == "vocab_map" else v.to(torch.bfloat16)).contiguous()
        for k, v in head.own_state_dict().items()
    }
    name = "smollm2.draft.safetensors"
    save_file(state, str(args.out / name), {"spectrace": json.dumps({"log": log})})
    sums_path = args.out / "SHA256SUMS.json"
    sums = json.loads(sums_path.read_text()) if sums_path.exists() else {}
    sums[name] = file_sha256(args.out / name)
    sums_path.write_text(json.dumps(dict(sorted(sums.items())), indent=2) + "\n")
    report = evaluate(
        target, head, [tok.chat(q) for q in PROMPTS.read_text().splitlines() if q.strip()][-4:]
    )
    print(
        json.dumps(
            {
                "log": log,
                "eval": report,
                "seconds": round(time.time() - t0, 1),
                "draft_vocab": int(head.vocab_map.numel()),
            }
        )
    )  # type: ignore[union-attr]


def evaluate(target: TargetModel, head: DraftHead, prompts: list[list[int]]) -> dict:
    """Held-out questions, one at a time (prompt lengths differ): chain s=3, 32 new tokens."""
    emitted, same = [], True
    for ids in prompts:
        x = torch.tensor([ids])
        res = speculative_decode(target, head, x, 32, topk=1, steps=3)
        same &= res.tokens == greedy_decode(target, x, 32).tolist()
        emitted.append(res.emitted_per_step)
    return {
        "chain_s3_emitted_per_step": round(sum(emitted) / len(emitted), 3),
        "identical_to_greedy": same,
    }


if __name__ == "__main__":
    main()
