#!/bin/bash
# Issue 40's guard overhead: modeltuned-bench --op all --reps 300 at np 2, every variant interleaved,
# this VM's fresh np 2 table, seeds 1-3 with the guard on (g1) and off (g0) alternated; outputs in
# /tmp/s36/guard/, summed by session 21's geomean.py.
cd /work/main
mkdir -p /tmp/s36/guard
export OMPI_MCA_mca_base_component_path=$PWD/build/mca-components:/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3
export OMPI_MCA_coll_modeltuned_calibration_file=/tmp/s36/np2.json
for seed in 1 2 3; do
  for guard in 1 0; do
    s=$(date +%s)
    mpirun --allow-run-as-root -np 2 --bind-to core --mca coll_modeltuned_guard $guard \
      build/tools/bench/modeltuned-bench --op all --reps 300 --seed $seed > /tmp/s36/guard/g$guard-$seed.txt 2>&1
    echo "g$guard-$seed rc=$? $(( $(date +%s) - s )) s"
  done
done
python3 docs/measurements/2026-11-26/session21/guard-overhead/geomean.py --ops bcast,reduce,allreduce,barrier,allgather,alltoall \
  /tmp/s36/guard/g1-*.txt /tmp/s36/guard/g0-*.txt
