#!/usr/bin/env bash
# Smoke of the paged-attention kernel on the lent H200 (~90 s): its CUDA tests against the
# reference, then where a synth-1b step's device time goes (torch.profiler, one wave of c=128,
# plain then the v2 chain with SIMULATED acceptance), then synth-3b plain/chain/tree at c 1, 64. Usage (device tool, carrying .whl):
# bash benchmarks/h200_attn_smoke.sh. $OUT: env.txt, pytest.log, profile.log, synth-3b-smoke-rows.jsonl.
set -o pipefail
T0=$(date +%s)
. benchmarks/h200_env.sh
at() { echo "at $(( $(date +%s) - T0 ))s"; }
SPECTRACE_ENGINE_DEVICE=cuda timeout 60 python3 -m pytest -q -p no:cacheprovider \
  tests/engine/test_paged_attention.py tests/engine/test_prefill_graph.py tests/engine/test_model.py > "$OUT/pytest.log" 2>&1
echo "pytest exit $? ($(at))"; grep -E "passed|failed|^FAILED|^ERROR" "$OUT/pytest.log" | tail -8
timeout 45 python3 benchmarks/profile_step.py --model synth-1b --concurrency 128 \
  --max-new-tokens 128 2>&1 | grep -v Warning | tee -a "$OUT/profile.log"
echo "== ($(at))" | tee -a "$OUT/profile.log"
timeout 45 python3 benchmarks/profile_step.py --model synth-1b --concurrency 128 --algorithm EAGLE \
  --worker v2 --max-new-tokens 128 2>&1 | grep -v Warning | tee -a "$OUT/profile.log"

# a first look at synth-3b with the new step: plain / chain / tree at c 1 and 64
timeout 100 bash -c "$(declare -f E); E bench --out /tmp/s3 --device cuda --model synth-3b \
  --dtype bfloat16 --simulate-accept-len 3.0 --context-length 640 --max-new-tokens 512 \
  --num-requests 4 --concurrency 1,64 --configs plain,v2-chain,v1-tree --min-steps 200" 2>&1 \
  | grep -E "^bench|rror" | tee -a "$OUT/profile.log"
cp /tmp/s3/rows.jsonl "$OUT/synth-3b-smoke-rows.jsonl" 2>/dev/null
echo "== end ($(at))"
