#!/bin/sh
# scripts/check's report of a make check (issue 13, item 10): the result lines, the log of each
# failing test (automake's .trs files say ":test-result: FAIL"), and a summary that counts
# passes, failures and skips, with a failing status when anything failed.
top="$(cd "$(dirname "$0")/.." && pwd)"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0 passed=0
check() { if eval "$2"; then passed=$((passed + 1)); else echo "FAIL: $1"; echo "$out"; failures=$((failures + 1)); fi; }

touch "$dir/Makefile"
sleep 1  # the .trs files of this run are newer than the Makefile
mkdir -p "$dir/tests"
printf ':test-result: PASS\n' > "$dir/tests/good.trs"; printf 'all fine\n' > "$dir/tests/good.log"
printf ':test-result: FAIL\n' > "$dir/tests/bad.trs"; printf 'line 1\nthe reason it failed\n' > "$dir/tests/bad.log"
printf ':test-result: SKIP\n' > "$dir/tests/skipped.trs"; printf 'no namespaces\n' > "$dir/tests/skipped.log"
cat > "$dir/check.out" <<'X'
PASS: tests/good
FAIL: tests/bad
SKIP: tests/skipped
# TOTAL: 3
# PASS:  1
# SKIP:  1
# XFAIL: 0
# FAIL:  1
# XPASS: 0
# ERROR: 0
X
out=$("$top/scripts/check" --report "$dir" 2>&1); status=$?
check "the failing status" "[ $status -ne 0 ]"
check "the failing test's log" "printf '%s\n' \"\$out\" | grep -q 'the reason it failed'"
check "a header naming the failing test's log" "printf '%s\n' \"\$out\" | grep -q '^==== .*tests/bad.log'"
check "no log of tests that passed or were skipped" "! printf '%s\n' \"\$out\" | grep -q 'all fine\|no namespaces'"
check "the summary counting skips" "[ \"\$(printf '%s\n' \"\$out\" | tail -n 1)\" = '1 passed, 1 failed, 1 skipped' ]"

# All passing: status 0.
sed -i 's/^FAIL: tests\/bad/PASS: tests\/bad/; s/^# PASS:  1/# PASS:  2/; s/^# FAIL:  1/# FAIL:  0/' "$dir/check.out"
printf ':test-result: PASS\n' > "$dir/tests/bad.trs"
out=$("$top/scripts/check" --report "$dir" 2>&1); status=$?
check "status 0 when everything passed" "[ $status -eq 0 ] && [ \"\$(printf '%s\n' \"\$out\" | tail -n 1)\" = '2 passed, 0 failed, 1 skipped' ]"
out=$("$top/scripts/check" --report "$dir/nowhere" 2>&1); status=$?
check "one line and status 2 for a directory without check.out" "[ $status -eq 2 ] && [ \$(printf '%s\n' \"\$out\" | grep -c .) -eq 1 ]"

echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
