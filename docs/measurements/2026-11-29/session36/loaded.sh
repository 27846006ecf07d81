#!/bin/bash
# scripts/check from a fresh clone, 3 times, beside two busy loops and another MPI job (issue 41). Usage: loaded.sh COMMIT
commit=$1
log=/tmp/s36/loaded.log
: > $log
for i in 1 2; do (while :; do :; done) & echo $! >> /tmp/s36/hogs.pids; done
( while [ ! -e /tmp/s36/stop ]; do
    mpirun --allow-run-as-root -np 2 /tmp/s36/modeltuned-latency --op all > /dev/null 2>>/tmp/s36/mpijob.err
    echo "mpijob rc=$? $(date +%T)" >> /tmp/s36/mpijob.log
  done ) & echo $! >> /tmp/s36/hogs.pids
for run in 1 2 3; do
  d=/tmp/s36/busy$run
  rm -rf $d && git clone -q /work/main $d && git -C $d checkout -q $commit
  start=$(date +%s)
  echo "run $run start $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $log
  (cd $d && scripts/check > /tmp/s36/busy$run.out 2>&1); rc=$?
  echo "run $run rc=$rc $(( ($(date +%s) - start) / 60 )) min: $(tail -1 /tmp/s36/busy$run.out)" >> $log
done
touch /tmp/s36/stop
kill $(cat /tmp/s36/hogs.pids) 2>/dev/null
echo done >> $log
