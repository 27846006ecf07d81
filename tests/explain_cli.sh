#!/bin/sh
# modeltuned's command line (explain, export-rules, and the usage errors of every subcommand): a what-if
# answers; every bad command, flag or value gets exactly one line on stderr naming it, with exit
# status 2 (not CLI11's 105-109 and its usage hint), and --help exits 0.
tool="${MODELTUNED_TOOL:-./tools/modeltuned}"
top="$(dirname "$0")/.."
table="${MODELTUNED_TABLE:-$top/calib/tables/orfeo-epyc.json}"
failures=0 passed=0

expect_usage() {  # expect_usage "what the line must contain" args...: modeltuned args...
  want=$1; shift
  out=$("$tool" "$@" 2>&1); status=$?
  lines=$(printf '%s\n' "$out" | grep -c .)
  # A range is said in words, not as the limits of a type ("0 to 1797693134862315708145...").
  if [ "$status" -eq 2 ] && [ "$lines" -eq 1 ] && printf '%s' "$out" | grep -q -- "$want" &&
     ! printf '%s' "$out" | grep -q '[0-9]\{20\}'; then
    passed=$((passed + 1))
  else
    echo "FAIL: modeltuned $*: status $status, $lines lines, wanted one line with '$want':"; echo "$out"
    failures=$((failures + 1))
  fi
}
expect_error() { want=$1; shift; expect_usage "$want" explain "$@"; }  # modeltuned explain args...

expect_help() {  # expect_help args...: the help on stdout, status 0
  out=$("$tool" "$@" 2>/dev/null); status=$?
  if [ "$status" -eq 0 ] && printf '%s' "$out" | grep -q .; then passed=$((passed + 1)); else
    echo "FAIL: modeltuned $*: status $status, wanted 0 and text on stdout"; failures=$((failures + 1)); fi
}

expect_error "has 256 cores" --machine orfeo-epyc -np 600 --sizes 1
expect_error "known machines" --machine nowhere -np 4
expect_error "--sizes" --machine orfeo-epyc -np 4 --sizes 12Q
expect_error "--map-by" --machine orfeo-epyc -np 4 --map-by diagonal
expect_error "--map-by 'ppr:9:l3'" --machine orfeo-epyc -np 4 --map-by ppr:9:l3
expect_error "--op" --machine orfeo-epyc -np 4 --op scan
expect_error "--hosts 'a:2,b': 'b' is not NAME:SLOTS" --machine orfeo-epyc -np 2 --hosts a:2,b
expect_error "the hosts have 32 slots" --machine orfeo-epyc -np 33 --hosts 8x4
expect_error "200 slots on a node of 128 cores" --machine orfeo-epyc -np 2 --hosts a:200
expect_error "--nodes" --machine orfeo-epyc -np 2 --hosts 2x1 --nodes 2
expect_error "with --hosts, map by slot" --machine orfeo-epyc -np 2 --hosts 2x1 --map-by ppr:1:node
expect_error "--root" --machine orfeo-epyc -np 4 --root 4
expect_error "bogus" --machine orfeo-epyc -np 4 --algorithms bogus
expect_error "exactly one of" -np 4
expect_error "level 'socks'" --synthetic "node:1 socks:2" -np 4 --table "$table"
XDG_CONFIG_HOME=$(mktemp -d); export XDG_CONFIG_HOME
expect_error "--table" --synthetic "node:1 pack:2 core:2" -np 4
# ...and the user's table is found where the component finds it.
mkdir -p "$XDG_CONFIG_HOME/modeltuned" && cp "$table" "$XDG_CONFIG_HOME/modeltuned/calibration.json"
if "$tool" explain --synthetic "node:1 pack:2 core:2" -np 4 --sizes 1 >/dev/null 2>&1; then passed=$((passed + 1)); else
  echo "FAIL: explain did not find \$XDG_CONFIG_HOME/modeltuned/calibration.json"; failures=$((failures + 1)); fi
