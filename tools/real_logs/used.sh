#!/usr/bin/env bash
# used.sh OWNER/REPO N : exit 0 "USED" if an earlier round (docs/real-logs.md) or this session's
# claims used the thread; exit 2 "CHECK" if the number appears in docs/real-logs.md without the repo
# on the same line (a wrapped Threads list: read the lines shown and decide); exit 1 "free".
repo="$1"; n="$2"; short="${repo#*/}"
all=$(grep -nE "(^|[^0-9.])$n([^0-9]|$)" "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)/docs/real-logs.md")
hit=$(echo "$all" | grep -iF "$short" | head -3)
claim=$(grep -E "^$repo $n( |$)" "${COORD:-/work/coord}/used_threads.txt" 2>/dev/null)
# a file claimed in another form (its path, its blob, path@blob): the same repo and the same file
# name or blob hash is the same thread
for part in $(echo "$n" | tr '@' '\n' | sed 's#.*/##' | grep -E '.{6,}'); do
  [ -n "$claim" ] && break
  claim=$(grep -F "$repo " "${COORD:-/work/coord}/used_threads.txt" 2>/dev/null | grep -F -- "$part" | head -1)
done
if [ -n "$hit$claim" ]; then echo "USED: $hit $claim"; exit 0; fi
if [ -n "$all" ]; then echo "CHECK (number appears; is it this repo's thread?):"; echo "$all" | cut -c1-220 | head -5; exit 2; fi
echo "free"; exit 1
