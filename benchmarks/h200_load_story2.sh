#!/usr/bin/env bash
# Issue 13 item 4 on the lent H200 after the paged-attention kernel, the fused RoPE/KV write and
# graphed prefill: one device command inside ~9.8 minutes. synth-3b (Llama-3.2-3B shapes, bf16,
# random weights made on the device, SIMULATED acceptance), outputs 256-512 tokens (context
# 640), every run sized for >= 500 decode steps, one run per row:
#   plain                          c 1, 4, 16, 64, 128, 256
#   v2 chain + dd32 / dd96, acc 2  c 1, 16, 64, 128, 256   (table B: the chain's crossover)
#   v1 tree k4 s3 N16 + dd16, acc 3 c 1, 4, 16, 64, 128    (table A: 16 rows a request)
#   v2 chain, acc 3                c 1, 16, 64, 256        (table A, with the time left)
# The CUDA tests of the kernels run first; a failure stops the call. Rows are written as runs
# finish (a cut-short part keeps its rows).
# Usage (device tool): bash benchmarks/h200_load_story2.sh, carrying .whl.
# $OUT: env.txt, pytest.log, load.log, <part>-rows.jsonl. Render here (polars), per table:
#   mkdir -p A && cat plain-rows.jsonl tree-rows.jsonl chain3-rows.jsonl > A/rows.jsonl
#   spectrace engine bench --out A --report-only          (B: plain + chain2)
set -o pipefail
T0=$(date +%s)
. benchmarks/h200_env.sh
left() { echo $(( 585 - ($(date +%s) - T0) )); }
MIN_STEPS=500
. benchmarks/h200_part.sh
gate
part plain "$(cap 90)" 3.0 --concurrency 1,4,16,64,128,256 --configs plain
part chain2 "$(cap 230)" 2.0 --concurrency 1,16,64,128,256 --configs v2-chain,v2-dd --thresholds 32,96
part tree "$(cap 190)" 3.0 --concurrency 1,4,16,64,128 --configs v1-tree,v1-tree-dd --thresholds 16
part chain3 "$(left)" 3.0 --concurrency 1,16,64,256 --configs v2-chain
crash=$(grep -l "Traceback" /tmp/*/runs/*/engine.log 2>/dev/null | head -1)
[ -n "$crash" ] && { echo "first crash: $crash"; grep -m3 -B2 "Error" "$crash"; }
echo "== done at $(( $(date +%s) - T0 ))s"
