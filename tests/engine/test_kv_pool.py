"""KV memory as SGLang's: a small --max-total-tokens exhausts the token allocator for real.

Decode exhaustion retracts requests (SGLang's logged line, output kept, re-prefilled later, so
greedy outputs do not change) and triage reads it as SGLang's benign retraction; a single request whose verify
rows no longer fit makes v1's allocation in the worker raise SGLang's out-of-memory error, which
triage reads as the fatal kv_pool_oom crash on the v1 path.
"""

from __future__ import annotations

import re

import pytest
import torch
from engine_cases import CHAIN_V2, PLAIN, TREE
from spectrace_engine.mem_cache.allocator import TokenToKVPoolAllocator

from spectrace.pipeline import analyse

LOAD = "--model tiny --num-requests 8 --concurrency 4 --max-new-tokens 32".split()
LOAD_LONG = "--model tiny --num-requests 12 --concurrency 8 --max-new-tokens 48".split()
RETRACT = re.compile(
    r"KV cache pool is full\. Retract requests\. #retracted_reqs: (\d+), "
    r"#new_token_ratio: \d\.\d{4} -> \d\.\d{4}$"
)
# One request at a time: its tree verify (16 rows) outgrows a 48-token pool near its end.
OOM = [*"--model tiny --num-requests 2 --concurrency 1 --max-new-tokens 32".split(), *TREE]


def retracted(run) -> int:  # type: ignore[no-untyped-def]
    counts = [RETRACT.search(line) for line in run.log.read_text().splitlines()]
    return sum(int(m.group(1)) for m in counts if m)


def test_allocator_hands_out_free_tokens_and_refuses_when_short() -> None:
    alloc = TokenToKVPoolAllocator(8, torch.device("cpu"))
    first = alloc.alloc(5)
    assert first is not None and sorted(first.tolist()) == [1, 2, 3, 4, 5]  # 0 is padding
    assert alloc.alloc(4) is None and alloc.available_size() == 3
    state = alloc.backup_state()
    assert alloc.alloc(3) is not None and alloc.available_size() == 0
    alloc.restore_state(state)
    alloc.free(first[:2])
    assert alloc.available_size() == 5


# Each load fills its pool: the tree needs bs x (16 + 4 x 3) tokens a step, the chain 2 x 4 ahead.
SMALL_POOLS = {
    "v1-tree": ([*LOAD, *TREE], "150"),
    "v2-chain": ([*LOAD_LONG, *CHAIN_V2], "120"),
}


@pytest.mark.parametrize("name", sorted(SMALL_POOLS))
def test_a_small_pool_retracts_and_keeps_greedy_outputs(engine_run, name) -> None:  # type: ignore[no-untyped-def]
    flags, tokens = SMALL_POOLS[name]
    plain = engine_run(*flags, *PLAIN)
    small = engine_run(*flags, "--max-total-tokens", tokens)
    assert small.code == 0
    assert retracted(small) >= 1
    assert small.outputs() == plain.outputs()  # retracted requests re-prefill prompt + output
    assert small.of("retract")
    assert analyse([str(small.log)]).incidents == []  # SGLang's retraction: benign, served on


def test_v1_verify_rows_past_the_pool_raise_sglangs_out_of_memory(engine_run) -> None:  # type: ignore[no-untyped-def]
    run = engine_run(*OOM, "--max-total-tokens", "48")
    assert run.code == 1
    err = run.of("error")[0]
    assert err["exc_type"] == "RuntimeError"
    assert err["message"].startswith("Out of memory. Try to lower your batch size.")
    text = run.log.read_text()
    assert "Try to allocate 16 tokens." in text  # bs 1 x 16 verify rows, allocated in the worker
    logged = text.index("] Out of memory. Try to lower your batch size.")  # logged, then raised
    assert logged < text.index("Scheduler hit an exception")
    roots = [i for i in analyse([str(run.log)]).incidents if i.root_cause]
    assert len(roots) == 1
    inc = roots[0]
    assert (inc.crash_class, inc.severity) == ("kv_pool_oom", "fatal")
    assert inc.worker_path is not None and inc.worker_path.value == "v1"
    assert any(f.function == "verify" and f.file.endswith("eagle_worker.py") for f in inc.frames)


def test_feature_store_keeps_each_column_until_the_catch_up_reads_it():
    """One write per step per request lands at (row, column); a catch-up reads the span back,
    and a later step's write does not disturb earlier columns (no tensor kept per step)."""
    from spectrace_engine.mem_cache.feature_store import FeatureStore

    store = FeatureStore(3, 8, 4, torch.float32, torch.device("cpu"))
    store.write_span(1, 0, torch.ones(3, 4))  # a prefill of 3 columns
    for step in range(3):  # three plain steps of rows 1 and 2, columns 3.. and 5..
        feats = torch.full((2, 4), float(step + 10))
        store.write(torch.tensor([1, 2]), torch.tensor([3 + step, 5 + step]), feats)
    assert store.read(1, 0, 6)[:, 0].tolist() == [1, 1, 1, 10, 11, 12]
    assert store.read(2, 5, 8)[:, 0].tolist() == [10, 11, 12]
    store.write(torch.tensor([2]), torch.tensor([99]), torch.zeros(1, 4))  # past the row: last
    assert store.read(2, 7, 8)[0, 0] == 0