rm -rf "$XDG_CONFIG_HOME"; unset XDG_CONFIG_HOME
expect_error "not a decision record" --decisions "$0"
# Numbers are checked with a readable range, and CLI11's own errors keep to one line.
expect_error "--np: '-4' is not a whole number >= 2" --machine orfeo-epyc -np -4
expect_error "--np: 'abc'" --machine orfeo-epyc -np abc
expect_error "--np needs a value" --machine orfeo-epyc --sizes 1 -np
expect_error "--top: '-1'" --machine orfeo-epyc -np 4 --top -1
expect_error "--type-size: '0'" --machine orfeo-epyc -np 4 --type-size 0
expect_error "--nodes: '0'" --machine orfeo-epyc -np 4 --nodes 0
expect_error "--bogus" --machine orfeo-epyc -np 4 --bogus
expect_error "--synthetic" --machine orfeo-epyc --synthetic "node:1 core:2" -np 4

# The other subcommands and the tool itself.
expect_usage "give a command"
expect_usage "unknown command 'nosuch'" nosuch
expect_usage "unknown option --bogus" --bogus
data="$top/data/orfeo-epyc"
out_table=$(mktemp); rm -f "$out_table"
expect_usage "give --samples" fit -o "$out_table"
# The input is checked before the reduction flags, which it lacks too.
expect_usage "--osu-p2p /nonexistent/p2p.csv: cannot open" fit -o "$out_table" --osu-p2p /nonexistent/p2p.csv --osu-fanout "$data/nbft.csv"
expect_usage "--reduce-us-per-byte is needed" fit -o "$out_table" --osu-p2p "$data/p2p.csv" --osu-fanout "$data/nbft.csv"
expect_usage "--reduce-us-per-byte: '-1' is not a number >= 0" fit -o "$out_table" --osu-p2p "$data/p2p.csv" --osu-fanout "$data/nbft.csv" --reduce-us-per-byte -1
expect_usage "--output is required" fit --samples "$0"
expect_usage "--data is required" validate --out "$out_table"
expect_usage "--reduce-us-per-byte: 'lots'" validate --data "$data" --out "$out_table" --reduce-us-per-byte lots
if [ -e "$out_table" ]; then echo "FAIL: a failed fit wrote $out_table"; failures=$((failures + 1)); rm -rf "$out_table"; fi
for command in "" explain fit validate; do expect_help $command --help; done
expect_help --version

# A what-if answers: JSON with a pick for each size, and the pick is the fastest candidate.
json=$("$tool" explain --machine orfeo-epyc --map-by node -np 64 --op reduce --sizes 8,1M --json) || {
  echo "FAIL: explain --json exited $?"; failures=$((failures + 1)); }
picks=$(printf '%s' "$json" | grep -c '"pick": {')
if [ "$picks" -eq 2 ]; then passed=$((passed + 1)); else echo "FAIL: expected 2 picks, got $picks"; failures=$((failures + 1)); fi

# --op allreduce lists every one of tuned's allreduce algorithms on a 256-rank ORFEO placement (1 MiB
# of ints: the segmented ring runs as itself); the table has no allreduce checks, so the op is left
# to Open MPI at enable, and explain says so.
out=$("$tool" explain --machine orfeo-epyc -np 256 --table "$table" --op allreduce --sizes 1M --type-size 4 --top 0)
missing=""
for name in linear nonoverlapping recursive_doubling "ring " "segmented_ring(" rabenseifner; do
  printf '%s' "$out" | grep -qF "$name" || missing="$missing '$name'"
done
printf '%s' "$out" | grep -q "leaves this op to tuned at enable" || missing="$missing 'leaves this op to tuned'"
if [ -z "$missing" ]; then passed=$((passed + 1)); else
  echo "FAIL: explain --op allreduce lacks$missing"; failures=$((failures + 1)); fi

# --ompi picks the Open MPI line whose default is shown: the decision says which, and a line the
# model does not know is refused.
expect_error "--ompi '4.0'" --machine orfeo-epyc -np 4 --ompi 4.0
for line in 4.1 5.0 6.0; do
  if "$tool" explain --machine orfeo-epyc -np 16 --op bcast --sizes 1K --ompi $line --json | grep -q "\"ompi\": \"$line\""; then
    passed=$((passed + 1)); else echo "FAIL: explain --ompi $line does not say $line"; failures=$((failures + 1)); fi
