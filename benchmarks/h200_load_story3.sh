#!/usr/bin/env bash
# Issue 13 item 4, second H200 pass (after h200_load_story2.sh): the same synth-3b load (bf16,
# random weights, SIMULATED acceptance, outputs 256-512, context 640) with dynamic disable's plain
# steps writing features into the FeatureStore, each run sized for >= 800 decode steps:
#   plain                            c 1, 16, 64, 128, 256
#   v2 chain + dd96, acceptance 2.0  c 1, 16, 64, 128, 256   (threshold at the chain's crossover)
#   v1 tree k4 s3 N16 + dd16, acc 3  c 1, 4, 16, 64, 128
# CUDA tests first (a failure stops the call); rows written as runs finish; the tail of the
# first crashed run's log goes to load.log. Usage (device tool): bash benchmarks/h200_load_story3.sh,
# carrying .whl. $OUT: env.txt, pytest.log, load.log, plain/chain2/tree-rows.jsonl. Render here:
#   mkdir -p B && cat plain-rows.jsonl chain2-rows.jsonl > B/rows.jsonl
#   spectrace engine bench --out B --report-only           (A: plain + tree)
set -o pipefail
T0=$(date +%s)
. benchmarks/h200_env.sh
left() { echo $(( ${LIMIT:-330} - ($(date +%s) - T0) )); }
MIN_STEPS=800
. benchmarks/h200_part.sh
gate
part plain "$(cap 60)" 3.0 --concurrency 1,16,64,128,256 --configs plain
part chain2 "$(cap 150)" 2.0 --concurrency 1,16,64,128,256 --configs v2-chain,v2-dd --thresholds 96
part tree "$(left)" 3.0 --concurrency 1,4,16,64,128 --configs v1-tree,v1-tree-dd --thresholds 16
crash=$(grep -l "Traceback" /tmp/*/runs/*/engine.log 2>/dev/null | head -1)
[ -n "$crash" ] && { echo "first crash: $crash"; grep -B30 -m1 "Error" "$crash" | tail -40; } | tee -a "$OUT/load.log"
echo "== done at $(( $(date +%s) - T0 ))s"
