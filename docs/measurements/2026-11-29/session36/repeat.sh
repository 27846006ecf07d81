#!/bin/bash
# REPS independent A/Bs of ROUNDS rounds each (ab.sh NAME-i ROUNDS all MODE), then one line per A/B:
# per op the geometric mean over sizes, and the sizes significantly slower than 1.05 and 1.10.
# Usage: repeat.sh NAME REPS ROUNDS [declining|aa]
here=$(dirname "$0")
name=$1 reps=$2 rounds=$3 mode=${4:-}
for i in $(seq 1 "$reps"); do "$here/ab.sh" "$name-$i" "$rounds" all "$mode"; done
for i in $(seq 1 "$reps"); do "$here/summary.sh" "/tmp/s36/$name-$i.txt"; done
