#!/bin/bash
# The across-job A/B at np 2 on a quiet machine, from a fresh np 2 table.
# Usage: ab.sh calibrate | ab.sh NAME ROUNDS [OP] [declining|aa]. `calibrate` writes np2.json beside
# this script (the one measured is kept as np2.json.gz); an A/B writes ab/NAME.txt and modeltuned
# ab's --out folder ab/NAME/ beside it.
# declining: the component loaded without a table; aa: both jobs without modeltuned (the noise).
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../../.." || exit 1
export OMPI_MCA_mca_base_component_path=$PWD/build/mca-components:$(ompi_info --path pkglibdir --parsable | cut -d: -f3)
if [ "$1" = calibrate ]; then
  mpirun --allow-run-as-root -np 2 --bind-to core build/calib/modeltuned-calibrate -o "$here/np2.json"
  exit
fi
name=$1 rounds=$2 op=${3:-all}
mkdir -p "$here/ab"
table=(--table "$here/np2.json")
case "${4:-}" in
declining) table=(--modeltuned-env OMPI_MCA_coll_modeltuned_calibration_file=/nonexistent/table.json) ;;
aa) table=(--no-preflight --modeltuned-env OMPI_MCA_coll=^modeltuned) ;;
esac
s=$(date +%s)
build/tools/modeltuned ab --rounds "$rounds" --warmup 1 --quiet "${table[@]}" --out "$here/ab/$name" -- \
  mpirun --allow-run-as-root -np 2 --bind-to core build/tools/latency/modeltuned-latency --op "$op" > "$here/ab/$name.txt" 2>&1
echo "$name rc=$? $(( $(date +%s)-s )) s"
