#!/usr/bin/env bash
# On the 16-core machine (2026-11-28, the code of 9193088; run from the repository root with the
# device machine's .devcarry/ and $OUT, which are not part of this repository): across-job A/Bs
# (modeltuned ab) of modeltuned-latency, every collective, 1 B - 1 MiB:
#   1. calibrate at np 16 (normal checks: the model's best candidates)
#   2. A/B at np 16 with that table                       (issue 40 item 5, issue 41 at np 16)
#   3. calibrate at np 16 with --checks algorithms (every algorithm with tuned's forced
#      parameters: what a model-free autotuner measures), the same budget
#   4. A/B at np 16 with that table                       (issue 40 item 5: the model's value)
#   5. A/B at np 8 with the np 16 table                   (issue 40 item 5)
#   6. A/B at np 16, loaded but declining (no table)      (issue 40: what loading costs)
# Steps run in that order under their own time limits; results are packed after each.
set -u
source .devcarry/env.sh
export OMPI_MCA_mca_base_component_path=$MT_COMPPATH
export TMPDIR=$(mktemp -d)
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/r.tgz -C $OUT r; }
step() {  # step NAME SECONDS command...
  local name=$1 limit=$2; shift 2
  SECONDS=0
  timeout "$limit" "$@" > $R/$name.txt 2> $R/$name.err
  echo "$name rc=$? ${SECONDS}s"; pack
}
nproc; lscpu | grep -E "Model name|^CPU\(s\)|L3"
# NP, NP8: 16 and 8 there; smaller for a dry run here.
NP=${NP:-16} NP8=${NP8:-8} BUDGET=${BUDGET:-60}
LAT="modeltuned-latency --op all --max-size 1M"
AB="modeltuned ab --quiet --warmup 1 --timeout 60"

step calib16 75 mpirun -np $NP --bind-to core modeltuned-calibrate --budget $BUDGET --seed 1 -o $R/t16.json
step ab16 110 $AB --rounds 6 --table $R/t16.json --out $R/ab16 -- mpirun -np $NP --bind-to core $LAT
step calib16alg 75 mpirun -np $NP --bind-to core modeltuned-calibrate --budget $BUDGET --seed 1 --checks algorithms -o $R/t16alg.json
step ab16alg 110 $AB --rounds 6 --table $R/t16alg.json --out $R/ab16alg -- mpirun -np $NP --bind-to core $LAT
step ab8 60 $AB --rounds 6 --table $R/t16.json --out $R/ab8 -- mpirun -np $NP8 --bind-to core $LAT
step ab16declining 60 $AB --rounds 4 --modeltuned-env OMPI_MCA_coll_modeltuned_calibration_file=/nonexistent/table.json --out $R/ab16declining -- mpirun -np $NP --bind-to core $LAT
for f in ab16 ab16alg ab8 ab16declining; do echo "== $f"; grep -iE "geometric|slower|faster|table" $R/$f.txt | head -12; done
