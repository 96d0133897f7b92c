#!/usr/bin/env bash
# Dynamic disable against plain once plain steps of a speculative server run ahead (overlap), on
# the lent H200 inside ~4 minutes: synth-1b (bf16, random weights, SIMULATED acceptance mean 3.0),
# plain vs the v2 chain with --speculative-disable-batch-threshold 8, c 64 and 128, the load of
# benchmarks/h200_load_story.sh (max_new 256, 2 requests per client). One `engine run` each.
# Usage (device tool): bash benchmarks/h200_dd_overlap.sh, carrying .whl. $OUT: env.txt, dd.log.
set -o pipefail
T0=$(date +%s)
. benchmarks/h200_env.sh
one() {  # one NAME C FLAGS...
  local name=$1 c=$2; shift 2
  timeout 100 bash -c "$(declare -f E); E run --out /tmp/$name-c$c --model synth-1b --dtype bfloat16 \
    --device cuda --concurrency $c --num-requests $((2 * c)) --max-new-tokens 256 \
    --max-running-requests $c $*" >/dev/null 2>&1
  python3 -c "import json,sys; e=[json.loads(l) for l in open('/tmp/$name-c$c/events.jsonl')]; \
r=[x for x in e if x['event']=='run_end'][0]; h=r['host_ms_per_step']; \
print('$name c=$c', r['status'], r['gen_throughput'], 'tok/s', r['steps'], 'steps', \
'host', h.get('host'), 'wait', h.get('wait'), 'spec steps', r['spec_steps'])" 2>&1 | tee -a "$OUT/dd.log"
}
for c in 64 128; do
  one plain $c --speculative-algorithm NONE
  one dd8 $c --worker v2 --speculative-disable-batch-threshold 8 --simulate-accept-len 3.0
done
echo "== done at $(( $(date +%s) - T0 ))s"
