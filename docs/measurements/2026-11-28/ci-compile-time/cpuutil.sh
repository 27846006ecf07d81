#!/bin/bash
# usage: cpuutil.sh CMD...: runs CMD, prints wall seconds and the share of both cores busy
read -r _ u n s i w x y z _ < /proc/stat; b0=$((u+n+s+x+y+z)); t0=$((b0+i+w)); s0=$(date +%s.%N)
"$@"; rc=$?
read -r _ u n s i w x y z _ < /proc/stat; b1=$((u+n+s+x+y+z)); t1=$((b1+i+w)); s1=$(date +%s.%N)
echo "rc=$rc wall=$(echo "$s1-$s0"|bc) busy=$(( 100*(b1-b0)/(t1-t0) ))%"
