# Shared by the commands in results/: where the tree and the build are, how jobs are started, and
# the header that names the command, commit, date and machine of every result written.
# A command sources this, sets `usage` and calls parse_common "$@"; its own options come back in
# `rest`.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${MODELTUNED_BUILD_DIR:-$top/build}
machine="$(nproc)-core"
out=""
smoke=0
dry_run=0
rest=()
invocation="results/$(basename "$0")"

die() {
  echo "$(basename "$0"): $*" >&2
  exit 2
}

# The options every command takes; anything else is left in `rest` for the command.
# The command line is recorded without this machine's folders: an --out outside the tree is "DIR".
parse_common() {
  local arg
  for arg in "$@"; do
    case "$arg" in
    "$top"/*) invocation+=" ${arg#"$top"/}" ;;
    /*) invocation+=" DIR" ;;
    *) invocation+=" $arg" ;;
    esac
  done
  while [ $# -gt 0 ]; do
    case "$1" in
    --machine) machine=${2:?--machine needs a name}; shift ;;
    --out) out=${2:?--out needs a folder}; shift ;;
    --build) build=${2:?--build needs a folder}; shift ;;
    --smoke) smoke=1 ;;
    --dry-run) dry_run=1 ;;
    -h | --help) printf '%s\n' "$usage"; exit 0 ;;
    *) rest+=("$1") ;;
    esac
    shift
  done
  case "$machine" in *[!A-Za-z0-9._-]*) die "--machine $machine: letters, digits, '.', '_' and '-' only" ;; esac
  today=$(date -u +%F)
  # The Open MPI line of the jobs (4.1 here, 5.0 or 6.0 inside scripts/ompi-env's roots): results
  # of another line than 4.1 go to a folder of their own.
  ompi_line=$(ompi_info --parsable 2>/dev/null | sed -n 's/^ompi:version:full:\([0-9]*\.[0-9]*\).*/\1/p' | head -1)
  line_suffix=""
  [ -z "$ompi_line" ] || [ "$ompi_line" = 4.1 ] || line_suffix="-ompi$ompi_line"
  [ -n "$out" ] || out="$top/results/$today-$machine$line_suffix"
  work=$(mktemp -d "${TMPDIR:-/tmp}/modeltuned-results.XXXXXX")
  trap 'rm -rf "$work"' EXIT
}

# Option values: one `name value` pair from `rest`, checked as a whole number.
need_number() {
  case "$2" in '' | *[!0-9]*) die "$1 $2: a whole number is needed" ;; esac
}

need_build() {
  local f
  for f in "$@"; do
    [ -x "$build/$f" ] || die "$build/$f is missing: build first (scripts/build), or give --build DIR"
  done
}

# Jobs run as users run them: bound to cores, with this build's component found first.
setup_mpi() {
  local np=$1 pkglib
  pkglib=$(ompi_info --path pkglibdir --parsable 2>/dev/null | cut -d: -f3)
  export OMPI_MCA_mca_base_component_path="$build/mca-components${pkglib:+:$pkglib}"
  mpirun_cmd=(mpirun -np "$np" --bind-to core)
  [ "$np" -gt "$(nproc)" ] && mpirun_cmd+=(--oversubscribe --bind-to none)
  [ "$(id -u)" = 0 ] && mpirun_cmd+=(--allow-run-as-root)
  return 0
}

commit_of() {
  local c
  c=$(git -C "$top" rev-parse --short HEAD 2>/dev/null) || c=unknown
  # Results being written are not changes to the code that wrote them.
  git -C "$top" diff --quiet HEAD -- . ':!results/[0-9]*' 2>/dev/null || c="$c with uncommitted changes"
  printf '%s' "$c"
}

# The lines every result file starts with.
header() {
  local cpu ompi
  cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
  ompi=$(ompi_info --parsable 2>/dev/null | sed -n 's/^ompi:version:full://p' | head -1)
  printf '# %s\n' "$1"
  printf '# command: %s\n' "$invocation"
  printf '# commit: %s\n' "$(commit_of)"
  printf '# date: %s\n' "$today"
  printf '# machine: %s (%s cores, %s)\n' "$machine" "$(nproc)" "${cpu:-cpu unknown}"
  printf '# open mpi: %s\n' "${ompi:-unknown}"
}

# run_step NAME command...: runs one step, its output to $work/NAME.log, and stops on failure
# with the log's end.
run_step() {
  local name=$1 start
  shift
  start=$(date +%s)
  if ! "$@" > "$work/$name.log" 2>&1; then
    echo "$(basename "$0"): step $name failed ($*); its output ends:" >&2
    tail -n 20 "$work/$name.log" >&2
    exit 1
  fi
  echo "$name: $(($(date +%s) - start)) s" >&2
}

# keep SRC DEST: a raw output into the results, without this machine's folders.
keep() {
  sed -e "s|$work/|TMP/|g" -e "s|$top/||g" "$1" > "$2"
}
