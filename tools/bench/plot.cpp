#include "tools/bench/plot.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

namespace fs = std::filesystem;

namespace modeltuned::bench {
namespace {

using calib::gnuplot_quoted;

std::string size_label(double b) {
  const auto v = static_cast<unsigned long long>(b);
  if (v >= (1ull << 20) && v % (1ull << 20) == 0) return fmt::format("{}M", v >> 20);
  if (v >= (1ull << 10) && v % (1ull << 10) == 0) return fmt::format("{}K", v >> 10);
  return fmt::format("{}", v);
}

// Tics at powers of 4 within the measured range, labelled 1, 4, 16, ..., 1K, 4K, ..., 4M.
std::string xtics(double lo, double hi) {
  std::string tics;
  for (double b = 1; b <= hi * 1.001; b *= 4)
    if (b >= lo / 1.001) tics += (tics.empty() ? "" : ", ") + fmt::format("\"{}\" {}", size_label(b), b);
  return "set xtics (" + tics + ")\n";
}

// Forced algorithms: thin dashed lines in distinct colours; default and modeltuned stand out.
const char *kForcedColours[] = {"#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2",
                                "#17becf", "#bcbd22", "#ff7f0e", "#7f7f7f"};

// All series go into one data file, one gnuplot data block each (`index N`), so the plot adds
// two files beside the image, NAME.dat and NAME.gp.
class Blocks {
 public:
  explicit Blocks(std::string file) : file_(std::move(file)) {}
  // Starts a block named `title` (a comment line) and returns how the script refers to it.
  std::string add(const std::string &title, const std::string &rows) {
    text_ += fmt::format("{}# {}\n{}", count_ ? "\n\n" : "", title, rows);
    return gnuplot_quoted(file_) + fmt::format(" index {}", count_++);
  }
  const std::string &text() const { return text_; }

