#!/usr/bin/env bash
# The second run on the 16-core machine (2026-11-28), with the np 16 table of the first
# (device.sh's t16.json, carried as .devcarry/t16.json): more rounds of the across-job A/B, and an
# A/A control (both jobs Open MPI's own decisions) that shows the noise between jobs.
#   1. A/B at np 16, 10 rounds, the np 16 table
#   2. A/A at np 16, 6 rounds: the "modeltuned" job with OMPI_MCA_coll=^modeltuned as well
#   3. A/B at np 16, 8 rounds, loaded but declining (no table)
#   4. A/B at np 8, 8 rounds, the np 16 table
set -u
source .devcarry/env.sh
export OMPI_MCA_mca_base_component_path=$MT_COMPPATH
export TMPDIR=$(mktemp -d)
R=$OUT/r2; mkdir -p $R
T=${T:-.devcarry/t16.json}
pack() { tar czf $OUT/r2.tgz -C $OUT r2; }
step() {  # step NAME SECONDS command...
  local name=$1 limit=$2; shift 2
  SECONDS=0
  timeout "$limit" "$@" > $R/$name.txt 2> $R/$name.err
  echo "$name rc=$? ${SECONDS}s"; pack
}
NP=${NP:-16} NP8=${NP8:-8}
LAT="modeltuned-latency --op all --max-size 1M"
AB="modeltuned ab --quiet --warmup 1 --timeout 60"
step ab16 140 $AB --rounds 10 --table $T --out $R/ab16 -- mpirun -np $NP --bind-to core $LAT
step aa16 90 $AB --rounds 6 --modeltuned-env OMPI_MCA_coll=^modeltuned --out $R/aa16 -- mpirun -np $NP --bind-to core $LAT
step ab16declining 110 $AB --rounds 8 --modeltuned-env OMPI_MCA_coll_modeltuned_calibration_file=/nonexistent/table.json --out $R/ab16declining -- mpirun -np $NP --bind-to core $LAT
step ab8 70 $AB --rounds 8 --table $T --out $R/ab8 -- mpirun -np $NP8 --bind-to core $LAT
for f in ab16 aa16 ab16declining ab8; do echo "== $f"; grep -E "^wall|geometric mean over" $R/$f.txt; done
