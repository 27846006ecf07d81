#!/bin/bash
# One line of a `modeltuned ab` report: the wall time and each op's geometric mean over sizes, then
# the sizes significantly slower than 1.05 and 1.10.
awk 'function slower(line,   s) { s = line; sub(/.*slower than [0-9.]+: /, "", s); sub(/;.*/, "", s); return s }
     /^wall time:/ {line = sprintf("wall %s", $3)}
     /^modeltuned-latency: MPI_/ {op = tolower(substr($2, 5))}
     /geometric mean over/ {line = line sprintf(" | %s %s", op, $9)}
     /significantly slower than 1.05:/ {s = slower($0); if (s != "none") slow105 = slow105 " " op ":" s}
     /significantly slower than 1.10:/ {s = slower($0); if (s != "none") slow110 = slow110 " " op ":" s}
     END {printf "%s | >1.05:%s | >1.10:%s\n", line, slow105 ? slow105 : " none", slow110 ? slow110 : " none"}' "$1"
