#!/bin/sh
# modeltuned-calibrate's command line: every bad flag gets one line naming it, on rank 0 only, and
# the job ends with exit status 2 instead of measuring (or hanging); --help and --version exit 0.
program="${MODELTUNED_CALIBRATE:-./calib/modeltuned-calibrate}"
mpirun="${MPIRUN:-mpirun}"
root_flag=""
[ "$(id -u)" = 0 ] && root_flag="--allow-run-as-root"
failures=0 passed=0
# Open MPI's session directories in a directory of its own, not in the /tmp/ompi.* other jobs share.
session=$(mktemp -d) || exit 99
trap 'rm -rf "$session"' EXIT
export TMPDIR="$session"
# Sanitizer builds: no leak checking inside MPI ranks (tests/sanitizers/README.md).
[ -n "${ASAN_OPTIONS:-}" ] && export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"

expect_error() {  # expect_error "what the line must contain" args...
  want=$1; shift
  out=$(timeout 60 "$mpirun" $root_flag --oversubscribe -np 2 --mca coll ^modeltuned "$program" "$@" 2>&1); status=$?
  lines=$(printf '%s\n' "$out" | grep -c "^modeltuned-calibrate:")
  if [ "$status" -eq 2 ] && [ "$lines" -eq 1 ] && printf '%s' "$out" | grep -q -- "$want" &&
     ! printf '%s' "$out" | grep -q '[0-9]\{20\}'; then
    passed=$((passed + 1))
  else
    echo "FAIL: modeltuned-calibrate $*: status $status, $lines lines from the program, wanted one with '$want':"
    echo "$out" | head -20
    failures=$((failures + 1))
  fi
}

expect_error "--budget" --budget -3
expect_error "--idle" --idle nap
# A missing directory is created (~/.config/modeltuned); one that cannot be is refused at once.
expect_error "not writable" -o /proc/modeltuned/table.json
expect_error "--max-bytes" --max-bytes 0
expect_error "--max-bytes: '2147483648' is not a whole number in 64..1073741824" --max-bytes 2GiB
expect_error "--reps: '0' is not a whole number in 1..1000" --reps 0
expect_error "--reps: 'abc'" --reps abc
expect_error "--seed: '-1' is not a whole number >= 0" --seed -1
expect_error "--budget: 'soon' is not a number >= 5" --budget soon
expect_error "--output needs a value" --idle poll -o
expect_error "--bogus" --bogus
# The system table's place is fixed: no other output with it (tests/package_install.sh writes it).
expect_error "--output excludes --install-system" --install-system -o table.json

out=$(timeout 60 "$mpirun" $root_flag --oversubscribe -np 2 --mca coll ^modeltuned "$program" --help 2>/dev/null); status=$?
if [ "$status" -eq 0 ] && [ "$(printf '%s\n' "$out" | grep -c '^Usage:')" -eq 1 ]; then passed=$((passed + 1)); else
  echo "FAIL: modeltuned-calibrate --help: status $status, wanted 0 and the help once on stdout"; failures=$((failures + 1)); fi

# --version: the version once (rank 0), status 0; the same from the latency benchmark.
for tool in "$program" "${MODELTUNED_LATENCY:-./tools/latency/modeltuned-latency}"; do
  out=$(timeout 60 "$mpirun" $root_flag --oversubscribe -np 2 --mca coll ^modeltuned "$tool" --version 2>/dev/null); status=$?
  if [ "$status" -eq 0 ] && [ "$out" = "$(sed -n 's/^PACKAGE_VERSION = //p' Makefile)" ]; then passed=$((passed + 1)); else
    echo "FAIL: $tool --version: status $status, said '$out', wanted 0 and the package version once"; failures=$((failures + 1)); fi
done

echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
