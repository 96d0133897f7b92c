"""Train the shipped tiny pairs: `python -m spectrace_engine.train.train --model tiny --device cuda`.

Target: causal LM on the Markov source. Head: self-distilled on the target's own greedy outputs
and hidden states (soft labels = the target's next-token distribution), with a 2-step
training-time-test unroll. Writes <name>.{target,draft}.safetensors (bf16) and SHA256SUMS.json,
then scores the pair with the offline speculative loop (acceptance.py). ``--head eagle
--reuse-target`` trains an EAGLE head (last hidden state ++ embedding) for the shipped target
and writes only <name>.eagle.draft.safetensors.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import torch
import torch.nn.functional as F
from safetensors.torch import save_file
from spectrace_engine.models.corpus import MarkovSource
from spectrace_engine.models.eagle_head import HEADS, DraftHead, DraftHeadBase
from spectrace_engine.models.llama import ModelConfig, TargetModel
from spectrace_engine.models.loader import head_file, load_pair
from spectrace_engine.models.weights import WEIGHTS_DIR, file_sha256
from spectrace_engine.train.acceptance import greedy_decode, speculative_decode

TINY = ModelConfig(
    vocab_size=512,
    dim=128,
    n_layers=4,
    n_heads=4,
    n_kv_heads=2,
    ffn_dim=384,
    max_seq_len=2048,
    aux_layers=(1, 2, 3),
)


@dataclass(frozen=True, slots=True)
class Recipe:
    config: ModelConfig
    source: MarkovSource
    target_steps: int = 3000
    head_steps: int = 3000
    batch: int = 64
    seq_len: int = 128
    lr: float = 3e-3
    ttt_steps: int = 2
    corpus_seqs: int = 16384
    distill_seqs: int = 4096


RECIPES = {
    "tiny": Recipe(TINY, MarkovSource(fanout=4, temperature=0.5, seed=0)),
    "tiny-hi-entropy": Recipe(TINY, MarkovSource(fanout=32, temperature=100.0, seed=1)),
}


def _schedule(opt: torch.optim.Optimizer, step: int, total: int, lr: float) -> None:
    warm = min(1.0, (step + 1) / 100)
    for group in opt.param_groups:
        group["lr"] = lr * warm * 0.5 * (1 + math.cos(math.pi * step / total))


def train_target(r: Recipe, device: str, log: list[dict]) -> TargetModel:
    torch.manual_seed(0)
    model = TargetModel(r.config).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=r.lr, weight_decay=0.01)
    corpus = r.source.sample(r.corpus_seqs, r.seq_len + 1, seed=10_000).to(device)
    g = torch.Generator().manual_seed(2)
    for step in range(r.target_steps):
        x = corpus[torch.randint(0, r.corpus_seqs, (r.batch,), generator=g).to(device)]
        logits, _ = model.forward_train(x[:, :-1])
        loss = F.cross_entropy(logits.flatten(0, 1), x[:, 1:].flatten())
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        _schedule(opt, step, r.target_steps, r.lr)
        opt.step()
        if step % 500 == 0 or step == r.target_steps - 1:
            log.append({"phase": "target", "step": step, "loss": round(loss.item(), 4)})
    return model.eval().requires_grad_(False)


def distill_corpus(target: TargetModel, r: Recipe, device: str) -> torch.Tensor:
    """Half source text, half the target's own greedy continuations of short source prompts."""
    text = r.source.sample(r.distill_seqs, r.seq_len, seed=50_000).to(device)
    prompts = r.source.sample(r.distill_seqs, 8, seed=90_000).to(device)
    chunk = 1024
    gens = [
        greedy_decode(target, prompts[i : i + chunk], r.seq_len - 8)
        for i in range(0, r.distill_seqs, chunk)
    ]
    return torch.cat([text, torch.cat([prompts, torch.cat(gens, 0)], 1)], 0)


def train_head(
    target: TargetModel,
    r: Recipe,
    device: str,
    log: list[dict],
    head_cls: type[DraftHeadBase] = DraftHead,
) -> DraftHeadBase:
    torch.manual_seed(1)
    target.capture_aux_hidden_states = head_cls is DraftHead  # the features this head reads
    head = head_cls(r.config, target).to(device)
    params = [p for n, p in head.named_parameters() if not n.startswith(("embed.", "lm_head."))]
    opt = torch.optim.AdamW(params, lr=r.lr, weight_decay=0.01)
    s = r.ttt_steps
    data = distill_corpus(target, r, device)
    g = torch.Generator().manual_seed(3)
    for step in range(r.head_steps):
        x = data[torch.randint(0, data.shape[0], (r.batch,), generator=g).to(device)]
        with torch.no_grad():
            t_logits, aux = target.forward_train(x)
        t = x.shape[1] - s
        outs = head.forward_ttt(x[:, 1:], head.fuse(aux[:, :t]), s)
        losses = []
        for j, logits in enumerate(outs):
            soft = torch.softmax(t_logits[:, 1 + j : 1 + j + t], -1)
            losses.append(-(soft * torch.log_softmax(logits, -1)).sum(-1).mean())
        loss = sum(w * lo for w, lo in zip((1.0, 0.8, 0.6), losses, strict=False))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        _schedule(opt, step, r.head_steps, r.lr)
        opt.step()
        if step % 500 == 0 or step == r.head_steps - 1:
            log.append(
                {"phase": "head", "step": step, "loss": [round(lo.item(), 4) for lo in losses]}
            )
    return head.eval().requires_grad_(False)


