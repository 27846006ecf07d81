#!/bin/sh
# modeltuned explain from the command line: a what-if answers, and every bad flag gets exactly one
# line naming it, with exit status 2 (CLI11's own parse errors: status 106-109 and a usage hint).
tool="${MODELTUNED_TOOL:-./tools/modeltuned}"
table="${MODELTUNED_TABLE:-$(dirname "$0")/../calib/tables/orfeo-epyc.json}"
failures=0 passed=0

expect_error() {  # expect_error "what the line must contain" args...
  want=$1; shift
  out=$("$tool" explain "$@" 2>&1); status=$?
  lines=$(printf '%s\n' "$out" | grep -c .)
  if [ "$status" -eq 2 ] && [ "$lines" -eq 1 ] && printf '%s' "$out" | grep -q -- "$want"; then
    passed=$((passed + 1))
  else
    echo "FAIL: modeltuned explain $*: status $status, $lines lines, wanted one line with '$want':"; echo "$out"
    failures=$((failures + 1))
  fi
}

expect_error "has 256 cores" --machine orfeo-epyc -np 600 --sizes 1
expect_error "known machines" --machine nowhere -np 4
expect_error "--sizes" --machine orfeo-epyc -np 4 --sizes 12Q
expect_error "--map-by" --machine orfeo-epyc -np 4 --map-by diagonal
expect_error "--map-by 'ppr:9:l3'" --machine orfeo-epyc -np 4 --map-by ppr:9:l3
expect_error "--op" --machine orfeo-epyc -np 4 --op scan
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

# A what-if answers: JSON with a pick for each size, and the pick is the fastest candidate.
json=$("$tool" explain --machine orfeo-epyc --map-by node -np 64 --op reduce --sizes 8,1M --json) || {
  echo "FAIL: explain --json exited $?"; failures=$((failures + 1)); }
picks=$(printf '%s' "$json" | grep -c '"pick": {')
if [ "$picks" -eq 2 ]; then passed=$((passed + 1)); else echo "FAIL: expected 2 picks, got $picks"; failures=$((failures + 1)); fi

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

echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