done
# 6.0's algorithms are candidates under 6.0 only; 6.0's k-radix Bruck takes Bruck's number there.
expect_listing() {
  local line=$1 op=$2 want=$3 out
  out=$("$tool" explain --machine orfeo-epyc -np 16 --op "$op" --sizes 1K --ompi "$line" --top 0)
  if printf '%s\n' "$out" | grep -q -- "$want"; then passed=$((passed + 1)); else
    echo "FAIL: explain --ompi $line --op $op lacks '$want':"; printf '%s\n' "$out" | tail -n 20; failures=$((failures + 1)); fi
}
expect_listing 6.0 reduce "knomial(radix=2)"
expect_listing 6.0 allreduce " allgather_reduce "
expect_listing 6.0 allgather "k_bruck(radix=3)"
expect_listing 6.0 allgather " direct_messaging "
expect_listing 6.0 allgather "not a candidate: bruck (Open MPI 6.0 has k_bruck under its number 2)"
expect_listing 5.0 reduce "not a candidate: knomial (Open MPI 5.0 has none; it comes with 6.0)"
expect_listing 4.1 allgather "not a candidate: k_bruck (Open MPI 4.1 has none; it comes with 6.0)"

# An op no check of the table covers at this communicator size (ORFEO's checks were measured on
# 2-254 ranks, as modeltuned-calibrate would on 254, and reach up to 508) is left to Open MPI at
# enable, and explain says so; within reach it is not.
for case in "256 false 2" "16 false 2" "512 true 4"; do
  set -- $case
  if "$tool" explain --machine orfeo-epyc --nodes "$3" -np "$1" --table "$table" --op bcast --sizes 1K --json |
       grep -q "\"left_to_ompi\": $2"; then passed=$((passed + 1)); else
    echo "FAIL: explain -np $1: left_to_ompi is not $2"; failures=$((failures + 1)); fi
done

# An op the model keeps at the default for every call (the shipped VM table at np 2 on its own
# one-L3 node keeps every allgather) is left to Open MPI at enable, and explain says so; with a
# narrowed list, or for a rooted op, it is not.
vm_table="$top/calib/tables/cpp-vm-2core.json"
for case in "allgather - true" "allgather ring false" "bcast - false"; do
  set -- $case
  list=; [ "$2" = - ] || list="--algorithms $2"
  out=$("$tool" explain --synthetic "pack:1 l3:1 core:2" -np 2 --table "$vm_table" --op "$1" --sizes 1K $list --json)
  text=$("$tool" explain --synthetic "pack:1 l3:1 core:2" -np 2 --table "$vm_table" --op "$1" --sizes 1K $list)
  says=false
  printf '%s' "$text" | grep -q "the component leaves the op to Open MPI at enable" && says=true
  if printf '%s' "$out" | grep -q "\"kept_default_everywhere\": $3" && [ "$says" = "$3" ]; then
    passed=$((passed + 1)); else
    echo "FAIL: explain --op $1 $list on the VM table: kept_default_everywhere (and its line) is not $3"
    failures=$((failures + 1)); fi
done

# Under 5.0 han runs bcast and reduce across nodes: where a node holds two of the ranks it runs its
# hierarchical algorithms and the component leaves both ops to it; with one rank per node han hands
# calls to tuned, and under 4.1 or --without-han the fallback is tuned.
for case in "5.0 nodeA:2,nodeB:2 4 - han han" "5.0 nodeA:1,nodeB:1 2 - han none" \
            "5.0 nodeA:2,nodeB:2 4 --without-han tuned none" "4.1 nodeA:2,nodeB:2 4 - tuned none"; do
  set -- $case
  flag=$4; [ "$flag" = - ] && flag=
  out=$("$tool" explain --machine orfeo-epyc --hosts "$2" -np "$3" $flag --ompi "$1" --op reduce --sizes 1K --json)
  left=none
  printf '%s' "$out" | grep -q '"default_runs": "han"' && printf '%s' "$out" | grep -q '"left_to_ompi": true' && left=han
  if printf '%s' "$out" | grep -q "\"fallback\": \"$5\"" && [ "$left" = "$6" ]; then
    passed=$((passed + 1)); else
    echo "FAIL: explain --ompi $1 --hosts $2 $flag: expected fallback $5, left to $6"; failures=$((failures + 1)); fi
