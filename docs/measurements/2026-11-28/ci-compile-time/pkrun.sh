#!/bin/bash
# runs only the package step of scripts/check (both lines, side by side), with timestamps
cd "${1:?a fresh clone}"
sed -n '/^check_package() {/,/^}/p' scripts/check > "$1/check_package.sh"
top=$PWD; . "$1/check_package.sh"
s=$(date +%s)
mkdir -p dist
for line in 4.1 5.0; do check_package "$line" > "dist/check-$line.out" 2>&1 & done
wait
cat dist/check-4.1.out dist/check-5.0.out
echo "packages side by side: $(( $(date +%s) - s )) s"
