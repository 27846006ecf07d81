#!/bin/sh
# Regression guard for the model on the ORFEO EPYC measurements (docs/validation.md):
# runs `modeltuned validate --quick` and fails when any accuracy or selection figure of the
# point-to-point model (schedule variant) gets worse than the levels it reached when this guard
# was written (commit message "validation guard"), with small margins:
#   R^2 at 1 B        >= level - 0.05 - 0.05 * |level|
#   R^2 of log, all   >= level - 0.02
#   MdAPE, all sizes  <= level * 1.05 + 1 (percent)
#   regret geomean    <= level * 1.02;  regret worst <= level * 1.05 + 0.05
# Improving the model makes these pass by a wider margin; raise the levels then. A change that
# trades figures is re-recorded deliberately, never quietly, with the reason here and in the
# commit. Re-recorded once: the flat-tree curve (docs/calibration-format.md) improved 19 of 27
# median errors (binomial bcast 45-62% -> 18-52%) and the node selection, and made the binary
# trees worse (bcast bintree core R^2 at 1 B 0.61 -> 0.05, MdAPE 36% -> 44%; reduce binary core
# 0.52 -> 0.11): the line's excess at P = 3 had been hiding that the model predicts them too fast.
# Re-recorded twice: on-node and off-node peers side by side above the shared-memory eager limit
# (model/cost/channel_cost.hpp) improved the linear bcast (MdAPE node 34% -> 17%, socket 24% ->
# 19%, core 12.5% -> 11.0%) and the bcast node regret (1.146 -> 1.139), and moved one reduce
# node case, linear measured at its OSU mean, to a worst regret of 2.70 (was 2.35); the completion
# model of the linear reduce against OSU's mean (reduce,linear,node MdAPE 848% -> 910%) is item 1
# of docs/validation.md, not this rule.
# The data set ships in data/orfeo-epyc: a missing one is a broken checkout (hard error, 99).
set -u
data=${ORFEO_DATA:-${srcdir:-.}/data/orfeo-epyc}
tool=${MODELTUNED:-./tools/modeltuned}
if [ ! -f "$data/bcast_core.csv" ]; then echo "no ORFEO data at $data (data/orfeo-epyc of the repository)"; exit 99; fi
out=$(mktemp -d "${TMPDIR:-/tmp}/validation-guard.XXXXXX") || exit 99
trap 'rm -rf "$out"' EXIT
"$tool" validate --data "$data" --out "$out" --quick --variant schedule --calibrated-on 254,190,126 || exit 1

# op,algorithm,mapping,r2_1B,r2_log_all,mdape_all
cat > "$out/accuracy_levels.csv" <<'LEVELS'
bcast,linear,core,0.9476,0.9809,10.98
bcast,linear,socket,0.1312,0.8433,18.79
bcast,linear,node,0.8902,0.9757,17.39
bcast,chain,core,0.7033,0.9854,15.77
bcast,chain,socket,-0.0207,0.7458,35.43
bcast,chain,node,0.6768,0.9241,53.27
bcast,bintree,core,0.0496,0.8449,43.57
bcast,bintree,socket,-0.0370,0.4670,39.40
bcast,bintree,node,-1.0875,0.9247,33.17
bcast,binomial,core,0.2499,0.9138,51.85
bcast,binomial,socket,-0.0029,0.7609,33.93
bcast,binomial,node,-0.2507,0.9755,17.72
reduce,linear,core,-103.8252,0.7096,251.71
reduce,linear,socket,-54.2270,0.6852,233.89
reduce,linear,node,-759.9770,0.4390,910.35
reduce,chain,core,0.6035,0.9463,43.43
reduce,chain,socket,0.0378,0.9138,48.32
reduce,chain,node,0.8041,0.8896,66.07
reduce,binary,core,0.1075,0.9209,51.50
reduce,binary,socket,-0.1095,0.7469,78.00
reduce,binary,node,-442.0468,0.6352,248.57
LEVELS
# op,mapping,regret_geomean,regret_worst
cat > "$out/selection_levels.csv" <<'LEVELS'
bcast,core,1.2829,13.7546
bcast,socket,1.6501,949.1338
bcast,node,1.1388,2.3164
reduce,core,1.4786,6.2415
reduce,socket,1.7688,164.6230
reduce,node,1.0642,2.7006
LEVELS

