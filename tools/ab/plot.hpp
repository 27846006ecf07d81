// modeltuned ab --plot: one figure per table, modeltuned / baseline per size with its interval
// (log2 size axis), a line at 1 and one at each threshold; drawn through calib/gnuplot.hpp, so
// each figure's script and data stay beside its image (table-1.gp, table-1.dat, table-1.png).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "calib/gnuplot.hpp"
#include "tools/ab/analysis.hpp"

namespace modeltuned::ab {

// The figures of `a` (none for a table without a positive size); `level` for the legend.
std::vector<calib::Figure> ratio_figures(const Analysis &a, const std::vector<double> &thresholds, double level);

}  // namespace modeltuned::ab
