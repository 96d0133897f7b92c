#!/usr/bin/env bash
# snap.sh [REV] : a source snapshot of this repository at REV (default HEAD) under ${SNAPS:-/work}/snap_<short>, with its rules linked; prints the dir.
# git archive runs from the top level: run from tools/real_logs it would archive only that folder.
set -e
top=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
rev="${1:-HEAD}"; h=$(git -C "$top" rev-parse --short=7 "$rev"); d="${SNAPS:-/work}/snap_$h"
if [ ! -d "$d/spectrace" ]; then mkdir -p "$d" && git -C "$top" archive "$h" | tar -x -C "$d" && ln -sfn ../rules "$d/spectrace/rules"; fi
echo "$d"
