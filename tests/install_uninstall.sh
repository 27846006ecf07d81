#!/bin/sh
# make install into a staging directory puts the component where Open MPI loads it, the tools in
# bin with their man pages, the tables and messages in pkgdatadir (what the README lists), and make uninstall removes
# all of it, leaving no file and no directory of ours behind (issue 13, item 11).
builddir="${MODELTUNED_BUILDDIR:-$(pwd)}"
make="${MAKE:-make}"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
failures=0 passed=0
check() { if eval "$2"; then passed=$((passed + 1)); else echo "FAIL: $1"; failures=$((failures + 1)); fi; }

# The tree's own directories, as configure set them.
var() { sed -n "s|^$1 = ||p" "$builddir/Makefile" | head -n 1; }
prefix=$(var prefix); mcadir=$(var mcadir)
if ! "$make" -C "$builddir" install DESTDIR="$stage" > "$stage.install.log" 2>&1; then
  echo "FAIL: make install"; tail -20 "$stage.install.log"; rm -f "$stage.install.log"; exit 1
fi
rm -f "$stage.install.log"
bin="$stage$prefix/bin"
for tool in modeltuned modeltuned-calibrate modeltuned-bench modeltuned-latency modeltuned-emulate-nodes; do
  check "$tool is not installed in $prefix/bin" "[ -x '$bin/$tool' ]"
done
check "the component is not in Open MPI's component directory $mcadir" "[ -f '$stage$mcadir/mca_coll_modeltuned.so' ]"
check "a libtool archive beside the component" "[ ! -e '$stage$mcadir/mca_coll_modeltuned.la' ]"
# A man page per tool, where the build made them (help2man found, not a sanitizer build).
if [ -f "$builddir/man/modeltuned.1" ]; then
  pages=$(find "$stage" -path '*/man/man1/*.1' | sed 's|.*/||' | sort | tr '\n' ' ')
  check "man1 holds '$pages', wanted a page per tool" \
    "[ '$pages' = 'modeltuned-bench.1 modeltuned-calibrate.1 modeltuned-emulate-nodes.1 modeltuned-latency.1 modeltuned.1 ' ]"
  if command -v man > /dev/null; then
    man1=$(find "$stage" -type d -path '*/man/man1' | head -n 1)
    check "man cannot find modeltuned-calibrate's page" "man -M '${man1%/man1}' -w modeltuned-calibrate > /dev/null 2>&1"
  fi
fi
data=$(find "$stage" -path '*/share/modeltuned/*' -type f | sed 's|.*/||' | sort | tr '\n' ' ')
check "pkgdatadir holds '$data', wanted the two tables and the help file" \
  "[ '$data' = 'cpp-vm-2core.json help-coll-modeltuned.txt orfeo-epyc.json ' ]"

if ! "$make" -C "$builddir" uninstall DESTDIR="$stage" > /dev/null 2>&1; then echo "FAIL: make uninstall"; exit 1; fi
left=$(find "$stage" -type f -o -type l | sed "s|^$stage||")
check "files left after make uninstall: $left" "[ -z '$left' ]"
ours=$(find "$stage" -type d -name 'modeltuned*' | sed "s|^$stage||")
check "directories left after make uninstall: $ours" "[ -z '$ours' ]"

echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
