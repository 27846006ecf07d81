// modeltuned ab's report on stdout: what was compared, the wall-time ratio, then per table its
// geometric mean and a row per size with the interval and a significance mark, and per threshold
// the sizes significantly slower (and faster) than it. Fits 100 columns but for long titles.
#pragma once
#include <cstdio>
#include <string>
#include <vector>

#include "tools/ab/analysis.hpp"

namespace modeltuned::ab {

struct ReportContext {
  int rounds = 0, warmup = 0;
  std::string command;            // as a shell would take it
  std::string baseline_change;    // "OMPI_MCA_coll=^modeltuned"
  std::string modeltuned_change;  // "" or "OMPI_MCA_coll_modeltuned_calibration_file=..."
  double level = 0.95;
  std::vector<double> thresholds;   // ascending
  std::vector<std::string> scored;  // --baseline-may-fail: the tables cut or left out (completed.hpp)
};

void print_report(std::FILE *out, const ReportContext &context, const Analysis &analysis);

// The mark of a ratio: "slower >1.05" for the largest threshold its interval is above, "faster
// <0.952" for the largest whose inverse (1/1.05) its interval is below, else "".
std::string significance_mark(const RatioCi &ci, const std::vector<double> &thresholds);

}  // namespace modeltuned::ab
