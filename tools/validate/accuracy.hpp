// How well each model predicts the measured latencies, per op, algorithm and mapping: R^2 at 1 B
// (the seed report's figure), R^2 of log latency and median absolute percentage error over all sizes.
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include "tools/validate/measurements.hpp"
#include "tools/validate/models.hpp"

namespace modeltuned::tools::validate {

struct AccuracyRow {
  std::string model;
  Op op;
  int algorithm, mapping;
  double r2_1b, r2_log, mdape_all;
  size_t points;
  double r2_1b_no_spikes = NAN;  // report.md only: R^2 at 1 B without the measured spikes
};

// Measured spikes: a point more than kSpikeFactor times the median of its neighbours (same op,
// algorithm, mapping and size). The report dropped outliers by hand before its R^2; this rule does
// it mechanically and the same for every model.
inline constexpr double kSpikeFactor = 3.0;

// The rows of the models in `model_order` that have predictions, in that order, each over the
// measured points it predicts.
std::vector<AccuracyRow> accuracy(const Measured &measured, const Predictions &predictions,
                                  const std::vector<std::string> &model_order);

}  // namespace modeltuned::tools::validate
