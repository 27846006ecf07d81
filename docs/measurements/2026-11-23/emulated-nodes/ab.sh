#!/bin/sh
# A/B across emulated nodes on the 2-core VM: Open MPI's default against modeltuned, with the
# merged table beside this script (vm-2nodes.json). Run from anywhere after scripts/build; the
# outputs (ab-*.txt, .csv, .err) are written beside this script.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../.." && pwd)
export OMPI_MCA_mca_base_component_path=$top/build/mca-components:$(ompi_info --path pkglibdir --parsable | cut -d: -f3)
E=$top/tools/modeltuned-emulate-nodes
B=$top/build/tools/bench/modeltuned-bench
for cfg in "nodeA:1,nodeB:1 2" "nodeA:2,nodeB:2 4" "4x1 4"; do
  set -- $cfg
  out=$here/ab-$(echo $1 | tr ':,' '-_')-np$2.txt
  $E $1 -- mpirun --allow-run-as-root -np $2 --bind-to core --mca coll modeltuned,tuned,libnbc,basic,self \
    --mca coll_modeltuned_calibration_file "$here/vm-2nodes.json" \
    $B --variants default,modeltuned --steps-per-octave 1 --reps 60 --seed 5 --csv ${out%.txt}.csv > $out 2> ${out%.txt}.err
  echo "$cfg rc=$?"
done
