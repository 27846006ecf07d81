#!/bin/sh
# Fault injection (docs/calibration.md, "Candidates that crash or hang"): coll/adapt's reduce made
# to crash at 1 KiB, and its bcast to hang at 64 B, in modeltuned-calibrate's first call of them
# (MODELTUNED_CALIBRATE_FAULT). The job ends, naming the candidate; the same command run again
# completes, its table marks the candidate unusable from that size up, explain says so, and a job
# with the table never runs it there, even with its op's list narrowed to it. modeltuned calibrate
# does the second run by itself, also after a crash in a later call (crash-later), gives up at
# --attempts keeping the journal, and runs a command that fails outside a trial only once.
build=$(pwd)
program="$build/calib/modeltuned-calibrate"
tool="$build/tools/modeltuned"
mpirun="${MPIRUN:-mpirun}"
mca_dir=$(sed -n 's/^OMPI_MCA_DIR = //p' "$build/Makefile")
root_flag=""
[ "$(id -u)" = 0 ] && root_flag="--allow-run-as-root"
failures=0 passed=0
scratch=$(mktemp -d) || exit 99
trap 'rm -rf "$scratch"' EXIT
export TMPDIR="$scratch"  # Open MPI's session directories too
# Sanitizer builds: no leak checking inside MPI ranks (tests/sanitizers/README.md).
[ -n "${ASAN_OPTIONS:-}" ] && export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"

check() {  # check "what failed" 'shell test'
  if eval "$2"; then passed=$((passed + 1)); else echo "FAIL: $1"; failures=$((failures + 1)); fi
}

calibrate() {  # calibrate FAULT TABLE [args]: one job, its output in TABLE.log
  fault=$1 table=$2; shift 2
  MODELTUNED_CALIBRATE_FAULT=$fault timeout 300 "$mpirun" $root_flag --oversubscribe -np 2 --mca coll ^modeltuned \
    -x MODELTUNED_CALIBRATE_FAULT "$program" -o "$table" --budget 10 --max-bytes 8192 "$@" > "$table.log" 2>&1
}

# unusable TABLE OP: the table's unusable entries of OP as "algorithm from_bytes why"
unusable() {
  python3 -c 'import json, sys
for u in json.load(open(sys.argv[1]))["checks"].get("unusable", []):
    if u["op"] == sys.argv[2]: print(u["algorithm"], int(u["from_bytes"]), u["why"])' "$1" "$2"
}

one_fault() {  # one_fault OP BYTES KIND [calibrate args]
  op=$1 bytes=$2 kind=$3; shift 3
  table="$scratch/$op.json"
  calibrate "$op:adapt:$bytes:$kind" "$table" "$@"; status=$?
  check "$op $kind: the first job's status is $status, wanted the job to end: $(tail -n 5 "$table.log")" \
    '[ "$status" -ne 0 ] && [ "$status" -ne 124 ]'
  check "$op $kind: no line naming coll/adapt's $op of $bytes B: $(grep '^modeltuned-calibrate' "$table.log")" \
    'grep -q "^modeltuned-calibrate: rank 0: coll/adapt.s $op of $bytes B on 2 ranks" "$table.log"'
  calibrate "$op:adapt:$bytes:$kind" "$table" "$@"; status=$?
  check "$op $kind: the second job's status is $status, wanted 0: $(tail -n 5 "$table.log")" '[ "$status" -eq 0 ]'
  check "$op $kind: the journal is left after the calibration completed" '[ ! -e "$table.trials" ]'
  got=$(unusable "$table" "$op" 2>&1)
  want="adapt $bytes $([ "$kind" = crash ] && echo crashed || echo hung)"
  check "$op $kind: the table's unusable $op entries are '$got', wanted '$want'" '[ "$got" = "$want" ]'
  out=$("$tool" explain --synthetic 'pack:1 l3:1 core:2' -n 2 --table "$table" --op "$op" --sizes "$bytes" 2>&1)
  check "$op $kind: explain does not say why adapt is no candidate: $out" \
    'printf "%s" "$out" | grep -q "not a candidate: adapt (it $(echo "$want" | cut -d" " -f3) in calibration at $bytes B"'
}

one_fault reduce 1024 crash
one_fault bcast 64 hang --trial-timeout 8

# A job with the crash's table, reduce narrowed to adapt: adapt below 1 KiB, never from 1 KiB up.
table="$scratch/reduce.json"
if [ -f "$table" ]; then
  timeout 300 "$mpirun" $root_flag --oversubscribe -np 2 --mca mca_base_component_path "$build/mca-components:$mca_dir" \
    --mca coll_modeltuned_oversubscribed 1 --mca coll_modeltuned_calibration_file "$table" \
    --mca coll_modeltuned_reduce_algorithms adapt --mca coll_modeltuned_verbose 20 \
    "$build/tests/mpi/collectives" --ops=reduce --max-bytes=65536 > "$scratch/job.log" 2>&1
  status=$?
  check "the job with the table: status $status: $(tail -n 5 "$scratch/job.log")" '[ "$status" -eq 0 ]'
  # One trace record each (two ranks' lines may reach the log run together), its bytes its own.
  grep -o "coll:modeltuned:reduce [^[]*" "$scratch/job.log" | grep "algorithm=adapt" > "$scratch/adapt.txt"
  below=$(grep -c "" "$scratch/adapt.txt")
  above=$(sed 's/.* bytes=\([0-9]*\) .*/\1/' "$scratch/adapt.txt" | awk '$1 >= 1024' | wc -l)
  check "the job ran adapt's reduce $above times from 1 KiB up" '[ "$above" -eq 0 ]'
  check "the job never ran adapt's reduce below 1 KiB either: the test proves nothing" '[ "$below" -gt 0 ]'
