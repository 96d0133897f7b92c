#!/usr/bin/env bash
# Smoke run of the restructured engine on the lent H200 (issue 13), in one device command that
# ends inside 8 minutes: the engine tests on CUDA (graph capture in TARGET_VERIFY mode, the draft
# multi-step graph, dynamic disable's DECODE set, every fault), the story crash on CUDA triaged
# by spectrace, the verify kernels alone (Triton vs torch) and whole runs with each backend.
# Usage (device tool): bash benchmarks/h200_smoke.sh, carrying .whl (the isal wheel spectrace's
# reader imports; the image lacks it). $OUT gets env.txt, pytest.log, story.log,
# story-triage.txt, story-triage.json, kernels.json, runs.log (at most 8 files).
set -o pipefail
T0=$(date +%s)
. benchmarks/h200_env.sh

at "pytest tests/engine on cuda"
SPECTRACE_ENGINE_DEVICE=cuda timeout 330 python3 -m pytest tests/engine -q -p no:cacheprovider \
  --timeout 150 -m "gpu or not gpu" --ignore tests/engine/test_bench.py \
  --ignore tests/engine/test_bench_verdicts.py --ignore tests/engine/test_smollm.py \
  > "$OUT/pytest.log" 2>&1  # the ignored three import polars / gguf, which the image lacks
echo "pytest exit $?"; tail -25 "$OUT/pytest.log"

at "story on cuda (v1 tree, stale_spec_info)"
timeout 60 bash -c "$(declare -f E); E run --out /tmp/story --device cuda --model tiny --num-requests 12 \
  --concurrency 10 --max-new-tokens 32 --ramp-clients 2 --ramp-step 2 \
  --speculative-disable-batch-threshold 8 --speculative-eagle-topk 4 --speculative-num-steps 3 \
  --speculative-num-draft-tokens 16 --worker v1 --fault stale_spec_info" 2>&1 | tail -4
cp /tmp/story/engine.log "$OUT/story.log" 2>/dev/null
grep -m2 "^RuntimeError\|cuda graph: True" /tmp/story/engine.log
timeout 60 python3 -m spectrace triage /tmp/story/engine.log > "$OUT/story-triage.txt" 2>&1
echo "triage exit $?"; head -40 "$OUT/story-triage.txt"
timeout 60 python3 -m spectrace triage /tmp/story/engine.log --format json -o "$OUT/story-triage.json" 2>&1 | tail -2

at "verify kernels alone"
timeout 90 python3 benchmarks/bench_kernels.py --bs 1,16,64,160 --iters 100 --json "$OUT/kernels.json" 2>&1 | tail -20

at "whole runs: torch vs triton verify (c=16, 32 requests x 64 tokens)"
TREE="--speculative-algorithm EAGLE --speculative-eagle-topk 4 --speculative-num-steps 3 --speculative-num-draft-tokens 16 --worker v1"
CHAIN="--speculative-algorithm EAGLE --speculative-eagle-topk 1 --speculative-num-steps 3 --worker v2"
for path in TREE CHAIN; do
  for be in torch triton triton; do  # triton twice: the second finds its kernels in the disk cache
    s=$(date +%s.%N)
    line=$(timeout 60 bash -c "$(declare -f E); E run --out /tmp/r-$path-$be --device cuda --model tiny \
      --num-requests 32 --concurrency 16 --max-new-tokens 64 ${!path} --verify-backend $be" 2>&1 | grep -m1 "^ok:\|crashed")
    echo "$path $be: $line (process $(python3 -c "import time; print(round(time.time()-$s, 1))") s)"
  done
done 2>&1 | tee "$OUT/runs.log"
at "done"
