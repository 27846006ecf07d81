#include "tools/bench/plot.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include <fmt/format.h>

namespace fs = std::filesystem;

namespace modeltuned::bench {
namespace {

// $GNUPLOT, else the one configure found, else gnuplot from PATH.
std::string gnuplot_program() {
  if (const char *g = std::getenv("GNUPLOT"); g && *g) return g;
#ifdef MODELTUNED_GNUPLOT
  if (*MODELTUNED_GNUPLOT) return MODELTUNED_GNUPLOT;
#endif
  return "gnuplot";
}

bool executable(const std::string &program) {
  if (program.find('/') != std::string::npos) return access(program.c_str(), X_OK) == 0;
  const char *path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t at = 0;
  while (at <= dirs.size()) {
    size_t end = dirs.find(':', at);
    if (end == std::string::npos) end = dirs.size();
    if (access((dirs.substr(at, end - at) + "/" + program).c_str(), X_OK) == 0) return true;
    at = end + 1;
  }
  return false;
}

std::string quoted(const std::string &s) {  // a gnuplot single-quoted string
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

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

}  // namespace

std::string plot_preflight(const std::string &path) {
  const std::string gnuplot = gnuplot_program();
  if (!executable(gnuplot))
    return fmt::format("--plot needs gnuplot, and '{}' was not found; install it (apt-get install gnuplot-nox) "
                       "or set GNUPLOT=/path/to/gnuplot", gnuplot);
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  if (access(dir.c_str(), W_OK) != 0)
    return fmt::format("--plot {}: cannot write in directory {} ({}); pick another path", path, dir.string(),
                       std::strerror(errno));
  return "";
}

std::string draw_plot(const std::string &path, const std::vector<PlotSeries> &series,
                      const std::vector<PlotRatios> &ratios, const std::string &subtitle) {
  char templ[] = "/tmp/modeltuned-bench-plot-XXXXXX";
  if (!mkdtemp(templ)) return fmt::format("cannot create a temporary directory: {}", std::strerror(errno));
  const fs::path work = templ;
  struct Cleanup {
    fs::path dir;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } cleanup{work};

  std::vector<std::string> ops;
  for (const auto &r : ratios)
    if (std::find(ops.begin(), ops.end(), r.op) == ops.end()) ops.push_back(r.op);
  if (ops.empty()) return "nothing was measured";

  const bool svg = fs::path(path).extension() == ".svg";
  const int width = 760 * static_cast<int>(ops.size()), height = 860;
  std::string script = svg ? fmt::format("set terminal svg size {},{} dynamic font 'Sans,11'\n", width, height)
                           : fmt::format("set terminal pngcairo size {},{} font 'Sans,10'\n", width, height);
  script += "set termoption noenhanced\nset output " + quoted(path) + "\n";
  script += "set multiplot title " + quoted("modeltuned-bench: " + subtitle) + "\n";
  script += "set grid xtics ytics mytics lc rgb '#dddddd'\nset logscale x 2\n";

  for (size_t column = 0; column < ops.size(); ++column) {
    const std::string &op = ops[column];
    double lo = 1e300, hi = 0;
    for (const auto &s : series)
      if (s.op == op)
        for (const auto &p : s.points) lo = std::min(lo, p.bytes), hi = std::max(hi, p.bytes);
    if (hi == 0) continue;
    const double x0 = double(column) / ops.size(), w = 1.0 / ops.size();

    // Latency panel.
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
      const fs::path data = work / (op + "-" + s->variant + ".dat");
      std::ofstream out(data);
      for (const auto &p : s->points) {
        const double m = p.latency_us.median;
        out << p.bytes << ' ' << m << ' ' << p.latency_us.low.value_or(m) << ' ' << p.latency_us.high.value_or(m) << '\n';
      }
      if (!out.good()) return fmt::format("cannot write {}", data.string());
      std::string style;
      if (s->variant == "default")
        style = "with yerrorlines lw 3 lc rgb 'black' pt 7 ps 0.7 title 'Open MPI default'";
      else if (s->variant == "modeltuned")
        style = "with yerrorlines lw 3 lc rgb '#d62728' pt 5 ps 0.7 title 'modeltuned'";
      else
        style = fmt::format("using 1:2 with linespoints lw 1.2 dt 2 pt 7 ps 0.35 lc rgb '{}' title {}",
                            kForcedColours[forced_index++ % std::size(kForcedColours)],
                            quoted("forced " + s->variant));
      plots += (plots.empty() ? "" : ", ") + quoted(data.string()) + " " + style;
    }
    script += fmt::format("set origin {},{}\nset size {},{}\n", x0, 0.30, w, 0.65);
    script += "set logscale y 10\nunset yrange\nset format y '%g'\n" + xtics(lo, hi);
    script += "set xlabel 'message size (bytes)'\nset ylabel 'latency (us)'\n";
    script += "set key top left font ',8' spacing 0.9 box opaque\n";
    script += "set title " + quoted("MPI_" + std::string(op == "bcast" ? "Bcast" : "Reduce")) + "\n";
    script += "plot " + plots + "\n";

    // Ratio panel: below 1, modeltuned is faster.
    std::string ratio_plots = "1 with lines lc rgb '#888888' dt 3 notitle";
    for (const auto &r : ratios) {
      if (r.op != op) continue;
      for (int which = 0; which < 2; ++which) {
        const auto &points = which ? r.versus_best : r.versus_default;
        if (points.empty()) continue;
        const fs::path data = work / (op + (which ? "-vs-best.dat" : "-vs-default.dat"));
        std::ofstream out(data);
        for (const auto &[bytes, ratio] : points) out << bytes << ' ' << ratio << '\n';
        if (!out.good()) return fmt::format("cannot write {}", data.string());
        ratio_plots += ", " + quoted(data.string()) +
                       (which ? " with linespoints lw 2 pt 9 ps 0.6 lc rgb '#1f77b4' title 'modeltuned / best forced'"
                              : " with linespoints lw 2 pt 7 ps 0.6 lc rgb 'black' title 'modeltuned / default'");
      }
    }
    script += fmt::format("set origin {},{}\nset size {},{}\n", x0, 0.0, w, 0.30);
    script += "set logscale y 2\nset yrange [*:*]\nset ytics (0.125, 0.25, 0.5, 1, 2, 4, 8)\n";
    script += "set ylabel 'ratio of medians'\nset title ''\nset key top left font ',8' box opaque\n";
    script += "plot " + ratio_plots + "\nset ytics autofreq\n";
  }
  script += "unset multiplot\n";

  const fs::path script_path = work / "plot.gp";
  {
    std::ofstream out(script_path);
    out << script;
    if (!out.good()) return fmt::format("cannot write {}", script_path.string());
  }
  const fs::path log = work / "gnuplot.log";
  const std::string command = "'" + gnuplot_program() + "' '" + script_path.string() + "' > '" + log.string() + "' 2>&1";
  const int rc = std::system(command.c_str());
  if (rc != 0) {
    std::ifstream in(log);
    std::string first;
    std::getline(in, first);
    return fmt::format("gnuplot failed (status {}): {}", rc, first);
  }
  std::error_code ec;
  if (!fs::exists(path, ec) || fs::file_size(path, ec) == 0) return "gnuplot wrote no file";
  return "";
}

}  // namespace modeltuned::bench
