#!/bin/sh
# A/B across emulated nodes on the 2-core VM: Open MPI's default against modeltuned.
export OMPI_MCA_mca_base_component_path=/work/main/build/mca-components:$(ompi_info --path pkglibdir --parsable | cut -d: -f3)
E=/work/main/tools/modeltuned-emulate-nodes
B=/work/main/build/tools/bench/modeltuned-bench
for cfg in "nodeA:1,nodeB:1 2" "nodeA:2,nodeB:2 4" "4x1 4"; do
  set -- $cfg
  out=ab-$(echo $1 | tr ':,' '-_')-np$2.txt
  $E $1 -- mpirun --allow-run-as-root -np $2 --bind-to core --mca coll modeltuned,tuned,libnbc,basic,self \
    --mca coll_modeltuned_calibration_file /work/ab/vm-2nodes.json \
    $B --variants default,modeltuned --steps-per-octave 1 --reps 60 --seed 5 --csv ${out%.txt}.csv > $out 2> ${out%.txt}.err
  echo "$cfg rc=$?"
done
