// Plots of a calibration: what `modeltuned fit --plot` and `modeltuned-calibrate --plot` draw.
#include "calib/plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "calib/regression.hpp"
#include "model/cost/channel_cost.hpp"

namespace modeltuned::calib {

// --plot: per channel, raw p2p samples with the fitted pieces and breakpoints (log-log), and
// gamma = T_flat / T_p2p against P for a few sizes, measured medians against the fits. Data files
// and one gnuplot script per plot go to `dir`; gnuplot (pngcairo) turns them into PNGs.
void write_plots(const CalibrationTable &table, const Samples &samples, const std::string &dir,
                 std::ostream &out) {
  namespace fs = std::filesystem;
  fs::create_directories(dir);
  std::vector<std::string> scripts;
  for (int c = 0; c < kChannels; ++c) {
    const ChannelTable &ch = table.channels[c];
    if (!ch.present) continue;
    const std::string name(kChannelNames[c]);
    // p2p: raw samples, then each piece drawn over its own range only.
    double lo = 1e300, hi = 0;
    {
      std::ofstream raw(dir + "/p2p_" + name + ".dat");
      raw << "# bytes latency_us\n";
      for (const auto &smp : samples.p2p)
        if (static_cast<int>(smp.channel) == c) {
          raw << smp.bytes << " " << smp.latency_us << "\n";
          lo = std::min(lo, smp.bytes);
          hi = std::max(hi, smp.bytes);
        }
    }
    std::ofstream fit(dir + "/p2p_" + name + "_fit.dat");
    fit << "# bytes model_us (one block per piece)\n";
    std::string arrows;
    double start = lo;
    for (size_t k = 0; k < ch.p2p.size(); ++k) {
      const HockneyPiece &piece = ch.p2p[k];
      const double end = std::isfinite(piece.upto_bytes) ? piece.upto_bytes : hi;
      // The piece covers (previous upto, upto]: from just above the previous breakpoint.
      const double from = k == 0 ? lo : std::nextafter(start, 1e300);
      for (int i = 0; i <= 64; ++i) {
        const double m = from * std::pow(end / from, i / 64.0);
        fit << m << " " << piece.alpha_us + piece.beta_us_per_byte * m << "\n";
      }
      fit << "\n\n";
      if (std::isfinite(piece.upto_bytes))
        arrows += "set arrow from " + std::to_string(piece.upto_bytes) + ", graph 0 to " +
                  std::to_string(piece.upto_bytes) + ", graph 1 nohead dt 2 lc rgb 'gray40'\n";
      start = end;
    }
    std::ofstream gp(dir + "/p2p_" + name + ".gp");
    gp << "set terminal pngcairo size 1000,700 noenhanced\nset output 'p2p_" << name << ".png'\n"
       << "set title 'point-to-point, " << name << " channel: raw samples, fitted pieces (dashed: breakpoints)'\n"
       << "set logscale xy\nset xlabel 'message size (bytes)'\nset ylabel 'one-way latency (us)'\n"
       << "set key top left\nset grid\n" << arrows
       << "plot 'p2p_" << name << ".dat' using 1:2 with points pt 7 ps 0.4 lc rgb '#80336699' title 'samples', \\\n"
       << "     'p2p_" << name << "_fit.dat' using 1:2 with lines lw 2 lc rgb '#cc2200' title 'fit'\n";
    scripts.push_back("p2p_" + name);

    // gamma vs P for up to four sizes spread over the measured ones, per kind.
    std::map<std::pair<int, double>, std::map<int, std::vector<double>>> measured;  // (kind, bytes) -> P -> times
    for (const auto &smp : samples.flat)
      if (static_cast<int>(smp.channel) == c) measured[{static_cast<int>(smp.kind), smp.bytes}][smp.p].push_back(smp.latency_us);
    std::string plots;
    const char *colors[] = {"#1b9e77", "#d95f02", "#7570b3", "#e7298a"};
    for (FlatTreeKind kind : {FlatTreeKind::fanout, FlatTreeKind::fanin}) {
      const std::vector<FlatTreeFit> &fits = kind == FlatTreeKind::fanin ? ch.fanin : ch.fanout;
      if (fits.empty()) continue;
      const std::string kind_name = kind == FlatTreeKind::fanout ? "fanout" : "fanin";
      for (int i = 0; i < 4 && i < static_cast<int>(fits.size()); ++i) {
        const size_t pick = fits.size() == 1 ? 0 : i * (fits.size() - 1) / std::min<size_t>(3, fits.size() - 1);
        if (i > 0 && pick == (i - 1) * (fits.size() - 1) / std::min<size_t>(3, fits.size() - 1)) continue;
        const FlatTreeFit &f = fits[pick];
        const double t_p2p = p2p_us(ch, f.bytes);
        const std::string stem = "gamma_" + name + "_" + kind_name + "_" + std::to_string(static_cast<long>(f.bytes));
        std::ofstream points(dir + "/" + stem + ".dat"), line(dir + "/" + stem + "_fit.dat");
        for (const auto &[p, ts] : measured[{static_cast<int>(kind), f.bytes}])
          points << p << " " << median(ts) / t_p2p << "\n";
        const int p_end = std::max(f.max_p, 8);
        for (int p = 2; p <= p_end; ++p)
          line << p << " " << f.time_us(p) / t_p2p << " " << (p <= f.max_p ? 1 : 0) << "\n";
        const std::string color = colors[i % 4];
        const std::string label = kind_name + " " + std::to_string(static_cast<long>(f.bytes)) + " B";
        plots += (plots.empty() ? "plot " : ", \\\n     ") + std::string("'") + stem + ".dat' using 1:2 with points pt " +
                 (kind == FlatTreeKind::fanout ? "7" : "5") + " lc rgb '" + color + "' title '" + label +
                 " measured', '" + stem + "_fit.dat' using 1:($3 > 0 ? $2 : 1/0) with lines lw 2 dt " +
                 (kind == FlatTreeKind::fanout ? "1" : "4") + " lc rgb '" + color + "' title '" + label +
                 " fit', '" + stem + "_fit.dat' using 1:($3 > 0 ? 1/0 : $2) with lines lw 1 dt 3 lc rgb '" + color +
                 "' notitle";
      }
    }
    std::ofstream gg(dir + "/gamma_" + name + ".gp");
    gg << "set terminal pngcairo size 1000,700 noenhanced\nset output 'gamma_" << name << ".png'\n"
       << "set title 'gamma = T_flat(P) / T_p2p, " << name
       << " channel (dotted: beyond max_p, extrapolated; the model clamps gamma >= 1)'\n"
       << "set xlabel 'P (root + peers)'\nset ylabel 'gamma'\nset key top left\nset grid\n"
       << "set yrange [0:*]\n" << plots << "\n";
    scripts.push_back("gamma_" + name);
  }
  const char *gnuplot = std::getenv("GNUPLOT");
  const std::string gp = gnuplot && *gnuplot ? gnuplot : "gnuplot";
  for (const std::string &stem : scripts) {
    const std::string command = "cd '" + dir + "' && '" + gp + "' " + stem + ".gp";
    if (std::system(command.c_str()) != 0)
      throw FitError("--plot: " + gp + " failed on " + dir + "/" + stem +
                            ".gp; install gnuplot-nox (pngcairo), the data and scripts are there");
  }
  out << "plots: " << scripts.size() << " PNGs in " << dir << "\n";
}

}  // namespace modeltuned::calib
