#!/bin/bash
# The across-job A/B at np 2 for the three newer collectives, ROUNDS rounds each (default 3), outputs under /tmp/s34/ab/TAGop, this VM's np 2 table
cd /work/main
export OMPI_MCA_mca_base_component_path=$PWD/build/mca-components:/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3
for op in allgather alltoall barrier; do
  s=$(date +%s)
  build/tools/modeltuned ab --rounds ${ROUNDS:-3} --warmup 1 --quiet --table /tmp/s32/np2.json --out /tmp/s34/ab/${TAG:-}$op -- \
    mpirun --allow-run-as-root -np 2 --bind-to core build/tools/latency/modeltuned-latency --op $op > /tmp/s34/ab/${TAG:-}$op.txt 2>&1
  echo "$op rc=$? $(( $(date +%s)-s )) s"
done
