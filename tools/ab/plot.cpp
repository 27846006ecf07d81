#include "tools/ab/plot.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace modeltuned::ab {
namespace {

using calib::gnuplot_quoted;

// Tics at powers of 4 within the sizes, labelled 1, 4, ..., 1K, 4K, ...
std::string xtics(uint64_t lo, uint64_t hi) {
  std::string tics;
  for (uint64_t b = 1; b <= hi; b *= 4)
    if (b >= lo) tics += (tics.empty() ? "" : ", ") + fmt::format("\"{}\" {}", size_label(b), b);
  return tics.empty() ? "" : "set xtics (" + tics + ")\n";
}

// Size 0 has no place on a log axis, and a size without a ratio no point.
std::string data_rows(const TableResult &t) {
  std::string rows = "# bytes ratio low high\n";
  for (const SizeResult &s : t.sizes)
    if (s.size > 0 && s.valid() && std::isfinite(s.ratio.low))
      rows += fmt::format("{} {:.6g} {:.6g} {:.6g}\n", s.size, s.ratio.geomean, s.ratio.low, s.ratio.high);
  return rows;
}

calib::Figure table_figure(const TableResult &t, size_t index, const std::vector<double> &thresholds, double level) {
  const std::string name = fmt::format("table-{}", index), data = name + ".dat";
  uint64_t lo = UINT64_MAX, hi = 0;
  for (const SizeResult &s : t.sizes)
    if (s.size > 0) lo = std::min(lo, s.size), hi = std::max(hi, s.size);
  std::string script = "set terminal pngcairo size 900,520 font 'Sans,10'\nset termoption noenhanced\n";
  script += "set output " + gnuplot_quoted(name + ".png") + "\n";
  script += "set title " + gnuplot_quoted(t.name) + "\n";
  script += "set logscale x 2\n" + xtics(lo, hi) + "set xrange [" + fmt::format("{}:{}", lo / 1.5, hi * 1.5) + "]\n";
  script += "set xlabel 'message size (bytes)'\nset ylabel 'modeltuned / baseline time'\n";
  script += "set grid lc rgb '#dddddd'\nset key outside right top box\n";
  script += "plot " + gnuplot_quoted(data) +
            fmt::format(" using 1:2:3:4 with yerrorlines lw 2 pt 7 lc rgb '#d62728' title 'ratio, {:g}% interval'",
                        level * 100);
  script += ", 1 with lines lw 1.5 lc rgb 'black' title '1'";
  const char *colours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd"};
  for (size_t i = 0; i < thresholds.size(); ++i)
    if (thresholds[i] != 1)
      script += fmt::format(", {:g} with lines dt 2 lc rgb '{}' title '{:.2f}'", thresholds[i], colours[i % 4],
                            thresholds[i]);
  script += "\n";
  return {name, name + ".png", script, {{data, data_rows(t)}}};
}

}  // namespace

std::vector<calib::Figure> ratio_figures(const Analysis &a, const std::vector<double> &thresholds, double level) {
  std::vector<calib::Figure> figures;
  for (size_t t = 0; t < a.tables.size(); ++t) {
    const auto &sizes = a.tables[t].sizes;
    if (std::any_of(sizes.begin(), sizes.end(), [](const SizeResult &s) { return s.size > 0 && s.valid(); }))
      figures.push_back(table_figure(a.tables[t], t + 1, thresholds, level));
  }
  return figures;
}

}  // namespace modeltuned::ab
