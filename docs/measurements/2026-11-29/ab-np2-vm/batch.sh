#!/bin/bash
# Ten of each A/B interleaved (fresh table 6 rounds, declining 6, A/A 6, fresh table 3), then one of
# 100 rounds with the fresh table; a summary line per A/B in ab/summary.txt (beside this script).
here=$(cd "$(dirname "$0")" && pwd)
for i in $(seq 1 10); do
  "$here/ab.sh" t6-$i 6
  "$here/ab.sh" d6-$i 6 all declining
  "$here/ab.sh" a6-$i 6 all aa
  "$here/ab.sh" t3-$i 3
done
"$here/ab.sh" t100 100
for kind in t6 d6 a6 t3; do
  for i in $(seq 1 10); do echo "$kind-$i $("$here/summary.sh" "$here/ab/$kind-$i.txt")"; done
done > "$here/ab/summary.txt"
echo "t100 $("$here/summary.sh" "$here/ab/t100.txt")" >> "$here/ab/summary.txt"
