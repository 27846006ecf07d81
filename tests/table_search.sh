#!/bin/sh
# Which calibration table a job reads: the coll_modeltuned_calibration_file parameter, else the
# user's $XDG_CONFIG_HOME (or ~/.config) table, else the system's; none when there is none. Each
# case is seen twice: as ompi_info shows it (coll_modeltuned_table) and as a job loads it (its
# verbose open line).
build=$(pwd)
top="$(dirname "$0")/.."
mca_dir=$(sed -n 's/^OMPI_MCA_DIR = //p' "$build/Makefile")
mpirun=${MPIRUN:-mpirun}
ompi_info="$(dirname "$mpirun")/ompi_info"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0 passed=0
check() { if eval "$2"; then passed=$((passed + 1)); else echo "FAIL: $1"; failures=$((failures + 1)); fi; }
# ompi_info is not instrumented: under the sanitizers it cannot load the instrumented component,
# and only the jobs are asked.
asked_ompi_info=1
[ -n "${ASAN_OPTIONS:-}" ] && asked_ompi_info=0
[ $asked_ompi_info = 0 ] || [ -x "$ompi_info" ] || { echo "FAIL: no ompi_info beside $mpirun"; exit 1; }
root_flag=""
[ "$(id -u)" = 0 ] && root_flag="--allow-run-as-root"
mpi_asan=${ASAN_OPTIONS:-}
[ -n "$mpi_asan" ] && mpi_asan="$mpi_asan:detect_leaks=0"

in_use() {  # the value ompi_info gives coll_modeltuned_table, with the environment given
  env "$@" OMPI_MCA_mca_base_component_path="$build/mca-components:$mca_dir" \
    "$ompi_info" --param coll modeltuned --level 9 --parsable 2>&1 |
    sed -n 's/^mca:coll:modeltuned:param:coll_modeltuned_table:value://p'
}
loaded() {  # what a one-rank job's open says about its table, with the environment given
  env "$@" TMPDIR="$scratch" ASAN_OPTIONS="$mpi_asan" "$mpirun" $root_flag -np 1 \
    --mca mca_base_component_path "$build/mca-components:$mca_dir" --mca coll_modeltuned_verbose 10 \
    "$build/tools/latency/modeltuned-latency" --max-size 1 --iterations 1 --warmup 0 2>&1 |
    sed -n "s/.*coll:modeltuned:open: calibration table '\([^']*\)'.*/\1/p; s/.*coll:modeltuned:open: no calibration table.*/none/p"
}
expect() {  # expect WANTED ENV...: ompi_info names WANTED ("" for none), and the job loads it
  wanted=$1; shift
  if [ $asked_ompi_info = 1 ]; then
    got=$(in_use "$@")
    check "with $*: ompi_info names '$got', wanted '$wanted'" '[ "$got" = "$wanted" ]'
  fi
  got=$(loaded "$@")
  check "with $*: the job loaded '$got', wanted '${wanted:-none}'" '[ "$got" = "${wanted:-none}" ]'
}

mkdir -p "$scratch/home" "$scratch/config/modeltuned" "$scratch/home/.config/modeltuned"
cp "$top/calib/tables/cpp-vm-2core.json" "$scratch/config/modeltuned/calibration.json"
cp "$top/calib/tables/cpp-vm-2core.json" "$scratch/home/.config/modeltuned/calibration.json"
cp "$top/calib/tables/cpp-vm-2core.json" "$scratch/given.json"

# The user's table, from $XDG_CONFIG_HOME, else ~/.config.
expect "$scratch/config/modeltuned/calibration.json" HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/config"
expect "$scratch/home/.config/modeltuned/calibration.json" HOME="$scratch/home" XDG_CONFIG_HOME=
# The parameter wins over it.
expect "$scratch/given.json" HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/config" \
  OMPI_MCA_coll_modeltuned_calibration_file="$scratch/given.json"
# No parameter and no user table: the system's, where one is installed, else none.
rm -r "$scratch/home/.config"
system=$(sed -n 's/^sysconfdir = //p' "$build/Makefile")
prefix=$(sed -n 's/^prefix = //p' "$build/Makefile")
system_table=$(echo "$system" | sed "s|\${prefix}|$prefix|")/modeltuned/calibration.json
[ -f "$system_table" ] || system_table=""
expect "$system_table" HOME="$scratch/home" XDG_CONFIG_HOME=

echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
