// How close predictions come to measurements (accuracy) and how ratios summarise (selection).
// Measured and predicted series are aligned by index.
#pragma once
#include <vector>

namespace modeltuned::tools::validate {

// Coefficient of determination; NaN for fewer than two points or constant measurements.
double r_squared(const std::vector<double> &measured, const std::vector<double> &predicted);
// R^2 of the logs: every size weighs alike, from 1 B to 1 MiB.
double r_squared_log(const std::vector<double> &measured, const std::vector<double> &predicted);
// Median absolute percentage error.
double mdape(const std::vector<double> &measured, const std::vector<double> &predicted);
// Geometric mean, the mean of ratios such as regrets and speedups; NaN for none.
double geomean(const std::vector<double> &values);

}  // namespace modeltuned::tools::validate
