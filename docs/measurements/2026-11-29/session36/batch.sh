#!/bin/bash
# Ten of each A/B interleaved (fresh table 6 rounds, declining 6, A/A 6, fresh table 3), then one of
# 100 rounds with the fresh table; a summary line per A/B in /tmp/s36/summary.txt.
here=$(dirname "$0")
for i in $(seq 1 10); do
  "$here/ab.sh" t6-$i 6
  "$here/ab.sh" d6-$i 6 all declining
  "$here/ab.sh" a6-$i 6 all aa
  "$here/ab.sh" t3-$i 3
done
"$here/ab.sh" t100 100
for kind in t6 d6 a6 t3; do
  for i in $(seq 1 10); do echo "$kind-$i $("$here/summary.sh" /tmp/s36/$kind-$i.txt)"; done
done > /tmp/s36/summary.txt
echo "t100 $("$here/summary.sh" /tmp/s36/t100.txt)" >> /tmp/s36/summary.txt
