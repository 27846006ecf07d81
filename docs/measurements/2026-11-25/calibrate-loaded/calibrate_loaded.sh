#!/bin/sh
# Issue 29: modeltuned-calibrate --budget 5 --reps 3 at np 2 on a loaded machine must write a table
# every time. Loads every core with a busy loop, runs the calibrator RUNS times (default 20) and
# counts the tables written. Usage: calibrate_loaded.sh BUILD_DIR [RUNS]
build=${1:?usage: calibrate_loaded.sh BUILD_DIR [RUNS]}
runs=${2:-20}
dir=$(mktemp -d)
root_flag=""; [ "$(id -u)" = 0 ] && root_flag=--allow-run-as-root
load_pids=""
for _ in $(seq "$(nproc)"); do (while :; do :; done) & load_pids="$load_pids $!"; done
trap 'kill $load_pids 2>/dev/null; rm -rf "$dir"' EXIT
written=0
for i in $(seq "$runs"); do
  rm -f "$dir/t.json"
  mpirun $root_flag --oversubscribe -np 2 --mca coll ^modeltuned "$build/calib/modeltuned-calibrate" \
    --budget 5 --reps 3 -o "$dir/t.json" > "$dir/log.$i" 2>&1
  if [ -s "$dir/t.json" ]; then written=$((written + 1)); status=written
  else status="NOT written: $(tail -n 3 "$dir/log.$i" | tr '\n' ' ')"; fi
  echo "run $i: table $status; reduce: $(sed -n 's/.*"source": *"\(measured MPI_Reduce_local[^"]*\)".*/\1/p' "$dir/t.json" 2>/dev/null | cut -c1-160)"
done
echo "$written of $runs runs wrote a table"
