#!/bin/sh
# modeltuned ab end to end. (a) On a fake benchmark whose OSU-style times depend on the arm it
# runs in (the baseline is the job whose coll list names modeltuned), with a little jitter: the
# report shows the constructed ratios and marks, --fail-above sets the status, the --out files
# agree with each other, the command line's and the environment's coll lists are rewritten for the
# baseline only, a failing, hanging or inconsistent job stops the tool with status 1. (b) A real
# np 2 run of modeltuned-latency, the component found: six tables, modeltuned deciding in the
# modeltuned jobs only. (c) Usage errors: one line, status 2. Nothing here depends on the
# machine's speed but (b)'s running at all.
tool="${MODELTUNED_TOOL:-./tools/modeltuned}"
build=$(pwd)  # make check runs tests in the build directory
top=$(cd "$(dirname "$0")/.." && pwd)
mpirun="${MPIRUN:-mpirun}"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# Open MPI's session directories in here, not in the /tmp/ompi.* other jobs share.
export TMPDIR="$scratch"
failures=0 passed=0
pass() { passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
check() { if eval "$2"; then pass; else fail "$1"; fi; }  # check "what" 'shell condition'
# No user setting reaches the jobs but what a case sets.
for v in $(env | sed -n 's/^\(OMPI_MCA_coll[A-Za-z_]*\)=.*/\1/p'); do unset "$v"; done

# The fake benchmark. Sizes 1, 2 and 4K take the same time in both arms (exactly: their ratio is
# 1); 4 is 1.20x slower in modeltuned, 8 1.08x, 1K 0.80x, each with +-0.2% jitter per job, so
# that their intervals are narrow but not empty. FAKE_FAIL, FAKE_SLEEP, FAKE_SIZES, FAKE_STOP_AFTER
# (N rows, then exit status 139, as a crash; set for one
# arm through --modeltuned-env) make it fail, hang or print other sizes; with
# OMPI_MCA_coll_fake_priority set (--component-arm fake) it is a component's job, 0.50x the
# baseline at size 4 and 2.00x at 1K, crashing after FAKE_COMPONENT_STOP_AFTER rows if set; FAKE_SPLICE puts a rank's
# diagnostic line in front of the first row, the way Open MPI 5.0's mpirun can.
fake="$scratch/fake-bench"
cat > "$fake" <<'EOF'
#!/bin/sh
case "${OMPI_MCA_coll:-} $*" in *modeltuned*) arm=baseline ;; *) arm=modeltuned ;; esac
[ -n "${OMPI_MCA_coll_fake_priority:-}" ] && arm=component
echo "# args: $*"
echo "# env coll: ${OMPI_MCA_coll-unset}"
echo "# OSU MPI Broadcast Latency Test v7.3"
echo "# Size       Avg Latency(us)"
[ -n "${FAKE_FAIL:-}" ] && { echo "fake: failing on purpose"; exit 3; }
[ -n "${FAKE_SLEEP:-}" ] && sleep "$FAKE_SLEEP"
sizes="1 2 4 8 1024 4096"
[ -n "${FAKE_SIZES:-}" ] && sizes=$FAKE_SIZES
awk -v arm="$arm" -v seed="$$" -v sizes="$sizes" 'BEGIN {
  srand(seed); n = split(sizes, size, " "); split("1.00 1.00 1.20 1.08 0.80 1.00", factor, " ")
  split("1.00 1.00 0.50 1.00 2.00 1.00", component, " ")
  for (i = 1; i <= n; i++) {
    if (ENVIRON["FAKE_STOP_AFTER"] != "" && i > ENVIRON["FAKE_STOP_AFTER"] + 0) exit 139
    if (arm == "component" && ENVIRON["FAKE_COMPONENT_STOP_AFTER"] != "" && i > ENVIRON["FAKE_COMPONENT_STOP_AFTER"] + 0) exit 139
    t = 10 * i
    if (arm == "modeltuned") t *= factor[i]
    if (arm == "component") t *= component[i]
    if (factor[i] != 1.00 || component[i] != 1.00) t *= 1 + (rand() - 0.5) * 0.004
    if (i == 1 && ENVIRON["FAKE_SPLICE"] != "") printf "[vm:12017] coll:modeltuned:decide cid=0 ompi=5."
    printf "%-10d%18.4f\n", size[i], t
  } }'
