#!/bin/bash
# Issue 40's guard overhead: modeltuned-bench --op all --reps 300 at np 2, every variant interleaved,
# the fresh np 2 table of ../ab-np2-vm/ (np2.json there: `ab.sh calibrate`, or np2.json.gz
# unpacked), seeds 1-3 with the guard on (g1) and off (g0) alternated; outputs g*.txt beside this
# script, summed by ../../2026-11-26/guard-overhead/geomean.py.
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../../.." || exit 1
export OMPI_MCA_mca_base_component_path=$PWD/build/mca-components:$(ompi_info --path pkglibdir --parsable | cut -d: -f3)
export OMPI_MCA_coll_modeltuned_calibration_file=$here/../ab-np2-vm/np2.json
for seed in 1 2 3; do
  for guard in 1 0; do
    s=$(date +%s)
    mpirun --allow-run-as-root -np 2 --bind-to core --mca coll_modeltuned_guard $guard \
      build/tools/bench/modeltuned-bench --op all --reps 300 --seed $seed > "$here/g$guard-$seed.txt" 2>&1
    echo "g$guard-$seed rc=$? $(( $(date +%s) - s )) s"
  done
done
python3 docs/measurements/2026-11-26/guard-overhead/geomean.py --ops bcast,reduce,allreduce,barrier,allgather,alltoall \
  "$here"/g1-*.txt "$here"/g0-*.txt
