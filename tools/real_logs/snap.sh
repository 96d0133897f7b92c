#!/usr/bin/env bash
# snap.sh [REV] : a source snapshot of this repository at REV (default HEAD) under ${SNAPS:-/work}/snap_<short>, with its rules linked; prints the dir.
rev="${1:-HEAD}"; h=$(git -C "$(dirname "$0")" rev-parse --short=7 "$rev"); d="${SNAPS:-/work}/snap_$h"
if [ ! -d "$d" ]; then mkdir -p "$d" && git -C "$(dirname "$0")" archive "$h" | tar -x -C "$d" && ln -sfn ../rules "$d/spectrace/rules"; fi
echo "$d"
