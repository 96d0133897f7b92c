#!/usr/bin/env bash
# Issue 13 item 4 on the lent H200, one device command inside ~9.5 minutes: the load story on a
# compute-heavy target, synth-1b (Llama-3.2-1B shapes, bf16, random weights made on the device,
# SIMULATED acceptance: mean 3.0 emitted tokens per verify for every speculative config), plain /
# v2 chain / dynamic disable at 8, 32, 96 / v1 tree (k 4, s 3, N 16) at c 1, 4, 16, 64, 128, each
# run sized for at least 300 decode steps; then synth-3b at c 1, 16, 64, 128 with what time is
# left. Rows are appended as runs finish (a cut-short sweep keeps them).
# Usage (device tool): bash benchmarks/h200_load_story.sh, carrying .whl (isal).
# (first: the tiny pair's plain decode at c=64, host time per step, item 2.)
# $OUT: env.txt, load.log, synth-1b-rows.jsonl, synth-3b-rows.jsonl. Render here (polars):
#   mkdir -p D && cp synth-1b-rows.jsonl D/rows.jsonl && spectrace engine bench --out D --report-only
set -o pipefail
T0=$(date +%s)
. benchmarks/h200_env.sh
left() { echo $(( 565 - ($(date +%s) - T0) )); }
sweep() {  # sweep MODEL SECONDS FLAGS...
  local model=$1 secs=$2; shift 2
  echo "== $model (limit ${secs}s, at $(( $(date +%s) - T0 ))s)" | tee -a "$OUT/load.log"
  timeout "$secs" bash -c "$(declare -f E); E bench --out /tmp/$model --device cuda --model $model \
    --dtype bfloat16 --simulate-accept-len 3.0 --max-new-tokens 256 --num-requests 8 $*" 2>&1 \
    | grep -E "^bench|rror" | tee -a "$OUT/load.log"
  echo "exit $? at $(( $(date +%s) - T0 ))s" | tee -a "$OUT/load.log"
  cp "/tmp/$model/rows.jsonl" "$OUT/$model-rows.jsonl" 2>/dev/null
}
# item 2: host time per plain decode step at c=64 on the tiny pair (graphs on), after the fixes
timeout 60 bash -c "$(declare -f E); E run --out /tmp/plain64 --model tiny --device cuda \
  --speculative-algorithm NONE --concurrency 64 --num-requests 512 --max-new-tokens 64" >/dev/null 2>&1
python3 -c "import json; e=[json.loads(l) for l in open('/tmp/plain64/events.jsonl')]; \
r=[x for x in e if x['event']=='run_end'][0]; print('tiny plain c=64:', r['steps'], 'steps', \
round(1000*r['serve_s']/r['steps'],3), 'ms/step, host ms/step', r['host_ms_per_step'])" \
  2>&1 | tee -a "$OUT/load.log"
sweep synth-1b 330 --concurrency 1,4,16,64,128 --thresholds 8,32,96 --min-steps 300
[ "$(left)" -gt 60 ] && sweep synth-3b "$(left)" --concurrency 1,16,64,128 --thresholds 32 --min-steps 200
crash=$(grep -l "Traceback" /tmp/synth-*/runs/*/engine.log 2>/dev/null | head -1)
[ -n "$crash" ] && { echo "first crash: $crash"; grep -m3 -B2 "Error" "$crash"; }
echo "== done at $(( $(date +%s) - T0 ))s"
