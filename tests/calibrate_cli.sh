#!/bin/sh
# modeltuned-calibrate's command line: every bad flag gets one line naming it, on rank 0 only, and
# the job ends with an error status instead of measuring (or hanging).
program="${MODELTUNED_CALIBRATE:-./calib/modeltuned-calibrate}"
mpirun="${MPIRUN:-mpirun}"
root_flag=""
[ "$(id -u)" = 0 ] && root_flag="--allow-run-as-root"
failures=0 passed=0

expect_error() {  # expect_error "what the line must contain" args...
  want=$1; shift
  out=$(timeout 60 "$mpirun" $root_flag --oversubscribe -np 2 --mca coll ^modeltuned "$program" "$@" 2>&1); status=$?
  lines=$(printf '%s\n' "$out" | grep -c "^modeltuned-calibrate:")
  if [ "$status" -ne 0 ] && [ "$status" -ne 124 ] && [ "$lines" -eq 1 ] && printf '%s' "$out" | grep -q -- "$want"; then
    passed=$((passed + 1))
  else
    echo "FAIL: modeltuned-calibrate $*: status $status, $lines lines from the program, wanted one with '$want':"
    echo "$out" | head -20
    failures=$((failures + 1))
  fi
}

expect_error "--budget" --budget -3
expect_error "--idle" --idle nap
expect_error "not writable" -o /nonexistent/dir/table.json
expect_error "--max-bytes" --max-bytes 0

echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
