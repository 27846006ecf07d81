#!/bin/sh
# tools/modeltuned-emulate-nodes: its --help, one line and status 2 for every bad argument (before
# anything starts), and a run over two emulated nodes that sees both host names, a variable set
# on one node only, each node's own network (as root), and leaves no temporary directory behind.
top="$(cd "$(dirname "$0")/.." && pwd)"
tool="$top/tools/modeltuned-emulate-nodes"
mpirun="${MPIRUN:-mpirun}"
root_flag=""
[ "$(id -u)" = 0 ] && root_flag="--allow-run-as-root"
failures=0 passed=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

if ! unshare --uts true 2>/dev/null && ! unshare --user --map-root-user --uts true 2>/dev/null; then
  echo "SKIP: cannot create UTS namespaces here (unshare --uts failed)"; exit 77
fi

expect_error() {  # expect_error "what the line must contain" args...
  want=$1; shift
  out=$(TMPDIR="$scratch" "$tool" "$@" 2>&1); status=$?
  lines=$(printf '%s\n' "$out" | grep -c .)
  if [ "$status" -eq 2 ] && [ "$lines" -eq 1 ] && printf '%s' "$out" | grep -q -- "$want"; then
    passed=$((passed + 1))
  else
    fail "modeltuned-emulate-nodes $*: status $status, $lines lines, wanted one line with '$want':"; echo "$out"
  fi
}

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
long=$(printf 'n%.0s' $(seq 1 58))

expect_error "give the nodes" -- "$mpirun" hostname
expect_error "no slot count" nodeA -- "$mpirun" hostname
expect_error "SLOTS must be a whole number" nodeA:0 -- "$mpirun" hostname
expect_error "COUNTxSLOTS" 2xz -- "$mpirun" hostname
expect_error "listed twice" a:1,a:1 -- "$mpirun" hostname
expect_error "not a host name" "a_b:1" -- "$mpirun" hostname
expect_error "longer than 57" "$long:1" -- "$mpirun" hostname
expect_error "no mpirun command" a:1 --
expect_error "already given" a:1 b:1 -- "$mpirun" hostname
expect_error "unknown option '--bogus'" --bogus a:1 -- "$mpirun" hostname
expect_error "not one of the nodes" --node-env c:X=1 a:1 -- "$mpirun" hostname
expect_error "not a variable name" --node-env a:1X=1 a:1 -- "$mpirun" hostname
expect_error "write NAME:VAR=VALUE" --node-env a a:1 -- "$mpirun" hostname
expect_error "--topology $scratch/none.xml: cannot read" --topology "$scratch/none.xml" a:1 -- "$mpirun" hostname
expect_error "--network 'wifi': write netns or loopback" --network wifi a:1 -- "$mpirun" hostname

if "$tool" --help | grep -q '^Usage: modeltuned-emulate-nodes'; then passed=$((passed + 1)); else fail "--help"; fi

# Two nodes: both names seen, the variable on nodeB only (quotes kept literally), status passed on.
out=$(TMPDIR="$scratch" "$tool" --node-env "nodeB:MT_TEST_VALUE=it's B" nodeA:1,nodeB:1 -- \
      "$mpirun" $root_flag -np 2 sh -c 'echo "$(hostname)=${MT_TEST_VALUE:-none}"' 2>&1); status=$?
if [ "$status" -eq 0 ] && printf '%s\n' "$out" | grep -qx "nodeA=none" && printf '%s\n' "$out" | grep -qx "nodeB=it's B"; then
  passed=$((passed + 1))
else
  fail "a run over nodeA and nodeB: status $status, output:"; echo "$out"
fi
# As root, each node in a network namespace of its own: its own address on eth0, none of it left
# on this machine afterwards; --network loopback still runs.
if [ "$(id -u)" = 0 ] && command -v ip >/dev/null; then
  out=$(TMPDIR="$scratch" "$tool" nodeA:1,nodeB:1 -- "$mpirun" $root_flag -np 2 \
        sh -c 'echo "$(hostname) $(ip -4 -o addr show dev eth0 | awk "{print \$4}")"' 2>&1); status=$?
  if [ "$status" -eq 0 ] && printf '%s\n' "$out" | grep -qx "nodeA 10.77.0.2/24" &&
     printf '%s\n' "$out" | grep -qx "nodeB 10.77.0.3/24" && ! ip -o link | grep -q "mt-"; then
    passed=$((passed + 1))
  else
    fail "nodes in network namespaces: status $status, output:"; echo "$out"
  fi
  out=$(TMPDIR="$scratch" "$tool" --network loopback nodeA:1,nodeB:1 -- "$mpirun" $root_flag -np 2 hostname 2>&1); status=$?
  if [ "$status" -eq 0 ] && printf '%s\n' "$out" | grep -qx nodeB; then passed=$((passed + 1)); else
    fail "--network loopback: status $status, output:"; echo "$out"; fi
fi
TMPDIR="$scratch" "$tool" 2x1 -- "$mpirun" $root_flag -np 2 sh -c 'exit 3' >/dev/null 2>&1; status=$?
if [ "$status" -ne 0 ]; then passed=$((passed + 1)); else fail "a failing job's status was not passed on"; fi
if [ -z "$(ls "$scratch")" ]; then passed=$((passed + 1)); else fail "temporary files left: $(ls "$scratch")"; fi

echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
