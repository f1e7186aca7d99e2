#!/usr/bin/env bash
# alloc.sh TH_A TH_B [runs]: scripts/bench/alloc.lua (or $SCRIPT beside it:
# alloc_small.lua) under both, runs times alternately (default 3); prints op,
# size, median us of A and B, A/B.
set -u
A=$1; B=$2; runs=${3:-3}; here=$(cd "$(dirname "$0")" && pwd); out=$(mktemp -d)
for r in $(seq "$runs"); do
  (cd /tmp && $A "$here/${SCRIPT:-alloc.lua}" ${BUDGET:-0.1} > "$out/a$r" 2>&1)
  (cd /tmp && $B "$here/${SCRIPT:-alloc.lua}" ${BUDGET:-0.1} > "$out/b$r" 2>&1)
done
median() { awk 'NF==3{print $1"@"$2, $3}' "$@" | sort -k1,1 -k2,2g |
  awk '{k[$1]=k[$1]" "$2} END {for (x in k) {n=split(k[x],v," "); print x, v[int((n+1)/2)]}}' | sort; }
printf '%-12s %8s %10s %10s %7s\n' op size A_us B_us A/B
join <(median "$out"/a*) <(median "$out"/b*) |
  awk '{split($1,k,"@"); printf "%-12s %8d %10.2f %10.2f %7.2f\n", k[1], k[2], $2, $3, $2/$3}' | sort -k1,1 -k2,2n
rm -rf "$out"
