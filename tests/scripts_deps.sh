#!/bin/sh
# scripts/deps decides from apt's sources whether it must add a deb-src entry (issue 13, item 10):
# it used to rewrite it on every run, since its test failed under pipefail on bookworm, which has
# no /etc/apt/sources.list. --dry-run says what it would do and changes nothing; the apt
# directory is a scratch copy here (MODELTUNED_APT_DIR).
top="$(cd "$(dirname "$0")/.." && pwd)"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0 passed=0
check() { if eval "$2"; then passed=$((passed + 1)); else echo "FAIL: $1"; echo "$out"; failures=$((failures + 1)); fi; }
deps() { out=$(MODELTUNED_APT_DIR="$1" "$top/scripts/deps" --dry-run 2>&1); status=$?; }

# bookworm as installed: deb822 sources without deb-src, no sources.list
mkdir -p "$dir/bookworm/sources.list.d"
printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\n' \
  > "$dir/bookworm/sources.list.d/debian.sources"
deps "$dir/bookworm"
check "bookworm without deb-src: would write the entry" \
  '[ $status = 0 ] && printf "%s" "$out" | grep -qx "deb-src entry: would write $dir/bookworm/sources.list.d/debian-src.sources"'
check "--dry-run writes nothing" '[ "$(ls "$dir/bookworm/sources.list.d")" = debian.sources ]'

# after scripts/deps added its entry: present, not written again
sed 's/^Types: deb$/Types: deb-src/' "$dir/bookworm/sources.list.d/debian.sources" > "$dir/bookworm/sources.list.d/debian-src.sources"
deps "$dir/bookworm"
check "the entry scripts/deps writes is found" \
  'printf "%s" "$out" | grep -qx "deb-src entry: present in $dir/bookworm/sources.list.d/debian-src.sources"'

# one deb822 stanza with both types; a classic sources.list line
mkdir -p "$dir/both/sources.list.d" "$dir/classic"
printf 'Types: deb deb-src\nURIs: http://deb.debian.org/debian\n' > "$dir/both/sources.list.d/debian.sources"
printf 'deb http://deb.debian.org/debian bookworm main\ndeb-src http://deb.debian.org/debian bookworm main\n' \
  > "$dir/classic/sources.list"
deps "$dir/both"
check "Types: deb deb-src is found" 'printf "%s" "$out" | grep -q "^deb-src entry: present in "'
deps "$dir/classic"
check "a deb-src line in sources.list is found" 'printf "%s" "$out" | grep -qx "deb-src entry: present in $dir/classic/sources.list"'

# an empty apt directory: no sources at all, still a clean answer
mkdir -p "$dir/empty"
deps "$dir/empty"
check "no sources: would write the entry, status 0" '[ $status = 0 ] && printf "%s" "$out" | grep -q "^deb-src entry: would write "'
check "the dry run reports packages and the source tree" \
  'printf "%s" "$out" | grep -qE "^(installed: all|would install:) " && printf "%s" "$out" | grep -q "^Open MPI source: "'

out=$("$top/scripts/deps" --bogus 2>&1); status=$?
check "an unknown option: one line, status 2" '[ $status = 2 ] && [ "$(printf "%s\n" "$out" | wc -l)" = 1 ] && printf "%s" "$out" | grep -q -- "--bogus"'
out=$("$top/scripts/deps" --help 2>&1); status=$?
check "--help: status 0, names --dry-run" '[ $status = 0 ] && printf "%s" "$out" | grep -q -- "--dry-run"'

echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
