"""Tensor parallelism as SGLang's: sharded layers, one all-reduce per row-parallel layer, and the
NCCL watchdog line of a timed-out collective that spectrace turns into the missing rank.

The collectives are counted by wrapping ``torch.distributed`` in the rank processes, not by the
engine's own sequence number.
"""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path

import torch
import torch.multiprocessing as mp
from engine_cases import BASE, PLAIN
from safetensors import safe_open
from spectrace_engine.entrypoints.cli import engine_app
from typer.testing import CliRunner

from spectrace.errors import UsageError
from spectrace.pipeline import analyse

WEIGHTS = Path(__file__).parents[2] / "engine" / "weights" / "tiny.target.safetensors"
B, T = 3, 5  # a batch of 3 requests, 5 new tokens each
WATCHDOG = re.compile(
    r"^\[rank(\d)\]:\[E\d{4} [\d:.]+ ProcessGroupNCCL\.cpp:\d+\] \[PG ID 0 PG GUID 0\(default_pg\) "
    r"Rank (\d)\] Watchdog caught collective operation timeout: WorkNCCL\(SeqNum=(\d+), "
    r"OpType=ALLREDUCE, NumelIn=(\d+), NumelOut=(\d+), Timeout\(ms\)=(\d+)\) ran for \d+ "
    r"milliseconds before timing out\.$",
    re.M,
)


def tiny_config() -> dict:
    with safe_open(str(WEIGHTS), framework="pt") as f:
        return json.loads(f.metadata()["spectrace"])["config"]


def forward(tp):  # type: ignore[no-untyped-def]
    """The tiny target's logits for a fixed batch, and the model it ran (sharded over ``tp``)."""
    from spectrace_engine.models.loader import load_pair

    target = load_pair("tiny", tp=tp).target
    gen = torch.Generator().manual_seed(0)
    tokens = torch.randint(0, target.cfg.vocab_size, (B, T), generator=gen)
    pos = torch.arange(T).expand(B, T)
    mask = (torch.arange(16)[None, :] <= torch.arange(T)[:, None]).expand(B, T, 16)
    kv = target.new_kv_cache(B, 16)
    with torch.inference_mode():
        logits, _ = target(tokens, pos, torch.arange(B), pos, mask, kv)
    return logits, target, kv


def rank_main(rank: int, port: int, out: dict) -> None:
    import torch.distributed as dist
    from spectrace_engine.distributed.parallel_state import GroupCoordinator

    calls: list[tuple[str, int]] = []
    real_reduce, real_gather = dist.all_reduce, dist.all_gather

    def counted_reduce(t, *a, **k):  # type: ignore[no-untyped-def]
        calls.append(("all_reduce", t.numel()))
        return real_reduce(t, *a, **k)

    def counted_gather(parts, t, *a, **k):  # type: ignore[no-untyped-def]
        calls.append(("all_gather", t.numel()))
        return real_gather(parts, t, *a, **k)

    dist.all_reduce, dist.all_gather = counted_reduce, counted_gather
    tp = GroupCoordinator(rank, 2)
    tp.init(port, "gloo", 60.0)
    logits, target, kv = forward(tp)
    attn = target.layers[0].attn
    out[rank] = {
        "logits": logits,
        "calls": calls,
        "kv_heads": kv.k.shape[2],
        "wq": attn.wq.weight.clone(),
        "heads": (attn.n_heads, attn.n_kv),
    }
    tp.destroy()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_tp2_shards_the_weights_and_all_reduces_once_per_row_parallel_layer() -> None:
    cfg = tiny_config()
    with mp.get_context("spawn").Manager() as manager:
        out = manager.dict()
        mp.start_processes(rank_main, args=(free_port(), out), nprocs=2, start_method="spawn")
        ranks = [out[0], out[1]]
    one, full, _ = forward(None)
    hidden, layers, vocab = cfg["dim"], cfg["n_layers"], cfg["vocab_size"]
    for r, got in enumerate(ranks):
        # the embedding, then o_proj and down_proj of every decoder layer: bs x hidden each
        assert got["calls"][:-1] == [("all_reduce", B * T * hidden)] * (1 + 2 * layers)
        assert got["calls"][-1] == ("all_gather", B * T * vocab // 2)  # the LM head's shard
        assert got["heads"] == (cfg["n_heads"] // 2, cfg["n_kv_heads"] // 2)
        assert got["kv_heads"] == cfg["n_kv_heads"] // 2  # the rank's KV cache holds its heads
        rows = cfg["n_heads"] // 2 * (hidden // cfg["n_heads"])
        assert torch.equal(got["wq"], full.layers[0].attn.wq.weight[r * rows : (r + 1) * rows])
        assert torch.allclose(got["logits"], one, atol=1e-4, rtol=1e-4)
        assert torch.equal(got["logits"].argmax(-1), one.argmax(-1))
    assert torch.equal(ranks[0]["logits"], ranks[1]["logits"])  # the ranks agree bit for bit


def test_a_timed_out_all_reduce_logs_the_watchdog_line_and_spectrace_names_the_missing_rank(
    engine_run,
) -> None:
    flags = [*BASE, *PLAIN, "--disable-cuda-graph", "--tp", "2", "--dist-timeout", "3"]
    hang = ["--fault", "hang_before_collective", "--hang-seconds", "6", "--fault-step", "2"]
    run = engine_run(*flags, *hang)
    assert run.code == 1
    text = run.log.read_text()
    (line,) = WATCHDOG.findall(text)  # rank 0 waited; rank 1 slept, then lost its peer
    writer, rank, seq, numel_in, numel_out, timeout_ms = map(int, line)
    err = run.of("error", 0)[0]
    assert (writer, rank, timeout_ms) == (0, 0, 3000)
    # the hung forward's first collective: the embedding's all-reduce of bs x hidden
    assert numel_in == numel_out == err["bs"] * tiny_config()["dim"]
    analysis = analyse([str(run.log)])
    timeout = next(i for i in analysis.incidents if i.crash_class == "nccl_timeout")
    assert timeout.missing_ranks == ["TP1"]
    assert f"TP1 (rank1) never reached collective SeqNum={seq} ALLREDUCE" in timeout.hints[0]


def test_a_model_whose_heads_do_not_split_is_refused_in_one_line(tmp_path: Path) -> None:
    """UsageError is what spectrace's CLI prints as one line with exit code 2."""
    res = CliRunner().invoke(engine_app, ["run", "--out", str(tmp_path), *BASE, "--tp", "4"])
    assert isinstance(res.exception, UsageError)  # tiny: 2 KV heads
    assert str(res.exception) == "tiny's 2 KV heads do not split over --tp 4"
    assert not list(tmp_path.iterdir())  # refused before any rank started
