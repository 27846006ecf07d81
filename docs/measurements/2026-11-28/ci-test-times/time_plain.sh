#!/bin/bash
# Times each test of a plain build alone (make check TESTS=...), one after the other.
# Usage: time_plain.sh BUILD_DIR OUTPUT; Check's XML logs go beside OUTPUT.
build=${1:?usage: time_plain.sh BUILD_DIR OUTPUT} out=$(realpath -m "${2:?usage: time_plain.sh BUILD_DIR OUTPUT}")
logs=$(dirname "$out")
cd "$build" || exit 1
for t in $(make -s -n -p 2>/dev/null | grep -E '^TESTS = ' | head -1 | tr ' ' '\n' | grep -v '^$' | tail -n +3 | sed 's/\$(EXEEXT)//'); do
  export CK_XML_LOG_FILE_NAME=$logs/plain-$(basename $t).xml; s=$(date +%s.%N); make check TESTS="$t" >/dev/null 2>&1; rc=$?; e=$(date +%s.%N)
  printf '%-40s %6.1f rc=%d\n' "$t" "$(echo "$e - $s" | bc)" $rc >> "$out"
done
echo done >> "$out"
