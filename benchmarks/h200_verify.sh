#!/usr/bin/env bash
# Issue 13 items 1/5 on the lent H200, one device command inside 9 minutes: `engine bench` with
# the torch reference verify and with Triton (compiled and warmed at start-up), concurrency 1, 16,
# 64, then the engine tests on CUDA. Usage (device tool): bash benchmarks/h200_verify.sh, carrying
# .whl (isal). $OUT: env.txt, bench.log, torch-rows.jsonl, triton-rows.jsonl, pytest.log and the
# log of the first crashed bench run (crash.log), if any. Render here (polars):
#   python benchmarks/verify_backends.py torch-rows.jsonl triton-rows.jsonl --csv OUT.csv
set -o pipefail
T0=$(date +%s)
. benchmarks/h200_env.sh
for be in torch triton; do
  echo "== bench --verify-backend $be (at $(( $(date +%s) - T0 ))s)" | tee -a "$OUT/bench.log"
  timeout 100 bash -c "$(declare -f E); E bench --out /tmp/bench-$be --device cuda --verify-backend $be \
    --concurrency 1,16,64 --thresholds 8 --num-requests 32 --max-new-tokens 64" 2>&1 \
    | grep -E "^bench|Error|error" | tee -a "$OUT/bench.log"
  cp /tmp/bench-$be/rows.jsonl "$OUT/$be-rows.jsonl" 2>/dev/null
done
crash=$(grep -l "Traceback" /tmp/bench-*/runs/*/engine.log 2>/dev/null | head -1)
[ -n "$crash" ] && { echo "first crash: $crash"; cp "$crash" "$OUT/crash.log"; grep -m3 "Error" "$crash"; }
grep -h "Verify kernel ready" /tmp/bench-triton/runs/*/engine.log 2>/dev/null | sort | uniq -c | head -4
echo "== pytest tests/engine on cuda (at $(( $(date +%s) - T0 ))s)"
SPECTRACE_ENGINE_DEVICE=cuda timeout 220 python3 -m pytest tests/engine -q -p no:cacheprovider \
  --timeout 150 -m "gpu or not gpu" --ignore tests/engine/test_bench.py \
  --ignore tests/engine/test_bench_verdicts.py --ignore tests/engine/test_smollm.py \
  > "$OUT/pytest.log" 2>&1
echo "pytest exit $?"; grep -E "passed|failed|^FAILED|^ERROR" "$OUT/pytest.log" | tail -25
echo "== done (at $(( $(date +%s) - T0 ))s)"
