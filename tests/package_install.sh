#!/bin/sh
# Installs a modeltuned .deb where this runs, as an administrator would, and checks what a user
# then gets: ompi_info lists the component, the man pages are there, modeltuned-calibrate
# --install-system writes the system table, and a job of a user with no table and no variable set
# loads that table and decides. Then purges the package and checks that Open MPI is plain again
# and that no file is left behind. Not part of `make check` (it installs into the system):
# scripts/check --package runs it, on this machine and in the Open MPI 5.0 root. Needs root.
#
#   tests/package_install.sh DEB
deb=${1:?usage: tests/package_install.sh DEB}
failures=0 passed=0
check() { if eval "$2"; then passed=$((passed + 1)); else echo "FAIL: $1"; failures=$((failures + 1)); fi; }
[ "$(id -u)" = 0 ] || { echo "FAIL: installing a package needs root"; exit 1; }
if dpkg-query -W -f='${Status}' modeltuned 2>/dev/null | grep -q installed; then
  echo "FAIL: a modeltuned package is already installed here; remove it first (dpkg --purge modeltuned)"
  exit 1
fi
[ -e /etc/modeltuned ] && { echo "FAIL: /etc/modeltuned exists already; the test would not see what it leaves"; exit 1; }
scratch=$(mktemp -d)
# Whatever happens, the package does not stay installed.
trap 'dpkg --purge modeltuned > /dev/null 2>&1; rm -rf "$scratch"' EXIT
trap 'exit 1' HUP INT TERM
mkdir -p "$scratch/home"
# What a user's job sees: no modeltuned variable, no table of their own, a home of their own.
as_user() { env -i PATH=/usr/bin:/bin HOME="$scratch/home" "$@"; }
root_flag="--allow-run-as-root"
files() { find /usr /etc -xdev 2>/dev/null | sort; }
table_in_use() {
  as_user ompi_info --param coll modeltuned --level 9 --parsable 2>/dev/null |
    sed -n 's/^mca:coll:modeltuned:param:coll_modeltuned_table:value://p'
}
# The user's application: a few collectives, built with the Open MPI that runs it.
cat > "$scratch/app.c" <<'EOF'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  char buffer[4096] = {0};
  int value = 1, sum = 0, rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int bytes = 1; bytes <= 4096; bytes *= 8) MPI_Bcast(buffer, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("app: sum %d\n", sum);
  MPI_Finalize();
  return 0;
}
EOF
mpicc -o "$scratch/app" "$scratch/app.c" || { echo "FAIL: mpicc cannot build the test's application"; exit 1; }
# Debian trixie's PMIx sets mca_base_component_path in its own pmix-mca-params.conf, and its
# mpirun hands that to every rank as OMPI_MCA_mca_base_component_path: the ranks then search
# PMIx's component directory instead of Open MPI's. The package links the component there too
# (debian/rules), so the jobs below still set nothing.
mca_dir=$(ompi_info --path pkglibdir --parsable | sed -n 's/^path:pkglibdir://p')
ranks_path=$(as_user mpirun $root_flag -np 1 printenv OMPI_MCA_mca_base_component_path 2>/dev/null)
job() {  # the user's application, verbose, in $scratch/$1.out and .err
  (cd "$scratch" && as_user mpirun $root_flag -np 2 --mca coll_modeltuned_verbose 10 ./app \
    > "$scratch/$1.out" 2> "$scratch/$1.err")
}

# The package: exactly the Open MPI it was built for.
lib=$(dpkg-query -S "$(readlink -f "$(mpicc --showme:libdirs | cut -d' ' -f1)/libmpi.so")" | cut -d: -f1)
want="$lib (= $(dpkg-query -W -f='${Version}' "$lib"))"
check "the package depends on exactly this Open MPI ($want): $(dpkg-deb -f "$deb" Depends)" \
  'dpkg-deb -f "$deb" Depends | tr "," "\n" | sed "s/^ *//" | grep -qxF "$want"'

files > "$scratch/before"
dpkg -i "$deb" > "$scratch/install.log" 2>&1
status=$?
check "dpkg -i $deb: status $status; said: $(tail -n 5 "$scratch/install.log")" '[ "$status" -eq 0 ]'
check "ompi_info lists modeltuned with no variable set" 'as_user ompi_info 2>/dev/null | grep -q "MCA coll: modeltuned"'
case ":$ranks_path:" in
  ::|*":$mca_dir:"*) ;;
  *) check "the component is in the directory mpirun gives the ranks ($ranks_path)" \
       '[ -e "${ranks_path%%:*}/mca_coll_modeltuned.so" ]' ;;
esac
for tool in modeltuned modeltuned-calibrate modeltuned-bench modeltuned-latency modeltuned-emulate-nodes; do
  check "$tool is installed with its man page" \
    'command -v $tool > /dev/null && [ -s /usr/share/man/man1/$tool.1.gz ] &&
     { ! command -v man > /dev/null || man -w $tool > /dev/null 2>&1; }'
done
if command -v man > /dev/null; then
  check "man modeltuned-calibrate shows its options" \
    'as_user env MANPAGER=cat man modeltuned-calibrate 2>/dev/null | grep -q -- "--install-system"'
fi
check "before a system table: ompi_info names none ('$(table_in_use)')" '[ -z "$(table_in_use)" ]'

# The administrator calibrates for everyone; the user has no table of their own.
(cd "$scratch" && mpirun $root_flag -np 2 --bind-to core modeltuned-calibrate --install-system \
  > "$scratch/calibrate.log" 2>&1)
status=$?
check "modeltuned-calibrate --install-system: status $status; said: $(tail -n 5 "$scratch/calibrate.log")" \
  '[ "$status" -eq 0 ] && [ -s /etc/modeltuned/calibration.json ] && [ -s "$scratch/calibration.samples.csv" ]'
check "ompi_info names the system table: '$(table_in_use)'" '[ "$(table_in_use)" = /etc/modeltuned/calibration.json ]'
job installed
status=$?
check "the user's job loads the system table and decides: status $status; said: $(grep -v "^\[" "$scratch/installed.err" | head -n 5)" \
  '[ "$status" -eq 0 ] && grep -q "coll:modeltuned:open: calibration table .\/etc\/modeltuned\/calibration.json." "$scratch/installed.err" &&
   grep -q "coll:modeltuned:decide .*MPI_COMM_WORLD" "$scratch/installed.err" &&
   grep -qx "app: sum 2" "$scratch/installed.out"'

# Removed: plain Open MPI, and nothing left behind.
dpkg --purge modeltuned > "$scratch/purge.log" 2>&1
status=$?
check "dpkg --purge modeltuned: status $status; said: $(tail -n 5 "$scratch/purge.log")" '[ "$status" -eq 0 ]'
check "ompi_info no longer lists modeltuned" '! as_user ompi_info 2>/dev/null | grep -q "MCA coll: modeltuned"'
job removed
status=$?
check "a job runs plain Open MPI again: status $status, $(grep -c "coll:modeltuned" "$scratch/removed.err") modeltuned lines" \
  '[ "$status" -eq 0 ] && ! grep -q "coll:modeltuned" "$scratch/removed.err" && grep -qx "app: sum 2" "$scratch/removed.out"'
files > "$scratch/after"
check "no file left behind: $(diff "$scratch/before" "$scratch/after" | grep "^[<>]" | head -n 5 | tr '\n' ' ')" \
  'diff -q "$scratch/before" "$scratch/after" > /dev/null'

echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