def round_bf16(*modules: torch.nn.Module) -> None:
    """Ship bf16 weights; score exactly what ships."""
    for m in modules:
        for p in m.parameters():
            p.data = p.data.to(torch.bfloat16).float()


def evaluate(target: TargetModel, head: DraftHeadBase, source: MarkovSource, device: str) -> dict:
    prompts = torch.tensor(source.prompts(32, 24, seed=1234), device=device)
    plain = greedy_decode(target, prompts, 64).tolist()
    report = {}
    for label, kw in (
        ("chain_s3", dict(topk=1, steps=3)),
        ("tree_k4_s3_n16", dict(topk=4, steps=3, num_draft_tokens=16)),
    ):
        res = speculative_decode(target, head, prompts, 64, **kw)
        report[label] = {
            "emitted_per_step": round(res.emitted_per_step, 3),
            "histogram": res.histogram,
            "identical_to_greedy": res.tokens == plain,
        }
    return report


def save_pair(
    name: str,
    r: Recipe,
    target: TargetModel | None,
    head: DraftHeadBase,
    report: dict,
    out: Path,
) -> None:
    """The target (unless reused) and the head, with their checksums."""
    out.mkdir(parents=True, exist_ok=True)
    cfg = asdict(r.config)
    meta = {"config": cfg, "source": asdict(r.source), "prompt_seed": 1234, "eval": report}
    files = [head_file(name, head.algorithm)]
    dstate = {k: v.to(torch.bfloat16).contiguous() for k, v in head.own_state_dict().items()}
    save_file(dstate, str(out / files[0]), {"spectrace": json.dumps(meta)})
    if target is not None:
        tstate = {
            k: v.to(torch.bfloat16).contiguous()
            for k, v in target.state_dict().items()
            if not (r.config.tie_embeddings and k == "lm_head.weight")
        }
        files.append(f"{name}.target.safetensors")
        save_file(tstate, str(out / files[-1]), {"spectrace": json.dumps(meta)})
    sums_path = out / "SHA256SUMS.json"
    sums = json.loads(sums_path.read_text()) if sums_path.exists() else {}
    for f in files:
        sums[f] = file_sha256(out / f)
    sums_path.write_text(json.dumps(dict(sorted(sums.items())), indent=2) + "\n")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", choices=[*RECIPES, "all"], default="tiny")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--out", type=Path, default=WEIGHTS_DIR)
    ap.add_argument("--target-steps", type=int)
    ap.add_argument("--head-steps", type=int)
    ap.add_argument("--corpus-seqs", type=int)
    ap.add_argument("--distill-seqs", type=int)
    ap.add_argument("--head", choices=["eagle3", "eagle"], default="eagle3")
    ap.add_argument("--reuse-target", action="store_true", help="head only, for the shipped target")
    args = ap.parse_args(argv)
    head_cls = HEADS[args.head.upper()]
    for name in RECIPES if args.model == "all" else [args.model]:
        r = RECIPES[name]
        over = {
            k: getattr(args, k)
            for k in ("target_steps", "head_steps", "corpus_seqs", "distill_seqs")
            if getattr(args, k) is not None
        }
        r = Recipe(**{**{f: getattr(r, f) for f in r.__slots__}, **over})
        log: list[dict] = []
        t0 = time.time()
        if args.reuse_target:
            target = load_pair(name, args.device).target  # the shipped one, bf16-rounded
        else:
            target = train_target(r, args.device, log)
        head = train_head(target, r, args.device, log, head_cls)
        round_bf16(target, head)
        report = evaluate(target, head, r.source, args.device)
        report["train_seconds"] = round(time.time() - t0, 1)
        report["source_entropy_bits"] = round(r.source.entropy_bits(), 3)
        saved = None if args.reuse_target else target.cpu()
        save_pair(name, r, saved, head.cpu(), {**report, "log": log}, args.out)
        print(json.dumps({"model": name, **report, "log": log}))


if __name__ == "__main__":
    main()