 private:
  std::string file_, text_;
  int count_ = 0;
};

}  // namespace

std::string plot_preflight(const std::string &path) {
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  if (access(dir.c_str(), W_OK) != 0)
    return fmt::format("--plot {}: cannot write in directory {} ({}); pick another path", path, dir.string(),
                       std::strerror(errno));
  return "";
}

namespace {

// Latency of every variant of `op` against size (the upper panel's plot command).
std::string latency_plots(const std::string &op, const std::vector<PlotSeries> &series, Blocks &data) {
  std::string plots;
  int forced_index = 0;
  std::vector<const PlotSeries *> ordered;  // forced first, so the highlighted lines draw on top
  for (const auto &s : series)
    if (s.op == op && s.variant != "default" && s.variant != "modeltuned") ordered.push_back(&s);
  for (const char *name : {"default", "modeltuned"})
    for (const auto &s : series)
      if (s.op == op && s.variant == name) ordered.push_back(&s);
  for (const PlotSeries *s : ordered) {
    if (s->points.empty()) continue;
    std::string rows;
    for (const auto &p : s->points) {
      const double m = p.latency_us.median;
      rows += fmt::format("{:.0f} {:.6g} {:.6g} {:.6g}\n", p.bytes, m, p.latency_us.low.value_or(m),
                          p.latency_us.high.value_or(m));
    }
    std::string style;
    if (s->variant == "default")
      style = "with yerrorlines lw 3 lc rgb 'black' pt 7 ps 0.7 title 'Open MPI default'";
    else if (s->variant == "modeltuned")
      style = "with yerrorlines lw 3 lc rgb '#d62728' pt 5 ps 0.7 title 'modeltuned'";
    else
      style = fmt::format("using 1:2 with linespoints lw 1.2 dt 2 pt 7 ps 0.35 lc rgb '{}' title {}",
                          kForcedColours[forced_index++ % std::size(kForcedColours)],
                          gnuplot_quoted("forced " + s->variant));
    plots += (plots.empty() ? "" : ", ") + data.add(op + " " + s->variant + ": bytes median_us low_us high_us", rows) +
             " " + style;
  }
  return plots;
}

// modeltuned's ratio to the default and to the best forced algorithm (the lower panel's): below
// 1, modeltuned is faster.
std::string ratio_plots(const std::string &op, const std::vector<PlotRatios> &ratios, Blocks &data) {
  std::string plots = "1 with lines lc rgb '#888888' dt 3 notitle";
  for (const auto &r : ratios) {
    if (r.op != op) continue;
    for (int which = 0; which < 2; ++which) {
      const auto &points = which ? r.versus_best : r.versus_default;
      if (points.empty()) continue;
      std::string rows;
      for (const auto &[bytes, ratio] : points) rows += fmt::format("{:.0f} {:.6g}\n", bytes, ratio);
      plots +=
          ", " +
          data.add(op + (which ? " modeltuned / best forced" : " modeltuned / default") + ": bytes ratio_of_medians",
                   rows) +
          (which ? " with linespoints lw 2 pt 9 ps 0.6 lc rgb '#1f77b4' title 'modeltuned / best forced'"
                 : " with linespoints lw 2 pt 7 ps 0.6 lc rgb 'black' title 'modeltuned / default'");
    }
  }
  return plots;
}

}  // namespace

calib::Figure plot_figure(const std::string &path, const std::vector<PlotSeries> &series,
                          const std::vector<PlotRatios> &ratios, const std::string &subtitle) {
  const fs::path image = fs::path(path).filename();
  const std::string name = image.stem().string();
  Blocks data(name + ".dat");

  std::vector<std::string> ops;
  for (const auto &r : ratios)
    if (std::find(ops.begin(), ops.end(), r.op) == ops.end()) ops.push_back(r.op);

  const bool svg = image.extension() == ".svg";
  const int width = 760 * static_cast<int>(std::max<size_t>(ops.size(), 1)), height = 860;
  std::string script = svg ? fmt::format("set terminal svg size {},{} dynamic font 'Sans,11'\n", width, height)
                           : fmt::format("set terminal pngcairo size {},{} font 'Sans,10'\n", width, height);
  script += "set termoption noenhanced\nset output " + gnuplot_quoted(image.string()) + "\n";
  script += "set multiplot title " + gnuplot_quoted("modeltuned-bench: " + subtitle) + "\n";
  script += "set grid xtics ytics mytics lc rgb '#dddddd'\nset logscale x 2\n";

  for (size_t column = 0; column < ops.size(); ++column) {  // one column of two panels per op
    const std::string &op = ops[column];
    double lo = 1e300, hi = 0;
    for (const auto &s : series)
      if (s.op == op)
        for (const auto &p : s.points) lo = std::min(lo, p.bytes), hi = std::max(hi, p.bytes);
    if (hi == 0) continue;
    const double x0 = double(column) / ops.size(), w = 1.0 / ops.size();
    script += fmt::format("set origin {},{}\nset size {},{}\n", x0, 0.30, w, 0.65);
    script += "set logscale y 10\nunset yrange\nset format y '%g'\n" + xtics(lo, hi);
    script += "set xlabel 'message size (bytes)'\nset ylabel 'latency (us)'\n";
    script += "set key top left font ',8' spacing 0.9 box opaque\n";
    const std::string title = op == "bcast" ? "Bcast" : op == "reduce" ? "Reduce" : "Allreduce";
    script += "set title " + gnuplot_quoted("MPI_" + title) + "\n";
    script += "plot " + latency_plots(op, series, data) + "\n";
    script += fmt::format("set origin {},{}\nset size {},{}\n", x0, 0.0, w, 0.30);
    script += "set logscale y 2\nset yrange [*:*]\nset ytics (0.125, 0.25, 0.5, 1, 2, 4, 8)\n";
    script += "set ylabel 'ratio of medians'\nset title ''\nset key top left font ',8' box opaque\n";
    script += "plot " + ratio_plots(op, ratios, data) + "\nset ytics autofreq\n";
  }
  script += "unset multiplot\n";
  return {name, image.string(), script, {{name + ".dat", data.text()}}};
}

}  // namespace modeltuned::bench
