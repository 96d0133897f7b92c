#!/usr/bin/env bash
# Issue 13 items 1-3 on the lent H200, one device command inside ~8 minutes: the engine tests of
# the in-graph verify, simulated acceptance and host time on CUDA; the tiny pair with the verify
# launched after the replay (--verify-outside-graph, first) and inside the captured verify graph
# (second, so any drift between passes counts against it), c 1, 16, 64; then synth-1b (bf16,
# random weights, SIMULATED acceptance mean 3) at c 1, 16, 64 to see step and host times where
# weights and FLOPs cost. Usage (device tool): bash benchmarks/h200_graph_verify.sh, carrying .whl.
# $OUT: env.txt, pytest.log, bench.log, tiny-{out,in}-rows.jsonl, synth-rows.jsonl. Render here:
#   python benchmarks/verify_backends.py tiny-out-rows.jsonl tiny-in-rows.jsonl
#   mkdir -p D && cp synth-rows.jsonl D/rows.jsonl && spectrace engine bench --out D --report-only
set -o pipefail
T0=$(date +%s)
. benchmarks/h200_env.sh
at() { echo "at $(( $(date +%s) - T0 ))s"; }
echo "== pytest on cuda ($(at))"
SPECTRACE_ENGINE_DEVICE=cuda timeout 150 python3 -m pytest -q -p no:cacheprovider --timeout 100 \
  tests/engine/test_verify_graph.py tests/engine/test_simulated.py tests/engine/test_host_time.py \
  tests/engine/test_workers.py > "$OUT/pytest.log" 2>&1
echo "pytest exit $?"; grep -E "passed|failed|^FAILED|^ERROR" "$OUT/pytest.log" | tail -12
bench() {  # bench NAME SECONDS FLAGS...
  local name=$1 secs=$2; shift 2
  echo "== $name ($(at))" | tee -a "$OUT/bench.log"
  timeout "$secs" bash -c "$(declare -f E); E bench --out /tmp/$name --device cuda $*" 2>&1 \
    | grep -E "^bench|rror" | tee -a "$OUT/bench.log"
  cp "/tmp/$name/rows.jsonl" "$OUT/$name-rows.jsonl" 2>/dev/null
}
TINY="--concurrency 1,16,64 --thresholds 8 --num-requests 64 --max-new-tokens 64"
bench tiny-out 80 $TINY --verify-outside-graph
bench tiny-in 80 $TINY
bench synth 170 --model synth-1b --dtype bfloat16 --simulate-accept-len 3 --concurrency 1,16,64 \
  --thresholds 16 --num-requests 16 --max-new-tokens 128 --min-steps 150
crash=$(grep -l "Traceback" /tmp/*/runs/*/engine.log 2>/dev/null | head -1)
[ -n "$crash" ] && { echo "first crash: $crash"; grep -m3 -B2 "Error" "$crash"; }
echo "== done ($(at))"
