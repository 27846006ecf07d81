// When the model may leave Open MPI's default: only when a candidate is predicted faster by more
// than the model's own measured uncertainty (docs/model.md, "Margin").
#pragma once
#include "model/calibration/table.hpp"

namespace modeltuned {

// The table's uncertainty: the largest held-out median absolute percentage error among its fits
// (provenance.fit.<channel>.<p2p|fanout|fanin|...>.held_out.median_ape, k-fold cross-validation
// by the fitter), as a fraction, at most kMaxUncertainty. 0 when the table records none (a table
// written by hand): then no margin is derived and the prediction alone decides.
inline constexpr double kMaxUncertainty = 0.5;
double held_out_uncertainty(const CalibrationTable &table);

// One rule: a candidate replaces the default when pick_us * (1 + u) < default_us * (1 - u), i.e.
// when even the pick's prediction erring high by u and the default's erring low by u keep the
// pick faster. The factor (1 + u) / (1 - u) that the default must exceed the pick by.
inline double margin_factor(double uncertainty) { return (1 + uncertainty) / (1 - uncertainty); }

}  // namespace modeltuned
