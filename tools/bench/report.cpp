// The CSV, the summary table and the plot of modeltuned-bench (see report.hpp).
#include "tools/bench/report.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "calib/gnuplot.hpp"
#include "common/stats.hpp"
#include "model/registry/registry.hpp"
#include "tools/bench/job.hpp"
#include "tools/bench/plot.hpp"

namespace fs = std::filesystem;

namespace modeltuned::bench {
namespace {

// Result of one (variant, size) pair, on rank 0.
struct PairResult {
  std::vector<double> times_us;  // per repetition
  MedianCi ci;
  std::vector<uint64_t> calls;  // summed over ranks, by algorithm number (0 = handed back)
};

std::string ci_text(const MedianCi &c) {
  if (!c.low) return fmt::format("{:.2f} [n/a]", c.median);
  return fmt::format("{:.2f} [{:.2f},{:.2f}]", c.median, *c.low, *c.high);
}

// Ratio of medians, with the range the two intervals allow ([a.low / b.high, a.high / b.low]);
// '~' when the intervals overlap (the difference is not significant). One word, no spaces; "n/a"
// where either has no interval.
std::string ratio_text(const MedianCi &a, const MedianCi &b) {
  if (b.median <= 0) return "-";
  if (!a.low || !b.low || *b.low <= 0) return "n/a";  // too few repetitions for an interval: no ratio
  const bool overlap = *a.low <= *b.high && *b.low <= *a.high;
  return fmt::format("{:.2f}[{:.2f},{:.2f}]{}", a.median / b.median, *a.low / *b.high, *a.high / *b.low,
                     overlap ? "~" : "");
}

// One row of the summary: the variants measured at one size of one op.
struct SizeRow {
  const PairResult *def = nullptr, *mt = nullptr, *best = nullptr;
  std::string mt_ran = "-", best_name = "-";
};

// Forced variants whose calls Open MPI's default ran instead of their algorithm.
struct HandedBack {
  std::map<std::string, std::vector<std::string>> sizes;  // forced name -> size labels
  std::set<size_t> pairs;                                 // pair indices
};

class Report {
 public:
  Report(const Options &o, const Plan &plan, const Setup &setup, const Timings &t, bool one_node, uint64_t seed)
      : o(o), plan(plan), setup(setup), t(t), one_node(one_node), seed(seed), results(t.pairs.size()) {
    const size_t npairs = t.pairs.size();
    const int width = setup.counter_width;
    for (size_t k = 0; k < npairs; ++k) {
      for (int r = 0; r < t.rounds; ++r) results[k].times_us.push_back(1e6 * t.times[r * npairs + k]);
      results[k].ci = median_ci(results[k].times_us);
      if (setup.counted) results[k].calls.assign(t.calls.begin() + k * width, t.calls.begin() + (k + 1) * width);
    }
  }

  // Returns false when the file could not be written.
  bool write_csv(std::FILE *csv) const {
    std::fprintf(csv, "op,size,variant,rep,time_us,rank_mean_us\n");
    const size_t npairs = t.pairs.size();
    for (size_t k = 0; k < npairs; ++k)
      for (int r = 0; r < t.rounds; ++r)
        std::fprintf(csv, "%s,%llu,%s,%d,%.3f,%.3f\n", std::string(op_name(variant(k).op)).c_str(),
                     (unsigned long long)bytes(k), variant(k).name.c_str(), r, results[k].times_us[r],
                     1e6 * t.rank_mean[r * npairs + k]);
    if (std::fclose(csv) == 0) return true;
    std::fprintf(stderr, "%s: --csv %s: writing failed (%s)\n", kProgram, o.csv.c_str(), std::strerror(errno));
    return false;
  }

  void print_header() const {
    std::printf(
        "%s: np=%d, %s, root=%d, %d repetitions per point (%.1f s), seed=%llu, "
        "%d buffer(s) rotated, reduce: MPI_INT MPI_SUM\n",
        kProgram, world_size,
        one_node ? "one node (time = first rank's start to last rank's end)"
                 : "several nodes (time = slowest rank's own duration)",
        o.root, t.rounds, t.seconds, (unsigned long long)seed, o.rotate_buffers);
    std::printf(
        "times in microseconds: median [95%% confidence interval of the median]; "
        "ratios of medians [the range their intervals allow], '~' = intervals overlap (not significant)\n");
    if (setup.counted)
      std::printf("algorithms that ran: read from modeltuned's MPI_T call counters for every timed call\n");
    for (const auto &note : setup.notes) std::printf("note: %s\n", note.c_str());
  }

  // One table row per size of `op`, then notes on forced variants handed back; collects the plot.
  void print_op(Op op) {
    const std::string opname(op_name(op));
    std::printf("\n%-6s %9s  %-26s %-26s %-22s %-26s %-22s %-20s %-20s\n", "op", "bytes", "default", "modeltuned",
                "(ran)", "best forced", "(name)", "mt/best", "mt/default");
    HandedBack back;
    PlotRatios op_ratios{opname, {}, {}};
    const auto &sizes = plan.sizes.at(op);
    for (size_t s = 0; s < sizes.size(); ++s) {
      const SizeRow row = size_row(op, s, back);
      print_row(opname, sizes[s], row);
      if (row.mt && row.def)
        op_ratios.versus_default.push_back({double(sizes[s]), row.mt->ci.median / row.def->ci.median});
      if (row.mt && row.best)
        op_ratios.versus_best.push_back({double(sizes[s]), row.mt->ci.median / row.best->ci.median});
    }
    ratios.push_back(std::move(op_ratios));
    for (const auto &[name, where] : back.sizes) {
      std::string list;
      for (const auto &w : where) list += (list.empty() ? "" : " ") + w;
      std::printf("note: %s forced %s was handed to Open MPI's default at: %s\n", opname.c_str(), name.c_str(),
                  list.c_str());
    }
    add_series(op, back.pairs);
  }

