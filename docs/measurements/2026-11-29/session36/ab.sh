#!/bin/bash
# The across-job A/B at np 2 on a quiet machine, from a fresh np 2 table.
# Usage: ab.sh calibrate | ab.sh NAME ROUNDS [OP] [declining|aa]; outputs under /tmp/s36/NAME(.txt).
# declining: the component loaded without a table; aa: both jobs without modeltuned (the noise).
cd /work/main
export OMPI_MCA_mca_base_component_path=$PWD/build/mca-components:/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3
if [ "$1" = calibrate ]; then
  mpirun --allow-run-as-root -np 2 --bind-to core build/calib/modeltuned-calibrate -o /tmp/s36/np2.json
  exit
fi
name=$1 rounds=$2 op=${3:-all}
table=(--table /tmp/s36/np2.json)
case "${4:-}" in
declining) table=(--modeltuned-env OMPI_MCA_coll_modeltuned_calibration_file=/nonexistent/table.json) ;;
aa) table=(--no-preflight --modeltuned-env OMPI_MCA_coll=^modeltuned) ;;
esac
s=$(date +%s)
build/tools/modeltuned ab --rounds "$rounds" --warmup 1 --quiet "${table[@]}" --out /tmp/s36/$name -- \
  mpirun --allow-run-as-root -np 2 --bind-to core build/tools/latency/modeltuned-latency --op "$op" > /tmp/s36/$name.txt 2>&1
echo "$name rc=$? $(( $(date +%s)-s )) s"