done
if "$tool" explain --machine orfeo-epyc --hosts nodeA:2,nodeB:2 -np 4 --ompi 5.0 --op bcast --sizes 1K |
     grep -q "leaves this op to han"; then passed=$((passed + 1)); else
  echo "FAIL: explain's text does not say the op is left to han"; failures=$((failures + 1)); fi

# A candidate ranked above the pick says why it does not run: on ORFEO at 200 ranks (map-by core)
# the 1 MiB reduce keeps the default, and the faster-predicted segmented binary trees were never
# measured by a check there; the pick and what ranks below it say nothing.
out=$("$tool" explain --machine orfeo-epyc -np 200 --table "$table" --op reduce --sizes 1M --top 0)
above=$(printf '%s\n' "$out" | grep -c " binary(segsize=32KiB) .*passed over: no check measured it")
pick=$(printf '%s\n' "$out" | sed -n 's/^  modeltuned picks *\([^ ]*\) .*/\1/p')
pick_row=$(printf '%s\n' "$out" | grep -F "  $pick " | grep -v "modeltuned picks\|default")
if [ "$above" -eq 1 ] && [ -n "$pick_row" ] && ! printf '%s' "$pick_row" | grep -q "passed over"; then
  passed=$((passed + 1)); else
  echo "FAIL: explain does not say why binary(segsize=32KiB) is passed over, or says it of the pick ($pick):"
  printf '%s\n' "$out" | head -12; failures=$((failures + 1)); fi
# The JSON says the same per candidate, and gives the bounds where a check measured one.
json=$("$tool" explain --machine orfeo-epyc -np 200 --table "$table" --op reduce --sizes 1M --json)
if printf '%s' "$json" | grep -q '"checked": "none"' && printf '%s' "$json" | grep -q '"checked_worst_us"' &&
   printf '%s' "$json" | grep -q '"default_checked_best_us"'; then passed=$((passed + 1)); else
  echo "FAIL: explain --json lacks checked / checked_worst_us / default_checked_best_us"; failures=$((failures + 1)); fi

# One node's hwloc XML (as lstopo writes it) plus --nodes: the same shape as the synthetic text.
if command -v lstopo-no-graphics >/dev/null 2>&1; then
  xml=$(mktemp --suffix=.xml)
  lstopo-no-graphics --input "pack:2 numa:4 l3:2 core:4 pu:1" --of xml > "$xml"
  from_xml=$("$tool" explain --topology "$xml" --nodes 2 --map-by node -np 32 --table "$table" --sizes 1K --json)
  from_text=$("$tool" explain --synthetic "node:2 pack:2 numa:4 l3:2 core:4" --map-by node -np 32 --table "$table" --sizes 1K --json)
  if [ -n "$from_xml" ] && [ "$from_xml" = "$from_text" ]; then passed=$((passed + 1)); else
    echo "FAIL: --topology XML and the same --synthetic machine disagree"; failures=$((failures + 1)); fi
  expect_error "not a readable hwloc XML" --topology "$0" -np 4 --table "$table"
  rm -f "$xml"
fi

