// Plots of a calibration, with gnuplot (pngcairo): per channel, the raw point-to-point samples
// with the fitted pieces and breakpoints (log-log), and gamma = T_flat / T_p2p against P for a few
// sizes, measured medians against the fits. Drawn through calib/gnuplot.hpp: data files and one
// script per plot stay in `dir` beside the PNGs (without gnuplot, only they are written).
// Prints one line to `out` saying where the plots are. Throws PlotError when drawing fails.
#pragma once
#include <ostream>
#include <string>

#include "calib/fit.hpp"

namespace modeltuned::calib {

void write_plots(const CalibrationTable &table, const Samples &samples, const std::string &dir, std::ostream &out);

}  // namespace modeltuned::calib
