# Sourced by benchmarks/h200_*.sh on the lent H200: the engine importable as spectrace_engine,
# spectrace's rules package, the carried wheels (.whl: isal, which spectrace's reader imports),
# unbuffered Python, and the versions in $OUT/env.txt. Defines E (the `spectrace engine` CLI).
mkdir -p /tmp/pkg && ln -sfn "$PWD/engine" /tmp/pkg/spectrace_engine
[ -e spectrace/rules ] || ln -s ../rules spectrace/rules  # pyproject maps spectrace.rules to rules/
ls .whl/*.whl >/dev/null 2>&1 && python3 -m pip install -q --no-index --no-deps --no-compile \
  --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/pkg:$PWD:/tmp/site PYTHONUNBUFFERED=1
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  python3 -c "import torch, triton, sys; print(sys.version.split()[0], torch.__version__, triton.__version__, torch.version.cuda)"
  python3 -c "import isal, spectrace.pipeline; print('spectrace pipeline imports')" 2>&1 | tail -1
} > "$OUT/env.txt" 2>&1
cat "$OUT/env.txt"
E() { python3 -c 'import sys; from spectrace_engine.entrypoints.cli import engine_app; engine_app(sys.argv[1:])' "$@"; }
