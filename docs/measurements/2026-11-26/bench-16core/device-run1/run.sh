#!/usr/bin/env bash
# On the 16-core machine, 2026-11-26, at f916cc2: calibrate at np 16, then A/B allreduce/bcast/reduce against Open MPI's default.
set -u
source .devcarry/env.sh
export OMPI_MCA_mca_base_component_path=$MT_COMPPATH
R=$OUT/r; mkdir -p $R
{ nproc; lscpu | head -20; hwloc-ls --of console 2>/dev/null | head -30; } > $R/machine.txt 2>&1
T=${TABLE:-}
if [ -z "$T" ]; then
  T=$R/dev16.json
  SECONDS=0
  timeout 260 mpirun -np 16 --bind-to core modeltuned-calibrate --budget ${BUDGET:-150} -o $T > $R/calib.txt 2>&1
  echo "calibrate rc=$? ${SECONDS}s"; tail -3 $R/calib.txt
fi
B="mpirun -np 16 --bind-to core --mca coll_modeltuned_calibration_file $T modeltuned-bench"
for s in 1 2 3; do
  SECONDS=0
  timeout 120 $B --op allreduce --variants default,modeltuned --reps 300 --seed $s --csv $R/ar16_$s.csv > $R/ar16_$s.txt 2>&1
  echo "allreduce run $s rc=$? ${SECONDS}s"
done
SECONDS=0
timeout 150 $B --op allreduce --reps 40 --seed 7 --csv $R/ar16_all.csv > $R/ar16_all.txt 2>&1; echo "allreduce all rc=$? ${SECONDS}s"
SECONDS=0
timeout 120 $B --op both --variants default,modeltuned --reps 150 --seed 4 --csv $R/br16.csv > $R/br16.txt 2>&1; echo "both rc=$? ${SECONDS}s"
SECONDS=0
timeout 60 mpirun -np 8 --bind-to core --mca coll_modeltuned_calibration_file $T modeltuned-bench --op allreduce --variants default,modeltuned --reps 200 --seed 5 --csv $R/ar8.csv > $R/ar8.txt 2>&1; echo "np8 rc=$? ${SECONDS}s"
cat $R/ar16_1.txt | tail -26
tar czf $OUT/r.tgz -C $OUT r && rm -rf $R
