#!/bin/sh
# Which calibration table a job reads, as ompi_info shows it (coll_modeltuned_table): the
# coll_modeltuned_calibration_file parameter, else the user's $XDG_CONFIG_HOME (or ~/.config)
# table, else the system's; empty when there is none.
build=$(pwd)
mca_dir=$(sed -n 's/^OMPI_MCA_DIR = //p' "$build/Makefile")
ompi_info="$(dirname "${MPIRUN:-mpirun}")/ompi_info"
# ompi_info is not instrumented: under the sanitizers it cannot load the instrumented component.
[ -n "${ASAN_OPTIONS:-}" ] && { echo "SKIP: ompi_info cannot load a sanitizer build's component"; exit 77; }
[ -x "$ompi_info" ] || { echo "FAIL: no ompi_info beside $MPIRUN"; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0 passed=0
check() { if eval "$2"; then passed=$((passed + 1)); else echo "FAIL: $1"; failures=$((failures + 1)); fi; }

in_use() {  # the value ompi_info gives coll_modeltuned_table, with the environment given
  env "$@" OMPI_MCA_mca_base_component_path="$build/mca-components:$mca_dir" \
    "$ompi_info" --param coll modeltuned --level 9 --parsable 2>&1 |
    sed -n 's/^mca:coll:modeltuned:param:coll_modeltuned_table:value://p'
}

mkdir -p "$scratch/home" "$scratch/config/modeltuned"
printf '{}\n' > "$scratch/config/modeltuned/calibration.json"

# No parameter and no user table: the system's, where one is installed, or none.
none=$(in_use HOME="$scratch/home" XDG_CONFIG_HOME= OMPI_MCA_coll_modeltuned_calibration_file=)
check "without a table ompi_info names '$none', wanted nothing or an installed system table" \
  '[ -z "$none" ] || { [ -f "$none" ] && case "$none" in */modeltuned/calibration.json) true ;; *) false ;; esac; }'
# The user's table.
user=$(in_use HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/config" OMPI_MCA_coll_modeltuned_calibration_file=)
check "with \$XDG_CONFIG_HOME's table ompi_info names '$user'" \
  '[ "$user" = "$scratch/config/modeltuned/calibration.json" ]'
# ~/.config when XDG_CONFIG_HOME is not set.
mkdir -p "$scratch/home/.config" && cp -r "$scratch/config/modeltuned" "$scratch/home/.config/"
home=$(in_use HOME="$scratch/home" XDG_CONFIG_HOME= OMPI_MCA_coll_modeltuned_calibration_file=)
check "with ~/.config's table ompi_info names '$home'" \
  '[ "$home" = "$scratch/home/.config/modeltuned/calibration.json" ]'
# The parameter wins over both.
given=$(in_use HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/config" OMPI_MCA_coll_modeltuned_calibration_file=/elsewhere/t.json)
check "with the parameter set ompi_info names '$given'" '[ "$given" = /elsewhere/t.json ]'

echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
