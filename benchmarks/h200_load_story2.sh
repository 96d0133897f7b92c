#!/usr/bin/env bash
# Issue 13 item 4 on the lent H200 after the paged-attention kernel and graphed prefill, one
# device command inside ~9.5 minutes: synth-3b (Llama-3.2-3B shapes, bf16, random weights made
# on the device, SIMULATED acceptance mean 3.0 for every speculative config), plain / v2 chain /
# dynamic disable / v1 tree (k 4, s 3, N 16), outputs 256-512 tokens (context 640), each run
# sized for >= 400 decode steps; c 1..256 (the tree to 128: 16 rows a request); then synth-1b
# with the time left. Rows are appended as runs finish (a cut-short sweep keeps them).
# Usage (device tool): bash benchmarks/h200_load_story2.sh, carrying .whl.
# $OUT: env.txt, load.log, <model>-<part>-rows.jsonl. Render here (polars):
#   mkdir -p D && cat synth-3b-*-rows.jsonl > D/rows.jsonl && spectrace engine bench --out D --report-only
set -o pipefail
T0=$(date +%s)
. benchmarks/h200_env.sh
left() { echo $(( ${LIMIT:-570} - ($(date +%s) - T0) )); }
sweep() {  # sweep MODEL PART SECONDS FLAGS...
  local model=$1 part=$2 secs=$3; shift 3
  [ "$secs" -gt 30 ] || { echo "== $model $part skipped (${secs}s left)" | tee -a "$OUT/load.log"; return; }
  echo "== $model $part (limit ${secs}s, at $(( $(date +%s) - T0 ))s)" | tee -a "$OUT/load.log"
  timeout "$secs" bash -c "$(declare -f E); E bench --out /tmp/$model-$part --device cuda --model $model \
    --dtype bfloat16 --simulate-accept-len 3.0 --context-length 640 --max-new-tokens 512 \
    --num-requests 8 $*" 2>&1 | grep -E "^bench|rror" | tee -a "$OUT/load.log"
  echo "exit $? at $(( $(date +%s) - T0 ))s" | tee -a "$OUT/load.log"
  cp "/tmp/$model-$part/rows.jsonl" "$OUT/$model-$part-rows.jsonl" 2>/dev/null
}
sweep synth-3b main 330 --concurrency 1,4,16,64,128,256 --configs plain,v2-chain,v2-dd \
  --thresholds ${DD:-64} --min-steps 400
sweep synth-3b tree "$(( $(left) > 150 ? 150 : $(left) ))" --concurrency 1,4,16,64,128 \
  --configs v1-tree --min-steps 300
sweep synth-1b all "$(left)" --concurrency 1,16,64,256 --configs plain,v2-chain,v1-tree \
  --min-steps 300
crash=$(grep -l "Traceback" /tmp/synth-*/runs/*/engine.log 2>/dev/null | head -1)
[ -n "$crash" ] && { echo "first crash: $crash"; grep -m3 -B2 "Error" "$crash"; }
echo "== done at $(( $(date +%s) - T0 ))s"