fi

# modeltuned calibrate runs the command again by itself: the crash's run, then the one without it.
wrapped() {  # wrapped FAULT TABLE [tool args]: modeltuned calibrate over calibrate's job, in TABLE's folder
  fault=$1 table=$2; shift 2
  (cd "$(dirname "$table")" && MODELTUNED_CALIBRATE_FAULT=$fault timeout 600 "$tool" calibrate "$@" -- "$mpirun" \
    $root_flag --oversubscribe -np 2 --mca coll ^modeltuned -x MODELTUNED_CALIBRATE_FAULT "$program" -o "$table" \
    --budget 10 --max-bytes 8192 > "$table.log" 2>&1)
}
mkdir -p "$scratch/wrapped" "$scratch/gives-up" "$scratch/not-a-trial"
table="$scratch/wrapped/reduce.json"
wrapped reduce:adapt:1024:crash "$table"; status=$?
check "modeltuned calibrate: status $status, wanted 0: $(tail -n 5 "$table.log")" '[ "$status" -eq 0 ]'
check "modeltuned calibrate did not say it ran the calibration again: $(grep '^modeltuned calibrate' "$table.log")" \
  'grep -q "^modeltuned calibrate: run 1 ended where coll/adapt.s reduce of 1024 B on 2 ranks crashed: running the calibration again without it (run 2 of at most 10)$" "$table.log"'
check "modeltuned calibrate did not say what it left out" \
  'grep -q "^modeltuned calibrate: the calibration completed in run 2, leaving out coll/adapt.s reduce from 1024 B up on 2 ranks (crashed)$" "$table.log"'
got=$(unusable "$table" reduce 2>&1)
check "modeltuned calibrate: the table's unusable reduce entries are '$got'" '[ "$got" = "adapt 1024 crashed" ]'
check "modeltuned calibrate: the journal is left" '[ ! -e "$scratch/wrapped/modeltuned-calibrate.trials" ]'

# A crash in a later call (after the trial) is journaled by the crashing rank: the same outcome.
table="$scratch/wrapped/later.json"
wrapped reduce:adapt:1024:crash-later "$table"; status=$?
check "crash-later: status $status, wanted 0: $(tail -n 5 "$table.log")" '[ "$status" -eq 0 ]'
check "crash-later: no rank said the call after the trial crashed: $(grep '^modeltuned-calibrate: rank' "$table.log")" \
  'grep -q "^modeltuned-calibrate: rank [01]: coll/adapt.s reduce of 1024 B on 2 ranks crashed the job after its first call" "$table.log"'
got=$(unusable "$table" reduce 2>&1)
check "crash-later: the table's unusable reduce entries are '$got'" '[ "$got" = "adapt 1024 crashed" ]'

# With one run allowed it gives up, keeping the journal; the same command then goes on from it.
table="$scratch/gives-up/reduce.json"
wrapped reduce:adapt:1024:crash "$table" --attempts 1; status=$?
check "--attempts 1: status $status, wanted the crash's" '[ "$status" -ne 0 ] && [ "$status" -ne 124 ]'
check "--attempts 1: no line giving up: $(grep '^modeltuned calibrate' "$table.log")" \
  'grep -q "^modeltuned calibrate: run 1 ended where coll/adapt.s reduce of 1024 B on 2 ranks crashed too; giving up after 1 runs (--attempts)" "$table.log"'
check "--attempts 1: the journal is gone" '[ -s "$scratch/gives-up/modeltuned-calibrate.trials" ]'
wrapped reduce:adapt:1024:crash "$table" --attempts 1; status=$?
check "--attempts 1 again: status $status, wanted 0 (the journal leaves adapt out)" '[ "$status" -eq 0 ]'

# A run that fails outside any trial is not run again.
table="$scratch/not-a-trial/reduce.json"
(cd "$scratch/not-a-trial" && timeout 120 "$tool" calibrate -- "$mpirun" $root_flag -np 2 "$program" --no-such-option \
  > "$table.log" 2>&1); status=$?
check "a failing command: status $status, wanted its own (not 0)" '[ "$status" -ne 0 ] && [ "$status" -ne 124 ]'
check "a failing command: no line saying it is not run again: $(tail -n 3 "$table.log")" \
  'grep -q "^modeltuned calibrate: run 1 ended with exit status [0-9]*, not where another component.s algorithm crashed or hung (journal .*): not running it again$" "$table.log"'
check "a failing command was run again" '[ "$(grep -c "unknown option\|no-such-option" "$table.log")" -ge 1 ] && ! grep -q "run 2" "$table.log"'

echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
