# Sourced by benchmarks/h200_load_story{2,3}.sh after h200_env.sh: `part NAME SECONDS ACCEPT
# FLAGS...` runs one `engine bench` on synth-3b (bf16, simulated acceptance ACCEPT, outputs
# 256-512 tokens, context 640, MIN_STEPS decode steps a run) under a timeout, prints one line per
# finished run into $OUT/load.log and copies its rows to $OUT/NAME-rows.jsonl; `cap N` is the
# smaller of N and the seconds `left` (defined by the caller); `gate` runs the kernels' CUDA tests.
part() {
  local name=$1 secs=$2 acc=$3; shift 3
  [ "$secs" -gt 40 ] || { echo "== $name skipped (${secs}s left)" | tee -a "$OUT/load.log"; return; }
  echo "== $name (limit ${secs}s, at $(( $(date +%s) - T0 ))s)" | tee -a "$OUT/load.log"
  timeout "$secs" bash -c "$(declare -f E); E bench --out /tmp/$name --device cuda --model synth-3b \
    --dtype bfloat16 --simulate-accept-len $acc --context-length 640 --max-new-tokens 512 \
    --num-requests 4 --min-steps $MIN_STEPS $*" 2>&1 | grep -E "^bench|rror" | tee -a "$OUT/load.log"
  echo "exit $? at $(( $(date +%s) - T0 ))s" | tee -a "$OUT/load.log"
  cp "/tmp/$name/rows.jsonl" "$OUT/$name-rows.jsonl" 2>/dev/null
}
cap() { local l; l=$(left); echo $(( l < $1 ? l : $1 )); }
gate() {  # the kernels' CUDA tests; a failure ends the call before any device time is spent on runs
  SPECTRACE_ENGINE_DEVICE=cuda timeout 60 python3 -m pytest -q -p no:cacheprovider -x \
    tests/engine/test_paged_attention.py tests/engine/test_prefill_graph.py > "$OUT/pytest.log" 2>&1
  local rc=$?; echo "pytest exit $rc at $(( $(date +%s) - T0 ))s"; tail -3 "$OUT/pytest.log"
  [ "$rc" -eq 0 ] || { grep -E "^E |Error" "$OUT/pytest.log" | head -20; exit 1; }
}
