#!/bin/bash
# The across-job A/B at np 2 for the three newer collectives, ROUNDS rounds each (default 3), with
# the np 2 table TABLE (required: calibrated on this machine, `mpirun -np 2 --bind-to core
# build/calib/modeltuned-calibrate -o TABLE`). Outputs beside this script: TAGop.txt and modeltuned
# ab's --out folder TAGop/. Run from anywhere after scripts/build.
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../../.." || exit 1
table=$(realpath "${TABLE:?set TABLE to an np 2 table}")
export OMPI_MCA_mca_base_component_path=$PWD/build/mca-components:$(ompi_info --path pkglibdir --parsable | cut -d: -f3)
for op in allgather alltoall barrier; do
  s=$(date +%s)
  build/tools/modeltuned ab --rounds ${ROUNDS:-3} --warmup 1 --quiet --table "$table" --out "$here/${TAG:-}$op" -- \
    mpirun --allow-run-as-root -np 2 --bind-to core build/tools/latency/modeltuned-latency --op $op > "$here/${TAG:-}$op.txt" 2>&1
  echo "$op rc=$? $(( $(date +%s)-s )) s"
done
