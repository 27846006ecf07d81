// modeltuned-bench's report, written by rank 0: every repetition to the CSV, the summary table
// (per size, the median and its confidence interval of the default, modeltuned and the best
// forced algorithm, which algorithm modeltuned ran, and modeltuned's ratios to the other two) and
// the gnuplot figure (tools/bench/plot.hpp).
#pragma once
#include <cstdint>
#include <cstdio>

#include "tools/bench/measure.hpp"
#include "tools/bench/options.hpp"
#include "tools/bench/variants.hpp"

namespace modeltuned::bench {

// Files are checked on rank 0 before measuring, so a typo costs no run. Returns the open CSV
// (rank 0, with --csv).
std::FILE *open_outputs(const Options &o);

// Rank 0: the CSV (closed here), the summary and the plot, from gathered timings. Returns the
// exit status.
int report(const Options &o, const Plan &plan, const Setup &setup, const Timings &t, bool one_node, uint64_t seed,
           std::FILE *csv);

}  // namespace modeltuned::bench
