#!/usr/bin/env bash
# Issue 13 item 2 on the lent H200, one device command inside ~5 minutes: host time per plain
# decode step of the tiny pair at c=64 with CUDA graphs, before (the session-start engine,
# carried as .e13a_base/spectrace_engine) and after (this tree), and after with the token
# choice launched after the replay (--verify-outside-graph), interleaved, REPS each; then the
# lean-step tests on CUDA (graph vs eager tokens on real graphs).
# Usage (device tool): bash benchmarks/h200_host_time.sh, carrying .whl and .e13a_base
#   (mkdir -p .e13a_base && cp -r <before-tree>/engine .e13a_base/spectrace_engine).
# $OUT: env.txt, host_time.csv (one row per run, written as runs finish), host_time.log, pytest.log.
set -o pipefail
T0=$(date +%s)
. benchmarks/h200_env.sh
REPS=${REPS:-3}
mkdir -p /tmp/pkgbase && ln -sfn "$PWD/.e13a_base/spectrace_engine" /tmp/pkgbase/spectrace_engine
LOAD=${LOAD:-"--model tiny --device cuda --speculative-algorithm NONE --concurrency 64 --num-requests 512 --max-new-tokens 64"}
echo "tree,rep,steps,step_ms,host_ms,wait_ms,schedule,prepare,forward,verify,accept,kv,events,logging,events_share" > "$OUT/host_time.csv"
row() {  # row TREE REP DIR
  python3 - "$@" >> "$OUT/host_time.csv" <<'PY'
import json, sys
tree, rep, d = sys.argv[1:4]
e = [json.loads(l) for l in open(f"{d}/events.jsonl")]
r = [x for x in e if x["event"] == "run_end"][0]
h, steps = r["host_ms_per_step"], r["steps"]
step_ms = 1000 * r["serve_s"] / steps
cats = ["schedule", "prepare", "forward", "verify", "accept", "kv", "events", "logging"]
print(",".join([tree, rep, str(steps), f"{step_ms:.3f}", f"{h['host']:.4f}", f"{h['wait']:.4f}",
                *(f"{h[c]:.4f}" for c in cats), f"{h['events'] / step_ms:.4f}"]))
PY
}
one() {  # one TREE REP PYPATH FLAGS...
  local tree=$1 rep=$2 pp=$3; shift 3
  rm -rf /tmp/ht
  PYTHONPATH=$pp:$PWD:/tmp/site timeout 90 python3 -c 'import sys; from spectrace_engine.entrypoints.cli import engine_app; engine_app(sys.argv[1:])' \
    run --out /tmp/ht $LOAD "$@" > /tmp/ht.out 2>&1 || { echo "$tree rep $rep failed"; tail -5 /tmp/ht.out; }
  row "$tree" "$rep" /tmp/ht && tail -1 "$OUT/host_time.csv" | tee -a "$OUT/host_time.log"
}
for rep in $(seq 1 "$REPS"); do
  one before "$rep" /tmp/pkgbase
  one after "$rep" /tmp/pkg
  one after-choice-outside "$rep" /tmp/pkg --verify-outside-graph
done
echo "== runs done at $(( $(date +%s) - T0 ))s" | tee -a "$OUT/host_time.log"
python3 - "$OUT/host_time.csv" <<'PY' | tee -a "$OUT/host_time.log"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
med = {t: statistics.median(float(r["host_ms"]) for r in rows if r["tree"] == t)
       for t in dict.fromkeys(r["tree"] for r in rows)}
base = med.get("before")
for t, m in med.items():  # medians of the interleaved runs; ratio against before, same command
    print(f"median host ms/step {t}: {m:.3f}" + (f" ({m / base:.2f}x before)" if base else ""))
PY
SPECTRACE_ENGINE_DEVICE=cuda timeout 150 python3 -m pytest -q -p no:cacheprovider \
  tests/engine/test_lean_step.py tests/engine/test_graph_runner.py > "$OUT/pytest.log" 2>&1
echo "pytest exit $? at $(( $(date +%s) - T0 ))s"; tail -5 "$OUT/pytest.log"