  // Returns false when the plot could not be drawn.
  bool draw() const {
    const auto figure = plot_figure(
        o.plot, series, ratios,
        fmt::format("np={}{}, median of {} reps, 95% CI", world_size, one_node ? ", one node" : "", t.rounds));
    try {
      std::printf("%s\n", calib::draw_figures(fs::path(o.plot).parent_path(), {figure}).summary.c_str());
      return true;
    } catch (const calib::PlotError &e) {
      std::fprintf(stderr, "%s: --plot %s: %s\n", kProgram, o.plot.c_str(), e.what());
      return false;
    }
  }

 private:
  const Options &o;
  const Plan &plan;
  const Setup &setup;
  const Timings &t;  // gathered
  bool one_node;
  uint64_t seed;
  std::vector<PairResult> results;  // per pair
  std::vector<PlotSeries> series;
  std::vector<PlotRatios> ratios;

  const Variant &variant(size_t k) const { return setup.variants[t.pairs[k].variant]; }
  uint64_t bytes(size_t k) const { return plan.sizes.at(variant(k).op)[t.pairs[k].size]; }

  // What ran: for modeltuned the algorithm it picked, for a forced variant whether it ran as
  // itself or was handed back to Open MPI's default (sizes the algorithm cannot run).
  std::string ran(size_t k) const {
    if (!setup.counted) return "";
    const auto &c = results[k].calls;
    const uint64_t total = std::accumulate(c.begin(), c.end(), uint64_t(0));
    if (total == 0) return "not-modeltuned";
    for (int a = 0; a < setup.counter_width; ++a)
      if (c[a] == total) {
        if (total != uint64_t(t.rounds) * world_size) return "partly-modeltuned";
        if (a == 0) return "fallback";
        const auto *info = find_algorithm(variant(k).op, a);
        return info ? std::string(info->name) : std::to_string(a);
      }
    return "mixed";
  }

  // The variants of `op` at its size number `s`. A forced variant handed back to the default did
  // not run its algorithm: it does not compete for "best forced" and goes to `back` instead.
  SizeRow size_row(Op op, size_t s, HandedBack &back) const {
    SizeRow row;
    for (size_t k = 0; k < t.pairs.size(); ++k) {
      const Variant &v = variant(k);
      if (v.op != op || t.pairs[k].size != int(s)) continue;
      if (v.name == "default") {
        row.def = &results[k];
      } else if (v.name == "modeltuned") {
        row.mt = &results[k];
        if (setup.counted) row.mt_ran = ran(k);
      } else if (const std::string r = ran(k); setup.counted && r != v.name) {
        back.pairs.insert(k);
        back.sizes[v.name].push_back(modeltuned::bytes_label(bytes(k)) + (r == "fallback" ? "" : "(" + r + ")"));
      } else if (!row.best || results[k].ci.median < row.best->ci.median) {
        row.best = &results[k];
        row.best_name = v.name;
      }
    }
    return row;
  }

  void print_row(const std::string &opname, uint64_t size, const SizeRow &row) const {
    std::printf("%-6s %9llu  %-26s %-26s %-22s %-26s %-22s %-20s %-20s\n", opname.c_str(), (unsigned long long)size,
                row.def ? ci_text(row.def->ci).c_str() : "-", row.mt ? ci_text(row.mt->ci).c_str() : "-",
                row.mt_ran.c_str(), row.best ? ci_text(row.best->ci).c_str() : "-", row.best_name.c_str(),
                row.mt && row.best ? ratio_text(row.mt->ci, row.best->ci).c_str() : "-",
                row.mt && row.def ? ratio_text(row.mt->ci, row.def->ci).c_str() : "-");
  }

  // One plot line per variant of `op`, without the sizes at which it was handed back.
  void add_series(Op op, const std::set<size_t> &handed_back) {
    for (size_t v = 0; v < setup.variants.size(); ++v) {
      if (setup.variants[v].op != op) continue;
      PlotSeries ps{std::string(op_name(op)), setup.variants[v].name, {}};
      for (size_t k = 0; k < t.pairs.size(); ++k)
        if (t.pairs[k].variant == int(v) && !handed_back.count(k))
          ps.points.push_back({double(bytes(k)), results[k].ci});
      series.push_back(std::move(ps));
    }
  }
};

}  // namespace

std::FILE *open_outputs(const Options &o) {
  std::string rank0_error;
  std::FILE *csv = nullptr;
  if (world_rank == 0 && !o.csv.empty()) {
    csv = std::fopen(o.csv.c_str(), "w");
    if (!csv)
      rank0_error = fmt::format("--csv {}: cannot write it ({}); pick a writable path", o.csv, std::strerror(errno));
  }
  if (world_rank == 0 && rank0_error.empty() && !o.plot.empty()) rank0_error = plot_preflight(o.plot);
  agree_or_exit(rank0_error);
  return csv;
}

int report(const Options &o, const Plan &plan, const Setup &setup, const Timings &t, bool one_node, uint64_t seed,
           std::FILE *csv) {
  Report r(o, plan, setup, t, one_node, seed);
  int status = 0;
  if (csv && !r.write_csv(csv)) status = 1;
  r.print_header();
  for (Op op : plan.ops) r.print_op(op);
  std::fflush(stdout);
  if (!o.plot.empty() && !r.draw()) status = 1;
  return status;
}

}  // namespace modeltuned::bench
