#!/bin/sh
# Every command in results/ runs once in its smoke mode (the A/B, the guard's cost, the ORFEO
# validation) or its dry run (the busy-machine suite, CI's time), so that none of them rots: each
# writes its table, headed by command, commit, date and machine, and refuses a bad option in one line.
top="$(cd "$(dirname "$0")/.." && pwd)"
build=$(pwd)  # make check runs tests in the build directory
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export TMPDIR="$dir" MODELTUNED_BUILD_DIR="$build"
[ -n "${ASAN_OPTIONS:-}" ] && export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"
failures=0 passed=0
check() { if eval "$2"; then passed=$((passed + 1)); else echo "FAIL: $1"; echo "$out" | tail -n 30; failures=$((failures + 1)); fi; }
run() { out=$(timeout 300 "$top/results/$@" 2>&1); status=$?; }
headed() { head -n 6 "$1" | grep -q "^# command: results/" && head -n 6 "$1" | grep -q "^# commit: " &&
  head -n 6 "$1" | grep -q "^# date: " && head -n 6 "$1" | grep -q "^# machine: smoke "; }
ops="bcast reduce allreduce barrier allgather alltoall"
rows_of() { for op in $ops; do grep -q "^| $op | [0-9.]* | [0-9.]* | [0-9.]* |$" "$1" || return 1; done; }

# adapt: a component every supported Open MPI has, off by default.
run ab --smoke --machine smoke --against adapt --out "$dir/r"
check "ab --smoke runs" '[ $status = 0 ]'
check "ab writes its table with the header" 'headed "$dir/r/ab-np2.md"'
check "ab's table has the modeltuned, declining, A/A and --against rows, every op with an interval" \
  '[ "$(grep -cE "^\| smoke, np 2, .*\| 2 (\| [0-9.]+ \[[0-9.]+, [0-9.]+\] ){6}\|$" "$dir/r/ab-np2.md")" = 4 ] &&
   grep -q "A/A | 2 |" "$dir/r/ab-np2.md" && grep -q "declining | 2 |" "$dir/r/ab-np2.md" &&
   grep -q "against coll/adapt switched on | 2 |" "$dir/r/ab-np2.md"'
check "ab's table ends with the --against component's wins kept" \
  'grep -qE "^[0-9]+ of [0-9]+ wins kept" "$dir/r/ab-np2.md"'
check "ab keeps its raw results compactly" \
  'for f in ab-report.txt declining-report.txt aa-report.txt against-adapt-report.txt ab-summary.csv aa-summary.csv against-adapt-summary.csv adapt-alone-report.txt adapt-alone-summary.csv ab-sizes.csv.gz aa-sizes.csv.gz table.json.gz; do [ -s "$dir/r/ab-np2/$f" ] || exit 1; done'
check "ab's --against baseline switched the component on" \
  'grep -q "OMPI_MCA_coll_adapt_priority=90" "$dir/r/ab-np2/against-adapt-report.txt"'
check "ab's raw results carry no folder of this machine" '! grep -rq "$dir\|$top" "$dir/r/ab-np2.md" "$dir/r/ab-np2"'

run guard-overhead --smoke --machine smoke --out "$dir/r"
check "guard-overhead --smoke runs" '[ $status = 0 ]'
check "guard-overhead writes its table with the header" 'headed "$dir/r/guard-overhead-np2.md"'
check "guard-overhead has a row per op, guard on and off and their ratio" 'rows_of "$dir/r/guard-overhead-np2.md"'
check "guard-overhead's raw results carry no folder of this machine" '! grep -rq "$dir\|$top" "$dir/r/guard-overhead-np2.md" "$dir/r/guard-overhead-np2"'

run orfeo-validation --smoke --machine smoke --out "$dir/r"
check "orfeo-validation --smoke runs" '[ $status = 0 ]'
check "orfeo-validation writes validate's report with the header" \
  'headed "$dir/r/orfeo-validation.md" && grep -q "^### Selection among the measured algorithms" "$dir/r/orfeo-validation.md" && grep -q "^### Targets" "$dir/r/orfeo-validation.md"'
check "orfeo-validation names no folder of this machine" '! grep -q "$dir\|$top" "$dir/r/orfeo-validation.md"'

run busy-machine --dry-run --runs 2 --machine smoke --out "$dir/r"
check "busy-machine --dry-run names its steps and writes nothing" \
  '[ $status = 0 ] && printf "%s" "$out" | grep -q "2 times: git clone" && printf "%s" "$out" | grep -q "scripts/check" && [ ! -e "$dir/r/busy-machine" ]'
run busy-machine --dry-run --commit no-such-commit
check "busy-machine: a commit that does not exist, one line, status 2" '[ $status = 2 ] && [ "$(printf "%s\n" "$out" | wc -l)" = 1 ]'
run ci-time --dry-run --machine smoke --out "$dir/r"
check "ci-time --dry-run checks .ci/run and names its steps" \
  '[ $status = 0 ] && printf "%s" "$out" | grep -q "CI=true bash .ci/run (scripts/check" && [ ! -e "$dir/r/ci-time" ]'

for cmd in ab guard-overhead orfeo-validation busy-machine ci-time; do
  run $cmd --bogus
  check "$cmd --bogus: one line, status 2" '[ $status = 2 ] && [ "$(printf "%s\n" "$out" | wc -l)" = 1 ]'
  run $cmd --help
  check "$cmd --help: status 0, the usage" '[ $status = 0 ] && printf "%s" "$out" | grep -q "^usage: results/$cmd"'
done
run ab --rounds 1
check "ab --rounds 1: refused before anything runs" '[ $status = 2 ] && printf "%s" "$out" | grep -q "at least 2"'
run ab --against "sm;rm"
check "ab --against with a bad name: refused in one line" '[ $status = 2 ] && [ "$(printf "%s\n" "$out" | wc -l)" = 1 ]'

echo "$passed passed, $failures failed"
[ $failures = 0 ]
