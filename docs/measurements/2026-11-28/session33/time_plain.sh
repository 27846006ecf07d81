#!/bin/bash
cd /tmp/ci-32b/build
for t in $(make -s -n -p 2>/dev/null | grep -E '^TESTS = ' | head -1 | tr ' ' '\n' | grep -v '^$' | tail -n +3 | sed 's/\$(EXEEXT)//'); do
  export CK_XML_LOG_FILE_NAME=/tmp/s33/plain-$(basename $t).xml; s=$(date +%s.%N); make check TESTS="$t" >/dev/null 2>&1; rc=$?; e=$(date +%s.%N)
  printf '%-40s %6.1f rc=%d\n' "$t" "$(echo "$e - $s" | bc)" $rc >> /tmp/s33/plain_times.txt
done
echo done >> /tmp/s33/plain_times.txt