EOF
chmod +x "$fake"

# The report row of a size: "size baseline modeltuned ratio [low, high] mark".
row() { grep -E "^ +$2 +[0-9]" "$1" | head -n 1; }
ratio_of() { row "$1" "$2" | awk '{ print $4 }'; }
within() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'; }

# (a) The constructed ratios.
a="$scratch/a"
"$tool" ab --rounds 4 --warmup 1 --no-preflight --out "$a" --plot -- "$fake" > "$a.report" 2> "$a.err"
status=$?
check "ab on the fake benchmark: status $status, wanted 0 ($(head -n 3 "$a.err"))" '[ "$status" -eq 0 ]'
check "size 4's ratio $(ratio_of "$a.report" 4), wanted 1.20" 'within "$(ratio_of "$a.report" 4)" 1.19 1.21'
check "size 8's ratio $(ratio_of "$a.report" 8), wanted 1.08" 'within "$(ratio_of "$a.report" 8)" 1.075 1.085'
check "size 1K's ratio $(ratio_of "$a.report" 1K), wanted 0.80" 'within "$(ratio_of "$a.report" 1K)" 0.79 0.81'
for s in 1 2 4K; do
  check "size $s: '$(row "$a.report" "$s")', wanted ratio 1.000 [1.000, 1.000] without a mark" \
    '[ "$(row "$a.report" "$s" | awk "{ print \$4, \$5, \$6, \$7 }")" = "1.000 [1.000, 1.000] " ]'
done
check "size 4 marked '$(row "$a.report" 4)', wanted slower >1.10" 'row "$a.report" 4 | grep -q "slower >1.10$"'
check "size 8 marked '$(row "$a.report" 8)', wanted slower >1.05" 'row "$a.report" 8 | grep -q "slower >1.05$"'
check "size 1K marked '$(row "$a.report" 1K)', wanted faster <0.909" 'row "$a.report" 1K | grep -q "faster <0.909$"'
check "threshold lines of the report" 'grep -q "significantly slower than 1.05: 4, 8; faster than 0.952: 1K$" "$a.report" &&
  grep -q "significantly slower than 1.10: 4; faster than 0.909: 1K$" "$a.report"'
check "the table's title and column" 'grep -q "^OSU MPI Broadcast Latency Test v7.3$" "$a.report" &&
  grep -q "^  time column 2, geometric mean over 6 sizes: 1.0" "$a.report"'
check "one progress line per job on stderr: $(grep -c 'modeltuned ab: ' "$a.err") of 10" \
  '[ "$(grep -c "^modeltuned ab: \(round [1-4]/4\|warm-up 1/1\) \(baseline\|modeltuned\): " "$a.err")" -eq 10 ]'
# --out: a file per job, the arms' environments as intended, the CSVs consistent with each other.
for r in 01 02 03 04; do for arm in baseline modeltuned; do
  check "$a/round-$r-$arm.txt is missing" '[ -s "$a/round-$r-$arm.txt" ]'
done; done
check "warm-up outputs" '[ -s "$a/warmup-01-baseline.txt" ] && [ -s "$a/warmup-01-modeltuned.txt" ]'
check "the baseline ran with OMPI_MCA_coll=^modeltuned" 'grep -q "^# env coll: ^modeltuned$" "$a/round-02-baseline.txt"'
check "the modeltuned job ran unchanged" 'grep -q "^# env coll: unset$" "$a/round-02-modeltuned.txt"'
check "runs.csv: the header, 10 jobs, the order alternating by round" \
  '[ "$(head -n 1 "$a/runs.csv")" = "round,arm,order,wall_s,status" ] && [ "$(wc -l < "$a/runs.csv")" -eq 11 ] &&
   grep -q "^1,baseline,1,[0-9.]*,\"0\"$" "$a/runs.csv" && grep -q "^2,modeltuned,1," "$a/runs.csv" &&
   grep -q "^3,baseline,1," "$a/runs.csv" && grep -q "^w1,baseline,1," "$a/runs.csv"'
