#!/bin/bash
# scripts/check from a fresh clone, 3 times, beside two busy loops and another MPI job (issue 41).
# Usage: loaded.sh COMMIT DIR: clones this repository at COMMIT into DIR/busy1..3 and runs
# scripts/check in each; DIR gets the logs (loaded.log, busyN.out, mpijob.log). The job beside them
# is this checkout's build/tools/latency/modeltuned-latency (scripts/build first).
top=$(cd "$(dirname "$0")/../../../.." && pwd)
commit=${1:?usage: loaded.sh COMMIT DIR} dir=${2:?usage: loaded.sh COMMIT DIR}
mkdir -p "$dir"
log=$dir/loaded.log
: > $log
for i in 1 2; do (while :; do :; done) & echo $! >> $dir/hogs.pids; done
( while [ ! -e $dir/stop ]; do
    mpirun --allow-run-as-root -np 2 $top/build/tools/latency/modeltuned-latency --op all > /dev/null 2>>$dir/mpijob.err
    echo "mpijob rc=$? $(date +%T)" >> $dir/mpijob.log
  done ) & echo $! >> $dir/hogs.pids
for run in 1 2 3; do
  d=$dir/busy$run
  rm -rf $d && git clone -q "$top" $d && git -C $d checkout -q $commit
  start=$(date +%s)
  echo "run $run start $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $log
  (cd $d && scripts/check > $dir/busy$run.out 2>&1); rc=$?
  echo "run $run rc=$rc $(( ($(date +%s) - start) / 60 )) min: $(tail -1 $dir/busy$run.out)" >> $log
done
touch $dir/stop
kill $(cat $dir/hogs.pids) 2>/dev/null
echo done >> $log
