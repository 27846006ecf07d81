// plots/: one gnuplot figure per measured op x algorithm x mapping, measured and predicted
// latency against P at 1 B and 64 KiB (drawn through calib/gnuplot.hpp).
#pragma once
#include <string>
#include <vector>

#include "tools/validate/measurements.hpp"
#include "tools/validate/models.hpp"

namespace modeltuned::tools::validate {

// Writes the figures of `models` into `dir` and prints what was drawn. Returns the PNGs drawn
// (none without gnuplot: then only the scripts and data are written).
std::vector<std::string> write_plots(const fs::path &dir, const Measured &measured, const Predictions &pred,
                                     const std::vector<std::string> &models);

}  // namespace modeltuned::tools::validate
