#!/bin/sh
# modeltuned fit --plot through the shared gnuplot driver (calib/gnuplot.hpp): each figure's
# script and data lie beside it and name each other without a directory (so the directory can be
# moved and redrawn by hand); without gnuplot the scripts and data are still written, the table
# too, and one line says how to draw them; with gnuplot every script becomes a PNG.
tool="${MODELTUNED_TOOL:-./tools/modeltuned}"
data="$(dirname "$0")/../data/orfeo-epyc"
failures=0 passed=0
check() {  # check "what" condition...
  what=$1; shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL: $what"; failures=$((failures + 1)); fi
}
work=$(mktemp -d "${TMPDIR:-/tmp}/fit-plot.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
fit() {  # fit OUTPUT_DIR [env...]
  dir=$1; shift
  env "$@" "$tool" fit --osu-p2p "$data/p2p.csv" --osu-fanout "$data/nbft.csv" --reduce-us-per-byte 5e-5 \
    --reduce-source "estimate: test" --source-name test -o "$work/$dir.json" --plot "$work/$dir" > "$work/$dir.out" 2>&1
}

fit missing GNUPLOT=/nonexistent/gnuplot; status=$?
check "fit --plot without gnuplot exits 0 (status $status)" [ "$status" -eq 0 ]
check "fit --plot without gnuplot writes the table" [ -s "$work/missing.json" ]
check "fit --plot without gnuplot says how to draw, once" \
  [ "$(grep -c "plots: not drawn: gnuplot ('/nonexistent/gnuplot') was not found" "$work/missing.out")" -eq 1 ]
scripts=$(ls "$work/missing"/*.gp 2>/dev/null | wc -l)
check "fit --plot without gnuplot writes 2 scripts per channel ($scripts)" [ "$scripts" -eq 8 ]
check "fit --plot without gnuplot draws nothing" [ -z "$(ls "$work/missing"/*.png 2>/dev/null)" ]
check "the scripts name their files without a directory" [ -z "$(grep -l "$work" "$work/missing"/*.gp)" ]
for gp in "$work/missing"/*.gp; do
  for dat in $(grep -o "'[^'/]*\.dat'" "$gp" | tr -d "'" | sort -u); do
    check "$(basename "$gp") reads $dat, which lies beside it" [ -s "$work/missing/$dat" ]
  done
done

if command -v gnuplot >/dev/null 2>&1; then
  fit drawn GNUPLOT=gnuplot; status=$?
  check "fit --plot exits 0 (status $status)" [ "$status" -eq 0 ]
  check "fit --plot says where the PNGs are" grep -q "plots: 8 images in $work/drawn" "$work/drawn.out"
  for gp in "$work/drawn"/*.gp; do
    check "$(basename "$gp" .gp).png drawn" [ -s "${gp%.gp}.png" ]
  done
fi

# A gnuplot that rejects a script: an error naming the script, with gnuplot's complaint, in one line.
printf '#!/bin/sh\necho "\\"$1\\" line 1: undefined function: nosuchfunction" >&2\nexit 1\n' > "$work/fake-gnuplot"
chmod +x "$work/fake-gnuplot"
fit failing GNUPLOT="$work/fake-gnuplot"; status=$?
check "a failing gnuplot fails fit --plot with status 2 (status $status)" [ "$status" -eq 2 ]
check "a failing gnuplot's complaint is passed on in one line" \
  [ "$(grep -c "modeltuned fit: .*fake-gnuplot failed on .*\.gp: .* line 1: undefined function" "$work/failing.out")" -eq 1 ]

echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
