#!/usr/bin/env bash
# claim.sh ROUND OWNER/REPO N : atomically claim a thread for a round. Refuses a used one; on a
# CHECK from used.sh it refuses unless FORCE=1 (set it only after reading the lines and finding
# they belong to another repo's thread).
round="$1"; repo="$2"; n="$3"
exec 9>"${COORD:-/work/coord}/used_threads.lock"
flock 9
"$(dirname "$0")/used.sh" "$repo" "$n"; rc=$?
if [ $rc -eq 0 ]; then echo "taken"; exit 1; fi
if [ $rc -eq 2 ] && [ "${FORCE:-0}" != 1 ]; then echo "not claimed: check the lines, then FORCE=1"; exit 1; fi
echo "$repo $n $round" >> "${COORD:-/work/coord}/used_threads.txt"
echo "claimed"
