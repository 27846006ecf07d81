// Gnuplot figure of modeltuned-bench: per operation, latency against message size (log-log, one
// line per variant, Open MPI's default and modeltuned drawn heavy with their confidence
// intervals) above modeltuned's ratio to the default and to the best forced algorithm. Drawn
// through calib/gnuplot.hpp: --plot DIR/NAME.png also leaves DIR/NAME.gp and DIR/NAME.dat.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "calib/gnuplot.hpp"
#include "common/stats.hpp"

namespace modeltuned::bench {

struct PlotPoint {
  double bytes;
  MedianCi latency_us;
};

struct PlotSeries {
  std::string op;       // bcast or reduce
  std::string variant;  // default, modeltuned or a forced algorithm
  std::vector<PlotPoint> points;
};

struct PlotRatios {
  std::string op;
  std::vector<std::pair<double, double>> versus_default, versus_best;  // (bytes, ratio of medians)
};

// Why the plot cannot be written to `path` (its directory is not writable), or "".
std::string plot_preflight(const std::string &path);
// The figure drawing `path` (NAME.png or NAME.svg), for calib::draw_figures in its directory.
calib::Figure plot_figure(const std::string &path, const std::vector<PlotSeries> &series,
                          const std::vector<PlotRatios> &ratios, const std::string &subtitle);

}  // namespace modeltuned::bench
