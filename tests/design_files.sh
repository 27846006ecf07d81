#!/bin/sh
# docs/design.md lists every file that exists and names only files that exist. (a) Every tracked
# file under common model calib tools mca scripts tests debian man is named in it, by its file
# name or its stem (the name up to its first dot: "calibrate/: checks, fit_input, ..."); the data
# folders (tests/fuzz/corpus, calib/tables, tests/external) are described by their
# folder, which must be named. (b) Every path it names (a word with a slash and a source or text
# extension) exists: from the repository root, in mca/coll/modeltuned/, or as the end of a tracked
# path ("support/run_suite.h"), and so does every component file it names without its folder
# ("coll_modeltuned_view.c"). Templates ("collectives/<name>/<name>.cpp", "tree_specs.*") are not
# paths. Needs a git checkout (the tracked files); elsewhere (a release tarball) it is skipped.
if [ -n "${srcdir:-}" ] && [ -f "$srcdir/docs/design.md" ]; then
  top="$(cd "$srcdir" && pwd)"
else
  top="$(cd "$(dirname "$0")/.." && pwd)"
fi
design="$top/docs/design.md"
if [ ! -e "$top/.git" ]; then echo "SKIP: $top is not a git checkout (no tracked files to list)"; exit 77; fi
if ! command -v git > /dev/null 2>&1; then echo "SKIP: no git to list the tracked files"; exit 77; fi
if [ ! -f "$design" ]; then echo "FAIL: $design is missing"; exit 1; fi
tracked=$(git -C "$top" -c core.quotepath=off ls-files) || { echo "FAIL: git -C $top ls-files failed"; exit 1; }

# One awk over the tracked files, with the design document read once: fast (one process).
problems=$(printf '%s\n' "$tracked" | awk -v design="$design" '
  BEGIN {
    doc = ""
    while ((getline line < design) > 0) { doc = doc line "\n"; lines[++nlines] = line }
    close(design)
    n = split("tests/fuzz/corpus/ calib/tables/ tests/external/", data, " ")
  }
  { path[$0] = 1
    # every end of the path after a slash, for names given relative to a folder
    rest = $0
    while ((i = index(rest, "/")) > 0) { rest = substr(rest, i + 1); tail[rest] = 1 }
    if ($0 !~ /^(common|model|calib|tools|mca|scripts|tests|debian|man)\//) next
    for (d = 1; d <= n; d++)
      if (substr($0, 1, length(data[d])) == data[d]) { in_data[data[d]] = 1; next }
    base = $0; sub(/.*\//, "", base)
    stem = base; sub(/\..*/, "", stem)
    if (index(doc, base) == 0 && (stem == "" || index(doc, stem) == 0))
      print "unnamed " $0
  }
  END {
    for (d in in_data) {
      folder = d; sub(/\/$/, "", folder); sub(/.*\//, "", folder)
      if (index(doc, folder "/") == 0) print "unnamed " d
    }
    re = "[A-Za-z0-9_.<>*/-]*[A-Za-z0-9_.<>*-]/[A-Za-z0-9_.<>*-]+\\.(cpp|hpp|c|h|sh|mk|md|txt|map|json|supp)"
    for (l = 1; l <= nlines; l++) {
      rest = lines[l]
      # component files by their bare name (Open MPI files such as coll_base_topo.c are not ours)
      while (match(rest, /coll_modeltuned[A-Za-z0-9_]*\.[ch]/)) {
        token = substr(rest, RSTART, RLENGTH)
        before = RSTART > 1 ? substr(rest, RSTART - 1, 1) : ""
        after = substr(rest, RSTART + RLENGTH, 1)
        rest = substr(rest, RSTART + RLENGTH)
        if (before ~ /[A-Za-z0-9_\/]/ || after ~ /[A-Za-z0-9_]/) continue
        if (!(token in tail)) print "missing " token
      }
      rest = lines[l]
      while (match(rest, re)) {
        token = substr(rest, RSTART, RLENGTH)
        after = substr(rest, RSTART + RLENGTH, 1)
        rest = substr(rest, RSTART + RLENGTH)
        if (after ~ /[A-Za-z0-9_]/) continue        # a longer word, not this extension
        if (token ~ /[<>*]/) continue                # a template, not a path
        sub(/^\.\//, "", token)
        if ((token in path) || (("mca/coll/modeltuned/" token) in path) || (token in tail)) continue
        print "missing " token
      }
    }
  }') || { echo "FAIL: awk failed"; exit 1; }

failures=0
while read -r kind name; do
  [ -n "$kind" ] || continue
  case $kind in
    unnamed) echo "FAIL: $name is not named in docs/design.md: add it to docs/design.md's Layers" ;;
    missing)
      # present but untracked (a new file not yet added) is still a file of the tree
      if [ -e "$top/$name" ] || [ -e "$top/mca/coll/modeltuned/$name" ]; then continue; fi
      echo "FAIL: docs/design.md names $name, which does not exist: rename it to what exists, or remove it" ;;
  esac
  failures=$((failures + 1))
done <<EOF
$problems
EOF

if [ "$failures" -gt 0 ]; then echo "design_files: $failures problem(s) in docs/design.md"; exit 1; fi
named=$(printf '%s\n' "$tracked" | grep -c -E '^(common|model|calib|tools|mca|scripts|tests|debian|man)/')
echo "design_files: docs/design.md names all $named tracked files (data folders by folder), and every path it names exists"
