#!/bin/sh
# scripts/demo (issue 13, item 11) calibrates into its own directory, never into the table that
# installed jobs read (~/.config/modeltuned/calibration.json): a user's table there stays as it
# was, and the demo says how to adopt its table instead. A small run: np 2, 5 s of calibration.
top="$(cd "$(dirname "$0")/.." && pwd)"
build=$(pwd)  # make check runs tests in the build directory
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# Open MPI's session directories in here, not in the /tmp/ompi.* other jobs share.
export TMPDIR="$dir"
failures=0 passed=0
check() { if eval "$2"; then passed=$((passed + 1)); else echo "FAIL: $1"; echo "$out" | tail -n 40; failures=$((failures + 1)); fi; }
[ -n "${ASAN_OPTIONS:-}" ] && export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"

mkdir -p "$dir/home/.config/modeltuned"
printf '{"a user table": "left alone"}\n' > "$dir/home/.config/modeltuned/calibration.json"
cp "$dir/home/.config/modeltuned/calibration.json" "$dir/user-table"
demo() {
  out=$(env HOME="$dir/home" XDG_CONFIG_HOME= NP=2 CALIBRATION_BUDGET=5 MAX_BYTES=1024 REPS=3 \
        BUILD_DIR="$build" DEMO_DIR="$dir/demo" timeout 600 "$top/scripts/demo" --no-build "$@" 2>&1)
  status=$?
}

demo
check "the demo runs" '[ $status = 0 ]'
check "it calibrates into its own directory" '[ -s "$dir/demo/calibration.json" ] && grep -q "\"channels\"" "$dir/demo/calibration.json"'
check "the user's table is untouched" 'cmp -s "$dir/user-table" "$dir/home/.config/modeltuned/calibration.json"'
check "nothing else is written under ~/.config/modeltuned" '[ "$(ls "$dir/home/.config/modeltuned")" = calibration.json ]'
check "it says how to adopt the table" \
  'printf "%s" "$out" | grep -q "to use this table in every job, copy it to $dir/home/.config/modeltuned/calibration.json"'
check "it prints what modeltuned chose per size" 'printf "%s" "$out" | grep -q "modeltuned chose" && printf "%s" "$out" | grep -qE "^bcast +1024 "'
# Its first table's rows (8 fields before the speedup): every speedup comes with its interval and
# significance, or says both sides ran the same algorithm.
check "no speedup without its interval and significance" \
  '! printf "%s\n" "$out" | awk "/^modeltuned chose|^op +bytes +modeltuned chose/ { t = 1; next } /^$/ { t = 0 }
      t && /^(bcast|reduce) / && !/same algorithm as the default|too few repetitions/ && !/x \\[[0-9.]+,[0-9.]+\\] (not )?significant/ && \$NF != \"-\"" | grep -q .'
check "it writes the A/B plot and CSV" '[ -s "$dir/demo/ab.png" ] && [ -s "$dir/demo/ab.csv" ]'
check "its ORFEO part leaves the default somewhere, naming the checks that allowed it" \
  'printf "%s" "$out" | grep -q "leaves Open MPI.s default.*checks measured on [0-9]* and [0-9]* ranks"'

# A second run reuses its table: no calibration.
demo
check "a second run reuses the demo's table" '[ $status = 0 ] && ! printf "%s" "$out" | grep -q "calibrating this machine"'

out=$("$top/scripts/demo" --bogus 2>&1); status=$?
check "an unknown option: one line, status 2" '[ $status = 2 ] && [ "$(printf "%s\n" "$out" | wc -l)" = 1 ]'
out=$("$top/scripts/demo" --help 2>&1); status=$?
check "--help: status 0, names the settings" '[ $status = 0 ] && printf "%s" "$out" | grep -q "DEMO_DIR"'

echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
