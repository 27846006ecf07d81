#include "tools/ab/report.hpp"

#include <cmath>

#include <fmt/format.h>

namespace modeltuned::ab {
namespace {

// Three decimals, as far as they mean something.
std::string ratio_text(double r) { return r < 100 ? fmt::format("{:.3f}", r) : fmt::format("{:.3g}", r); }

std::string interval(const RatioCi &ci) {
  if (std::isnan(ci.low)) return "[no interval]";
  return fmt::format("[{}, {}]", ratio_text(ci.low), ratio_text(ci.high));
}

// Times as benchmarks print them, three or four significant digits.
std::string time_text(double v) {
  if (!std::isfinite(v)) return "n/a";
  return std::abs(v) < 10     ? fmt::format("{:.3f}", v)
         : std::abs(v) < 1000 ? fmt::format("{:.2f}", v)
                              : fmt::format("{:.0f}", v);
}

std::string ratio_line(const std::string &what, const RatioCi &ci, const std::vector<double> &thresholds) {
  if (std::isnan(ci.geomean)) return what + ": n/a (a time was not positive)";
  const std::string mark = significance_mark(ci, thresholds);
  return fmt::format("{}: {} {}{}{}", what, ratio_text(ci.geomean), interval(ci), mark.empty() ? "" : "  ", mark);
}

void print_header(std::FILE *out, const ReportContext &c) {
  fmt::print(out, "modeltuned ab: {} rounds after {} warm-up pair{}, baseline first in odd rounds\n", c.rounds,
             c.warmup, c.warmup == 1 ? "" : "s");
  fmt::print(out, "  command:    {}\n", c.command);
  fmt::print(out, "  baseline:   {}\n", c.baseline_change);
  fmt::print(out, "  modeltuned: the command as given{}{}\n", c.modeltuned_change.empty() ? "" : ", with ",
             c.modeltuned_change);
  fmt::print(out, "  ratio = modeltuned / baseline; geometric mean over rounds [{:g}% interval, Student's t on ln]\n",
             c.level * 100);
  for (const std::string &line : c.scored) fmt::print(out, "  scored:     {}\n", line);
}

void print_wall(std::FILE *out, const ReportContext &c, const Analysis &a) {
  fmt::print(out, "\n{}   baseline {:.3g} s, modeltuned {:.3g} s\n", ratio_line("wall time", a.wall, c.thresholds),
             a.wall_baseline, a.wall_modeltuned);
  std::string rounds;
  for (double r : a.wall_ratios) rounds += fmt::format(" {:.3f}", r);
  fmt::print(out, "  per round:{}\n", rounds);
}

// "significantly slower than 1.05: 4K, 8K; faster than 0.952: none" (0.952 = 1/1.05)
void print_thresholds(std::FILE *out, const ReportContext &c, const TableResult &t) {
  for (double x : c.thresholds) {
    std::string slower, faster;
    for (const SizeResult &s : t.sizes) {
      if (significantly_above(s.ratio, x)) slower += (slower.empty() ? "" : ", ") + size_label(s.size);
      if (significantly_below(s.ratio, 1 / x)) faster += (faster.empty() ? "" : ", ") + size_label(s.size);
    }
    fmt::print(out, "  significantly slower than {:.2f}: {}; faster than {:.3g}: {}\n", x,
               slower.empty() ? "none" : slower, 1 / x, faster.empty() ? "none" : faster);
  }
}

void print_table(std::FILE *out, const ReportContext &c, const TableResult &t) {
  fmt::print(out, "\n{}\n", t.name);
  fmt::print(out, "  {}\n",
             ratio_line(fmt::format("time column {}, geometric mean over {} sizes", t.column, t.sizes.size()), t.ratio,
                        c.thresholds));
  fmt::print(out, "  {:>8} {:>12} {:>12} {:>8}  interval\n", "size", "baseline", "modeltuned", "ratio");
  for (const SizeResult &s : t.sizes) {
    if (!s.valid()) {
      fmt::print(out, "  {:>8} {:>12} {:>12} {:>8}  (a time was not positive)\n", size_label(s.size),
                 time_text(s.baseline), time_text(s.modeltuned), "n/a");
      continue;
    }
    std::string row = fmt::format("  {:>8} {:>12} {:>12} {:>8}  {:<16}  {}", size_label(s.size), time_text(s.baseline),
                                  time_text(s.modeltuned), ratio_text(s.ratio.geomean), interval(s.ratio),
                                  significance_mark(s.ratio, c.thresholds));
    row.erase(row.find_last_not_of(' ') + 1);
    fmt::print(out, "{}\n", row);
  }
  print_thresholds(out, c, t);
}

}  // namespace

std::string significance_mark(const RatioCi &ci, const std::vector<double> &thresholds) {
  std::string mark;
  for (double x : thresholds) {
    if (significantly_above(ci, x)) mark = fmt::format("slower >{:.2f}", x);
    if (significantly_below(ci, 1 / x)) mark = fmt::format("faster <{:.3g}", 1 / x);
  }
  return mark;
}

void print_report(std::FILE *out, const ReportContext &context, const Analysis &analysis) {
  print_header(out, context);
  print_wall(out, context, analysis);
  if (analysis.tables.empty()) fmt::print(out, "\nno size table in the jobs' output: only the wall time compared\n");
  for (const TableResult &t : analysis.tables) print_table(out, context, t);
  std::fflush(out);
}

}  // namespace modeltuned::ab
