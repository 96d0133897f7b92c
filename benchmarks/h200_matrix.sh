#!/usr/bin/env bash
# Issue 6 on the lent H200, in one device command: engine tests on CUDA, graph and kernel benches,
# then the runtime's story/sweep. Everything lands in $OUT (logs + JSON). Usage (device tool):
#   bash benchmarks/h200_matrix.sh     (carry .h7whl for polars, which engine bench needs)
set -o pipefail
mkdir -p /tmp/pkg && ln -sfn "$PWD/engine" /tmp/pkg/spectrace_engine
[ -e spectrace/rules ] || ln -s ../rules spectrace/rules  # pyproject maps spectrace.rules to rules/
if ls .h7whl/*.whl .h6whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .h7whl/*.whl .h6whl/*.whl
fi
export PYTHONPATH=/tmp/pkg:$PWD:/tmp/site PYTHONUNBUFFERED=1
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  python3 -c "import torch, triton, sys; print(sys.version.split()[0], torch.__version__, triton.__version__, torch.version.cuda)"; } > "$OUT/env.txt" 2>&1
cat "$OUT/env.txt"
echo "== pytest tests/engine (cuda where available)"
timeout 180 python3 -m pytest tests/engine -m "gpu or not gpu" -q -p no:cacheprovider --timeout 120 --continue-on-collection-errors \
  --ignore tests/engine/test_smollm.py 2>&1 | tee "$OUT/pytest.log" | tail -15
echo "== bench_graphs"
timeout 75 python3 benchmarks/bench_graphs.py --json "$OUT/graphs.json" 2>&1
echo "== bench_kernels"
timeout 75 python3 benchmarks/bench_kernels.py --json "$OUT/kernels.json" 2>&1
E() { python3 -c 'import sys; from spectrace_engine.entrypoints.cli import engine_app; engine_app(sys.argv[1:])' "$@"; }
echo "== story on cuda (stale_spec_info)"
timeout 45 bash -c "$(declare -f E); E run --out /tmp/story --device cuda --model tiny --num-requests 12 --concurrency 10 --max-new-tokens 32 --ramp-clients 2 --ramp-step 2 --speculative-disable-batch-threshold 8 --speculative-eagle-topk 4 --speculative-num-steps 3 --speculative-num-draft-tokens 16 --worker v1 --fault stale_spec_info" 2>&1 | tail -3
grep "^RuntimeError" /tmp/story/engine.log | head -2
echo "== engine bench sweep"
timeout 120 bash -c "$(declare -f E); E bench --out $OUT/bench --device cuda --concurrency 1,2,4,8,16 --thresholds 2,8 --num-requests 32 --max-new-tokens 64" 2>&1 | tail -16
rm -rf "$OUT/bench/runs"