awk -F, '
  FNR == 1 { file++ }
  file == 1 { acc[$1","$2","$3] = $0; next }                            # levels
  file == 2 && $1 == "p2p" && $3 != "default" { got[$2","$3","$4] = $0; next }
  file == 3 { sel[$1","$2] = $0; next }
  file == 4 && FNR > 1 && $1 == "p2p" { gsel[$2","$3] = $2","$3","$5","$6","$7","$8","$9 }  # model,op,mapping,scored_against,cases,...: as op,mapping,cases,...
  function abs(x) { return x < 0 ? -x : x }
  END {
    bad = 0
    for (k in acc) {
      split(acc[k], l, ","); if (!(k in got)) { print "missing accuracy row " k; bad++; continue }
      split(got[k], g, ",")
      if (g[5] + 0 < l[4] - 0.05 - 0.05 * abs(l[4])) { printf "%s: R^2 at 1 B %s < level %s\n", k, g[5], l[4]; bad++ }
      if (g[6] + 0 < l[5] - 0.02) { printf "%s: R^2 log %s < level %s\n", k, g[6], l[5]; bad++ }
      if (g[7] + 0 > l[6] * 1.05 + 1) { printf "%s: MdAPE %s%% > level %s%%\n", k, g[7], l[6]; bad++ }
    }
    for (k in sel) {
      split(sel[k], l, ","); if (!(k in gsel)) { print "missing selection row " k; bad++; continue }
      split(gsel[k], g, ",")
      if (g[4] + 0 > l[3] * 1.02) { printf "%s: regret geomean %s > level %s\n", k, g[4], l[3]; bad++ }
      if (g[6] + 0 > l[4] * 1.05 + 0.05) { printf "%s: worst regret %s > level %s\n", k, g[6], l[4]; bad++ }
    }
    if (bad) { printf "validation guard: %d figure(s) worse than the recorded levels\n", bad; exit 1 }
    print "validation guard: every figure at or above its recorded level"
  }' "$out/accuracy_levels.csv" "$out/accuracy.csv" "$out/selection_levels.csv" "$out/selection.csv" || exit 1

# decisions.csv holds exactly the cases behind each selection.csv row (per protocol): the same count
# and the same geometric-mean regret (to the 4 digits printed).
awk -F, '
  FNR == 1 { file++; next }
  file == 1 { k = $1","$2","$3","$4","$13; n[k]++; s[k] += log($12); next }
  { k = $1","$2","$3","$4","$10; want[k] = $5; geo[k] = $6 }
  END {
    bad = 0
    for (k in want) {
      if (want[k] == 0) continue
      if (n[k] != want[k]) { printf "decisions.csv: %s has %d cases, selection.csv %d\n", k, n[k], want[k]; bad++; continue }
      g = exp(s[k] / n[k]); if (g - geo[k] > 0.0006 || geo[k] - g > 0.0006) { printf "decisions.csv: %s regret geomean %.4f, selection.csv %s\n", k, g, geo[k]; bad++ }
    }
    if (bad) exit 1
    print "validation guard: decisions.csv matches selection.csv"
  }' "$out/decisions.csv" "$out/selection.csv"

# The component never slower than Open MPI's default where it is scored (docs/model.md, "Near the
# sizes measured"): every calibrated-on row, both OSU columns, and the held-out rows, whose map-by
# node rows keep what they reached (bcast 1.45, reduce 2.46 against max) when the rule changed.
awk -F, '
  FNR > 1 && $1 == "component" {
    if ($9 + 0 < 0.9995) { printf "%s %s %s %s: component %sx the default, below 1\n", $10, $2, $3, $4, $9; bad++ }
    if ($10 == "held-out" && $3 == "node" && $4 == "max" && $9 + 0 < ($2 == "bcast" ? 1.45 : 2.46)) {
      printf "held-out %s node max: component %sx the default, below its level\n", $2, $9; bad++ }
  }
  END { if (bad) exit 1; print "validation guard: the component is never slower than the default where scored" }' \
  "$out/selection.csv"