# --plot: the figure's script and data beside it (the image where gnuplot is installed).
check "--plot: table-1.gp, and table-1.dat with a row per size" \
  '[ -s "$a/table-1.gp" ] && [ "$(grep -c "^[0-9]" "$a/table-1.dat")" -eq 6 ] &&
   { ! command -v gnuplot > /dev/null || [ -s "$a/table-1.png" ]; }'
check "sizes.csv: 4 rounds x 2 arms x 6 sizes" '[ "$(wc -l < "$a/sizes.csv")" -eq 49 ]'
# summary.csv's ratio of size 4 is the geometric mean of sizes.csv's per-round ratios.
from_sizes=$(awk -F, '$4 == 4 { v[$1, $2] = $5; rounds[$1] = 1 }
  END { for (r in rounds) { s += log(v[r, "modeltuned"] / v[r, "baseline"]); n++ } printf "%.6f", exp(s / n) }' "$a/sizes.csv")
from_summary=$(awk -F, '$1 == 1 && $2 == 4 { print $5 }' "$a/summary.csv")
check "summary.csv's ratio for size 4 ($from_summary) against sizes.csv's ($from_sizes)" \
  'within "$from_summary" "$(echo "$from_sizes" | awk "{ print \$1 - 1e-5 }")" "$(echo "$from_sizes" | awk "{ print \$1 + 1e-5 }")"'
check "summary.csv: wall, the table's row and 6 sizes, each over 4 rounds" \
  '[ "$(head -n 1 "$a/summary.csv")" = "table,size,baseline,modeltuned,ratio,low,high,rounds" ] &&
   grep -q "^wall,," "$a/summary.csv" && grep -q "^1,all,,," "$a/summary.csv" &&
   [ "$(grep -c "^1,[0-9]*,.*,4$" "$a/summary.csv")" -eq 6 ]'

# --fail-above: status 1 when a size is significantly slower than X, 0 when none is.
"$tool" ab --rounds 3 --warmup 0 --no-preflight --quiet --fail-above 1.10 -- "$fake" > "$scratch/fail.report" 2>&1
status=$?
check "--fail-above 1.10: status $status, wanted 1 and the report" '[ "$status" -eq 1 ] && grep -q "slower >1.10" "$scratch/fail.report"'
"$tool" ab --rounds 3 --warmup 0 --no-preflight --quiet --fail-above 1.5 -- "$fake" > /dev/null 2>&1
status=$?
check "--fail-above 1.5: status $status, wanted 0" '[ "$status" -eq 0 ]'

# The command line's coll list is rewritten for the baseline (and the environment left alone).
b="$scratch/b"
"$tool" ab --rounds 2 --warmup 0 --no-preflight --quiet --out "$b" -- "$fake" --mca coll ^inter > "$b.report" 2>&1
status=$?
check "--mca coll ^inter: status $status" '[ "$status" -eq 0 ]'
check "the baseline got --mca coll ^inter,modeltuned" 'grep -q "^# args: --mca coll ^inter,modeltuned$" "$b/round-01-baseline.txt" &&
  grep -q "^# env coll: unset$" "$b/round-01-baseline.txt"'
check "the modeltuned job got --mca coll ^inter" 'grep -q "^# args: --mca coll ^inter$" "$b/round-01-modeltuned.txt"'
check "the report says what the baseline changed" 'grep -q "^  baseline:   --mca coll ^inter,modeltuned$" "$b.report"'
check "with the command line's list, size 4's ratio is still 1.20" 'within "$(ratio_of "$b.report" 4)" 1.19 1.21'
# ...and the environment's.
OMPI_MCA_coll=^han "$tool" ab --rounds 2 --warmup 0 --no-preflight --quiet --out "$b" -- "$fake" > /dev/null 2>&1
check "OMPI_MCA_coll=^han: the baseline got ^han,modeltuned, the modeltuned job ^han" \
  'grep -q "^# env coll: ^han,modeltuned$" "$b/round-02-baseline.txt" && grep -q "^# env coll: ^han$" "$b/round-02-modeltuned.txt"'

# A job that fails, hangs, or prints other tables stops the tool: one line, the output's end, status 1.
"$tool" ab --rounds 2 --warmup 0 --no-preflight --quiet --modeltuned-env FAKE_FAIL=1 -- "$fake" > /dev/null 2> "$scratch/failed"
status=$?
check "a failing job: status $status, wanted 1; said: $(head -n 1 "$scratch/failed")" '[ "$status" -eq 1 ] &&
  head -n 1 "$scratch/failed" | grep -q "^modeltuned ab: round 1/2 modeltuned: exit status 3; the last lines of its output" &&
  tail -n 1 "$scratch/failed" | grep -q "^fake: failing on purpose$"'
began=$(date +%s)
"$tool" ab --rounds 2 --warmup 0 --no-preflight --quiet --timeout 1 --modeltuned-env FAKE_SLEEP=60 -- "$fake" > /dev/null 2> "$scratch/hung"
status=$? took=$(($(date +%s) - began))
check "a hanging job: status $status after $took s, wanted 1 within 30 s; said: $(head -n 1 "$scratch/hung")" \
  '[ "$status" -eq 1 ] && [ "$took" -lt 30 ] && head -n 1 "$scratch/hung" | grep -q "round 1/2 modeltuned: timed out after 1 s"'
"$tool" ab --rounds 2 --warmup 0 --no-preflight --quiet --modeltuned-env "FAKE_SIZES=1 2 4" -- "$fake" > /dev/null 2> "$scratch/differ"
status=$?
check "different size lists: status $status, wanted 1; said: $(cat "$scratch/differ")" '[ "$status" -eq 1 ] &&
  grep -q "table 1 (OSU MPI Broadcast Latency Test v7.3) differs between the jobs: round 1/2 baseline lists 6 sizes, 1 to 4K, round 1/2 modeltuned 3 sizes, 1 to 4" "$scratch/differ"'
"$tool" ab --rounds 2 --warmup 0 --no-preflight --quiet --modeltuned-env "FAKE_SPLICE=1" -- "$fake" > /dev/null 2> "$scratch/spliced"
status=$?
check "a row spliced with stderr: status $status, wanted 1, naming the cause; said: $(cat "$scratch/spliced")" '[ "$status" -eq 1 ] &&
  grep -q "round 1/2 modeltuned 5 sizes, 2 to 4K; a job.s stdout holds diagnostic output, which can break a row (Open MPI 5.0.s mpirun splices ranks. stderr into stdout): keep verbose output off in measured jobs (coll_modeltuned_decision_file records decisions). The line: \[vm:12017\] coll:modeltuned:decide cid=0 ompi=5.1 " "$scratch/spliced"'

# A baseline that crashes part way: scored where every baseline job completed, with --baseline-may-fail.
c="$scratch/c"
"$tool" ab --rounds 2 --warmup 0 --no-preflight --quiet --baseline-may-fail --baseline-env FAKE_STOP_AFTER=3 \
  --out "$c" -- "$fake" > "$scratch/completed" 2>&1
status=$?
check "a baseline crashing after 3 sizes, --baseline-may-fail: status $status, wanted 0, sizes 1 to 4 scored: $(cat "$scratch/completed")" \
  '[ "$status" -eq 0 ] && grep -q "^  scored:     OSU MPI Broadcast Latency Test v7.3: scored up to 4, where every baseline job completed it (exit status 139 in 2 of 2 rounds)$" "$scratch/completed" &&
  [ -n "$(row "$scratch/completed" 4)" ] && [ -z "$(row "$scratch/completed" 8)" ] && grep -q "geometric mean over 3 sizes" "$scratch/completed"'
"$tool" ab --rounds 2 --warmup 0 --no-preflight --quiet --baseline-env FAKE_STOP_AFTER=3 -- "$fake" > /dev/null 2>&1
status=$?
check "the same crash without --baseline-may-fail: status $status, wanted 1" '[ "$status" -eq 1 ]'
"$tool" ab --rounds 2 --warmup 0 --no-preflight --quiet --baseline-may-fail --modeltuned-env FAKE_STOP_AFTER=3 -- "$fake" > /dev/null 2>&1
status=$?
check "the modeltuned job crashing, --baseline-may-fail: status $status, wanted 1" '[ "$status" -eq 1 ]'

# --component-arm: a third job per round from the same rounds, its comparisons under --out.
d="$scratch/d"
"$tool" ab --rounds 3 --warmup 1 --no-preflight --quiet --component-arm fake --out "$d" -- "$fake" > "$d.report" 2>&1
status=$?
check "--component-arm fake: status $status, wanted 0 ($(head -n 3 "$d.report"))" '[ "$status" -eq 0 ]'
check "--component-arm: the main report's size 4 still 1.20" 'within "$(ratio_of "$d.report" 4)" 1.19 1.21'
check "--component-arm: against-fake's size 4 is 1.20 / 0.50, its 1K 0.80 / 2.00" \
  'within "$(ratio_of "$d/against-fake/report.txt" 4)" 2.38 2.42 && within "$(ratio_of "$d/against-fake/report.txt" 1K)" 0.39 0.41'
check "--component-arm: fake-alone's size 4 is 1 / 0.50, its 1K 1 / 2.00" \
  'within "$(ratio_of "$d/fake-alone/report.txt" 4)" 1.98 2.02 && within "$(ratio_of "$d/fake-alone/report.txt" 1K)" 0.49 0.51'
check "--component-arm: the component's job ran with coll_fake_priority 90 and the baseline's list" \
  'grep -q "^# env coll: ^modeltuned$" "$d/round-01-fake.txt" && [ -s "$d/fake-alone/summary.csv" ] && [ -s "$d/against-fake/sizes.csv" ]'
check "--component-arm: runs.csv holds 12 jobs, each round starting one job later" \
  '[ "$(wc -l < "$d/runs.csv")" -eq 13 ] && grep -q "^1,baseline,1," "$d/runs.csv" && grep -q "^2,modeltuned,1," "$d/runs.csv" &&
   grep -q "^3,fake,1," "$d/runs.csv" && grep -q "^3,baseline,2," "$d/runs.csv"'
"$tool" ab --rounds 2 --warmup 0 --no-preflight --quiet --component-arm fake --baseline-env FAKE_COMPONENT_STOP_AFTER=3 \
  --out "$d" -- "$fake" > "$d.report" 2>&1
status=$?
check "--component-arm whose jobs crash after 3 sizes: status $status, wanted 0, scored up to 4 in its comparisons only" \
  '[ "$status" -eq 0 ] && [ -n "$(row "$d.report" 8)" ] && [ -z "$(row "$d/against-fake/report.txt" 8)" ] &&
   grep -q "scored up to 4" "$d/fake-alone/report.txt"'

# (b) A real run: modeltuned-latency at np 2, the build tree's component on the path, deciding in
# the modeltuned jobs and absent from the baseline's: both set a decision file per process, so a
# baseline without files shows that the exclusion reached the ranks. Decision files, not verbose
# lines: Open MPI 5.0's mpirun can splice a rank's stderr into its stdout mid-line, and a spliced
# row would leave a table one size short.
real="$scratch/real"
decisions="$scratch/decisions-%p.jsonl"
mca_dir=$(sed -n 's/^OMPI_MCA_DIR = //p' "$build/Makefile")
root_flag=""
[ "$(id -u)" = 0 ] && root_flag="--allow-run-as-root"
# Sanitizer builds: no leak checking inside MPI ranks (tests/sanitizers/README.md); the tool's own
# runs above keep it.
mpi_asan=${ASAN_OPTIONS:-}
[ -n "$mpi_asan" ] && mpi_asan="$mpi_asan:detect_leaks=0"
# ompi_info is not instrumented, so under the sanitizers it cannot load the instrumented component
# and the preflight cannot find it; the decide lines below still show where it ran.
preflight=""
[ -n "${ASAN_OPTIONS:-}" ] && preflight="--no-preflight"
# The shipped VM table knows the cache channel only (its two cores share one L3): the jobs run on
# such an emulated node, whatever this machine's caches are.
node_xml="$scratch/node.xml"
# 4.1's ORTE reads the file as hwloc_base_topo_file; 5.0's PRRTE as its hwloc_use_topo_file.
if "$mpirun" --version 2>&1 | grep -q "(Open MPI) 4\."; then
  topology_flags="--mca hwloc_base_topo_file $node_xml --mca rtc ^hwloc"
else
  topology_flags="--prtemca hwloc_use_topo_file $node_xml --prtemca rtc ^hwloc"
fi
if [ ! -f "$build/mca-components/mca_coll_modeltuned.so" ]; then
  fail "the component was not built ($build/mca-components/mca_coll_modeltuned.so)"
elif ! lstopo-no-graphics --input 'pack:1 numa:1 l3:1 core:2 pu:1' --of xml > "$node_xml"; then
  fail "lstopo could not write the emulated node's topology"
else
  HOME="$scratch" XDG_CONFIG_HOME="$scratch" ASAN_OPTIONS="$mpi_asan" "$tool" ab $preflight --rounds 2 --warmup 0 \
    --timeout 120 --out "$real" \
    --table "$top/calib/tables/cpp-vm-2core.json" --modeltuned-env "OMPI_MCA_coll_modeltuned_decision_file=$decisions" \
    --baseline-env "OMPI_MCA_coll_modeltuned_decision_file=$decisions" -- \
    "$mpirun" $root_flag --oversubscribe -np 2 --mca mca_base_component_path "$build/mca-components:$mca_dir" \
    $topology_flags \
    --mca coll_modeltuned_oversubscribed 1 "$build/tools/latency/modeltuned-latency" --max-size 64 --iterations 20 \
    --warmup 2 > "$real.report" 2> "$real.err"
  status=$?
  check "the real run: status $status, wanted 0; stderr: $(tail -n 25 "$real.err")" '[ "$status" -eq 0 ]'
  check "the real run reports six tables: $(grep -c '^  time column 2, ' "$real.report")" \
    'grep -q "^modeltuned-latency: MPI_Bcast on 2 ranks (MPI_BYTE), average of 20 iterations$" "$real.report" &&
     grep -q "^modeltuned-latency: MPI_Reduce on 2 ranks (MPI_INT, MPI_SUM)" "$real.report" &&
     grep -q "^modeltuned-latency: MPI_Allreduce on 2 ranks (MPI_INT, MPI_SUM)" "$real.report" &&
     grep -q "^modeltuned-latency: MPI_Barrier on 2 ranks (no data)" "$real.report" &&
     grep -q "^modeltuned-latency: MPI_Allgather on 2 ranks (MPI_BYTE, size per rank)" "$real.report" &&
     grep -q "^modeltuned-latency: MPI_Alltoall on 2 ranks (MPI_BYTE, size per peer)" "$real.report" &&
     [ "$(grep -c "^  time column 2, geometric mean over" "$real.report")" -eq 6 ]'
  if [ -z "$preflight" ]; then
    check "the preflight found the component (no warning): $(grep warning "$real.err")" '! grep -q "warning" "$real.err"'
  fi
  # Two modeltuned jobs of two ranks, each rank deciding on MPI_COMM_WORLD; none in the baselines.
  deciding=$(grep -l '"comm":"MPI_COMM_WORLD"' "$scratch"/decisions-*.jsonl 2>/dev/null | wc -l)
  check "modeltuned decided in both modeltuned jobs and in neither baseline: $deciding processes, wanted 4" \
    '[ "$deciding" -eq 4 ] && [ "$(ls "$scratch"/decisions-*.jsonl | wc -l)" -eq 4 ]'
fi

# modeltuned-latency's bad argument: one line from rank 0, status 2 from every rank, no hang.
if [ -x "$build/tools/latency/modeltuned-latency" ]; then
  ASAN_OPTIONS="$mpi_asan" timeout 60 "$mpirun" $root_flag --oversubscribe -np 2 "$build/tools/latency/modeltuned-latency" --op scan \
    > "$scratch/latency.out" 2> "$scratch/latency.err"
  status=$?
  check "modeltuned-latency --op scan: status $status (124: it hung), wanted 2; said: $(cat "$scratch/latency.err")" \
    '[ "$status" -eq 2 ] && [ "$(grep -c "^modeltuned-latency: " "$scratch/latency.err")" -eq 1 ] &&
     grep -q "^modeltuned-latency: --op: .scan. is not bcast, reduce, allreduce, barrier, allgather, alltoall or all (see modeltuned-latency --help)$" "$scratch/latency.err"'
else
  fail "modeltuned-latency was not built"
fi

# (c) Usage errors: one line naming what is wrong, status 2, no job run.
usage_env=""     # NAME=VALUE words for the tool's environment
expect_usage() {  # expect_usage "what the line must contain" args...
  want=$1; shift
  out=$(env $usage_env "$tool" "$@" 2>&1); status=$?
  lines=$(printf '%s\n' "$out" | grep -c .)
  if [ "$status" -eq 2 ] && [ "$lines" -eq 1 ] && printf '%s' "$out" | grep -q -- "$want"; then pass; else
    fail "modeltuned $*: status $status, $lines lines, wanted one line with '$want':"; echo "$out"; fi
}
expect_usage "give the command to compare after --" ab
expect_usage "--baseline-mca: 'coll sm' is not an MCA parameter name" ab --baseline-mca "coll sm" 90 -- true
expect_usage "--component-arm needs --out DIR, where each component's comparisons are written" ab --component-arm sm -- true
expect_usage "--component-arm Sm: a collective component's name (sm, adapt, xhc, acoll, ...)" ab --component-arm Sm --out x -- true
expect_usage "--modeltuned-mca needs a value" ab --modeltuned-mca coll_sm_priority
expect_usage "give the command to compare after --" ab --rounds 3 --
expect_usage "give the command to compare after --" ab mpirun -np 2 ./bench
expect_usage "--rounds: '1' is not a whole number >= 2" ab --rounds 1 -- touch "$scratch/ran"
expect_usage "--mca coll tuned,basic (in the command) is an include list without modeltuned" \
  ab --no-preflight -- touch "$scratch/ran" --mca coll tuned,basic
usage_env=OMPI_MCA_coll=self,tuned
expect_usage "OMPI_MCA_coll=self,tuned (in the environment) is an include list without modeltuned" \
  ab --no-preflight -- touch "$scratch/ran"
usage_env=""
expect_usage "excludes modeltuned" ab --no-preflight -- touch "$scratch/ran" -mca coll ^modeltuned
expect_usage "--modeltuned-env: 'X' is not NAME=VALUE" ab --modeltuned-env X -- touch "$scratch/ran"
expect_usage "--table: File does not exist" ab --table "$scratch/none.json" -- touch "$scratch/ran"
expect_usage "--plot needs --out" ab --plot -- touch "$scratch/ran"
expect_usage "--bogus" ab --bogus -- touch "$scratch/ran"
check "a usage error ran the command" '[ ! -e "$scratch/ran" ]'
out=$("$tool" ab --help); status=$?
check "modeltuned ab --help: status $status" '[ "$status" -eq 0 ] && printf "%s" "$out" | grep -q -- "--fail-above"'

echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
