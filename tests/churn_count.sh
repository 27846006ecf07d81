#!/bin/sh
# make churn-count (tools/churn/count-churn): one iteration's instructions of the churn loop in
# both settings, from two short runs each under callgrind. Both rows are counted, modeltuned's
# own functions show among the differences (so it ran in its setting and not in the other), and
# a bad ITERATIONS gets one line. Skipped without valgrind, and in sanitizer builds (valgrind
# cannot run AddressSanitizer's programs).
if ! command -v valgrind > /dev/null 2>&1 || ! command -v callgrind_annotate > /dev/null 2>&1; then
  echo "SKIP: valgrind is not installed"; exit 77
fi
if [ -n "${ASAN_OPTIONS:-}" ]; then echo "SKIP: valgrind cannot run a sanitizer build's programs"; exit 77; fi
failures=0 passed=0
check() { if eval "$2"; then passed=$((passed + 1)); else echo "FAIL: $1"; echo "$out"; failures=$((failures + 1)); fi; }

# 1000 iterations: start-up and polling vary between runs by millions of instructions, more than
# 100 iterations count (a modeltuned row came out at -1,307,943 there); the rows must stay positive.
out=$(ITERATIONS=1000 TOP=80 ${MAKE:-make} -s churn-count 2>&1); status=$?
check "make churn-count succeeds" '[ $status = 0 ]'
check "the plain row counts instructions" \
  'printf "%s\n" "$out" | grep -Eq "^plain +[1-9][0-9]+ +[1-9][0-9]+ +[1-9][0-9]+$"'
check "the modeltuned row counts instructions" \
  'printf "%s\n" "$out" | grep -Eq "^modeltuned +[1-9][0-9]+ +[1-9][0-9]+ +[1-9][0-9]+$"'
check "the difference is given" 'printf "%s\n" "$out" | grep -Eq "^modeltuned - plain: -?[0-9]+ \([-+][0-9.]+ %\)"'
check "modeltuned's comm_query runs once per iteration in its setting only" \
  'printf "%s\n" "$out" | grep -Eq "^ +[1-9][0-9]*  coll_modeltuned_module.c:mca_coll_modeltuned_comm_query$"'

out=$(ITERATIONS=many ${MAKE:-make} -s churn-count 2>&1); status=$?
check "a bad ITERATIONS is refused in one line" \
  '[ $status != 0 ] && printf "%s\n" "$out" | grep -q "^count-churn: ITERATIONS must be a positive number, not .many.$"'

echo "$passed passed, $failures failed"
[ $failures = 0 ]
