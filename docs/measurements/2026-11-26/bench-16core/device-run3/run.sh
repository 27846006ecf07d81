#!/usr/bin/env bash
# On the 16-core machine, 2026-11-26, at 06bd2b9: calibrate at np 16 (table version 6: fresh-memory step), then
# modeltuned against Open MPI's default for bcast, reduce and allreduce: three runs at np 16, one at np 8 and one at np 2 (counters in the module).
set -u
source .devcarry/env.sh
export OMPI_MCA_mca_base_component_path=$MT_COMPPATH
R=$OUT/r; mkdir -p $R
SECONDS=0
timeout 200 mpirun -np 16 --bind-to core modeltuned-calibrate --budget 150 -o $R/dev16.json > $R/calib.txt 2>&1
echo "calibrate rc=$? ${SECONDS}s"; tail -2 $R/calib.txt
B="modeltuned-bench --op all --variants default,modeltuned"
for s in 1 2 3; do
  SECONDS=0
  timeout 150 mpirun -np 16 --bind-to core --mca coll_modeltuned_calibration_file $R/dev16.json $B --reps 200 --seed $s --csv $R/ab16_$s.csv > $R/ab16_$s.txt 2>&1
  echo "np16 run $s rc=$? ${SECONDS}s"
done
SECONDS=0
timeout 100 mpirun -np 8 --bind-to core --mca coll_modeltuned_calibration_file $R/dev16.json $B --reps 200 --seed 4 --csv $R/ab8.csv > $R/ab8.txt 2>&1
echo "np8 rc=$? ${SECONDS}s"
SECONDS=0
timeout 100 mpirun -np 2 --bind-to core --mca coll_modeltuned_calibration_file $R/dev16.json $B --reps 300 --seed 5 --csv $R/ab2.csv > $R/ab2.txt 2>&1
echo "np2 rc=$? ${SECONDS}s"
grep -E "^(bcast|reduce|allreduce)" $R/ab16_1.txt | awk '{print $1, $2, $NF}' | tr '\n' ';'
tar czf $OUT/r.tgz -C $OUT r && rm -rf $R
