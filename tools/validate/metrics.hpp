// How close predictions come to measurements (accuracy) and how ratios summarise (selection).
// Measured and predicted series are aligned by index.
#pragma once
#include <vector>

#include "common/stats.hpp"

namespace modeltuned::tools::validate {

// R^2 (common/stats.hpp's r_squared) of the logs: every size weighs alike, from 1 B to 1 MiB.
double r_squared_log(const std::vector<double> &measured, const std::vector<double> &predicted);
// Median absolute percentage error.
double mdape(const std::vector<double> &measured, const std::vector<double> &predicted);

}  // namespace modeltuned::tools::validate