# export-rules: one line naming each bad value; a 4.1 file begins with its comment, a 5.0 file with
# its version line, a JSON file is 5.0's or 6.0's (tests/check_rules and check_mpi's rules_file
# test what the rules say).
expect_usage "--ops 'scan'" export-rules --machine orfeo-epyc -np 4 --ops bcast,scan
expect_usage "--ompi '7.0'" export-rules --machine orfeo-epyc -np 4 --ompi 7.0
expect_usage "--root 9: must be in 0..3" export-rules --machine orfeo-epyc -np 4 --root 9
expect_usage "--max-bytes: '12Q'" export-rules --machine orfeo-epyc -np 4 --max-bytes 12Q
expect_usage "--format" export-rules --machine orfeo-epyc -np 4 --format yaml
expect_usage "-o /nonexistent/rules.conf: cannot write it" export-rules --machine orfeo-epyc -np 4 -o /nonexistent/rules.conf
expect_help export-rules --help
rules=$(mktemp)
for case in "4.1 classic # Open MPI 4.1 tuned rules" "5.0 classic rule-file-version-2" "5.0 json {" \
            "6.0 classic rule-file-version-2" "6.0 json {"; do
  set -- $case
  ompi=$1 format=$2; shift 2
  want="$*"
  if "$tool" export-rules --machine orfeo-epyc --nodes 1 -np 16 --ompi "$ompi" --format "$format" -o "$rules" &&
     [ "$(head -n 1 "$rules" | cut -c1-${#want})" = "$want" ] && grep -q "cannot say" "$rules"; then
    passed=$((passed + 1)); else
    echo "FAIL: export-rules --ompi $ompi --format $format: the file does not begin with '$want' or lacks its header:"
    head -n 3 "$rules"; failures=$((failures + 1)); fi
done
grep -q '"rule_file_version": 3' "$rules" || { echo "FAIL: the JSON file has no rule_file_version 3"; failures=$((failures + 1)); }
rm -f "$rules"

# Other components' algorithms: listed with their component, and why one is no candidate.
expect_output() {  # expect_output "what stdout must contain" args...: modeltuned explain args...
  want=$1; shift
  if out=$("$tool" explain "$@" 2>&1) && printf '%s\n' "$out" | grep -qF -- "$want"; then
    passed=$((passed + 1)); else
    echo "FAIL: modeltuned explain $*: no '$want' in:"; printf '%s\n' "$out" | head -20; failures=$((failures + 1)); fi
}
expect_output "sm (coll/sm)" --synthetic "pack:1 l3:1 core:4" -np 4 --op reduce --noncommutative --table "$table"
expect_output "not a candidate: adapt (coll/adapt hands a non-commutative operation on)" \
  --synthetic "pack:1 l3:1 core:4" -np 4 --op reduce --noncommutative --table "$table"
expect_output "measured only: the default's prediction, no check" --synthetic "pack:1 l3:1 core:4" -np 4 --op bcast \
  --sizes 64K --table "$table"
expect_output "not a candidate: sm (Open MPI 6.0 has no coll/sm)" --synthetic "pack:1 l3:1 core:4" -np 4 \
  --op barrier --ompi 6.0 --table "$table"
expect_output "xhc (coll/xhc)" --synthetic "pack:1 l3:1 core:4" -np 4 --op allreduce --sizes 64 --ompi 6.0 \
  --table "$table"
expect_output "not a candidate: xhc (coll/xhc serves ranks on one node, messages up to 4 KiB (its cico_max) only)" \
  --synthetic "pack:1 l3:1 core:4" -np 4 --op allreduce --sizes 64K --ompi 6.0 --table "$table"
# 6.0 at 16 ranks on one node: xhc's and acoll's candidates beside tuned's, for every collective
# each implements; acoll declines fewer than 16 ranks.
for op in bcast reduce allreduce barrier; do
  expect_output "xhc (coll/xhc)" --machine orfeo-epyc -np 16 --op "$op" --sizes 1K --ompi 6.0
done
for op in bcast reduce allreduce barrier allgather alltoall; do
  expect_output "acoll (coll/acoll)" --machine orfeo-epyc -np 16 --op "$op" --sizes 1K --ompi 6.0
done
expect_output "not a candidate: acoll (coll/acoll serves communicators of 16 ranks or more (its comm_size_thresh) only)" \
  --machine orfeo-epyc -np 8 --op allgather --sizes 1K --ompi 6.0
expect_output "not a candidate: sm (coll/sm serves ranks on one node only)" --machine orfeo-epyc --nodes 2 -np 8 \
  --map-by node --op bcast --sizes 64

echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
