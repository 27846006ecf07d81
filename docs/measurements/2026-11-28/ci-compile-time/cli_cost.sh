#!/bin/bash
# What CLI11 (Debian's 2.1.2, header-only) costs one translation unit: the bare include, and an
# App with one option and a parse, at the flags of each of CI's builds. Run alone on a quiet machine.
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
printf '#include <CLI/CLI.hpp>\n' > "$d/include.cpp"
printf '#include <CLI/CLI.hpp>\nint main(int c, char **v) { CLI::App a{"x"}; int n = 0; a.add_option("-n", n); CLI11_PARSE(a, c, v); return n; }\n' > "$d/app.cpp"
for f in include app; do
  for flags in "-fsyntax-only" "-g -O2" "-g -O0" "-g1 -O1 -fsanitize=address,undefined"; do
    s=$(date +%s.%N); g++ -std=c++20 $flags -c "$d/$f.cpp" -o "$d/x.o"; e=$(date +%s.%N)
    printf '%-8s %-42s %5.1f s\n' "$f" "[$flags]" "$(echo "$e - $s" | bc)"
  done
done
