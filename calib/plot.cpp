// Plots of a calibration: what `modeltuned fit --plot` and `modeltuned-calibrate --plot` draw.
#include "calib/plot.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "calib/gnuplot.hpp"
#include "calib/regression.hpp"
#include "model/cost/channel_cost.hpp"

namespace modeltuned::calib {
namespace {

// Raw p2p samples of one channel, each fitted piece over its own range, dashed breakpoints.
Figure p2p_figure(const ChannelTable &ch, int c, const std::string &name, const Samples &samples) {
  Figure fig{"p2p_" + name, "p2p_" + name + ".png", "", {}};
  // p2p: raw samples, then each piece drawn over its own range only.
  double lo = 1e300, hi = 0;
  {
    std::ostringstream raw;
    raw << "# bytes latency_us\n";
    for (const auto &smp : samples.p2p)
      if (static_cast<int>(smp.channel) == c) {
        raw << smp.bytes << " " << smp.latency_us << "\n";
        lo = std::min(lo, smp.bytes);
        hi = std::max(hi, smp.bytes);
      }
    fig.data.emplace_back("p2p_" + name + ".dat", raw.str());
  }
  std::ostringstream fit;
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
  fig.data.emplace_back("p2p_" + name + "_fit.dat", fit.str());
  std::ostringstream gp;
  gp << "set terminal pngcairo size 1000,700 noenhanced\nset output 'p2p_" << name << ".png'\n"
     << "set title 'point-to-point, " << name << " channel: raw samples, fitted pieces (dashed: breakpoints)'\n"
     << "set logscale xy\nset xlabel 'message size (bytes)'\nset ylabel 'one-way latency (us)'\n"
     << "set key top left\nset grid\n"
     << arrows << "plot 'p2p_" << name
     << ".dat' using 1:2 with points pt 7 ps 0.4 lc rgb '#80336699' title 'samples', \\\n"
     << "     'p2p_" << name << "_fit.dat' using 1:2 with lines lw 2 lc rgb '#cc2200' title 'fit'\n";
  fig.script = gp.str();
  return fig;
}

// gamma vs P for up to four sizes spread over the measured ones, per kind.
Figure gamma_figure(const ChannelTable &ch, int c, const std::string &name, const Samples &samples) {
  Figure fig{"gamma_" + name, "gamma_" + name + ".png", "", {}};
  std::map<std::pair<int, double>, std::map<int, std::vector<double>>> measured;  // (kind, bytes) -> P -> times
  for (const auto &smp : samples.flat)
    if (static_cast<int>(smp.channel) == c)
      measured[{static_cast<int>(smp.kind), smp.bytes}][smp.p].push_back(smp.latency_us);
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
      std::ostringstream points, line;
      for (const auto &[p, ts] : measured[{static_cast<int>(kind), f.bytes}])
        points << p << " " << median(ts) / t_p2p << "\n";
      const int p_end = std::max(f.max_p, 8);
      for (int p = 2; p <= p_end; ++p)
        line << p << " " << f.time_us(p) / t_p2p << " " << (p <= f.max_p ? 1 : 0) << "\n";
      fig.data.emplace_back(stem + ".dat", points.str());
      fig.data.emplace_back(stem + "_fit.dat", line.str());
      const std::string color = colors[i % 4];
      const std::string label = kind_name + " " + std::to_string(static_cast<long>(f.bytes)) + " B";
      plots += (plots.empty() ? "plot " : ", \\\n     ") + std::string("'") + stem + ".dat' using 1:2 with points pt " +
               (kind == FlatTreeKind::fanout ? "7" : "5") + " lc rgb '" + color + "' title '" + label +
               " measured', '" + stem + "_fit.dat' using 1:($3 > 0 ? $2 : 1/0) with lines lw 2 dt " +
               (kind == FlatTreeKind::fanout ? "1" : "4") + " lc rgb '" + color + "' title '" + label + " fit', '" +
               stem + "_fit.dat' using 1:($3 > 0 ? 1/0 : $2) with lines lw 1 dt 3 lc rgb '" + color + "' notitle";
    }
  }
  std::ostringstream gg;
  gg << "set terminal pngcairo size 1000,700 noenhanced\nset output 'gamma_" << name << ".png'\n"
     << "set title 'gamma = T_flat(P) / T_p2p, " << name
     << " channel (dotted: beyond max_p, extrapolated; the model clamps gamma >= 1)'\n"
     << "set xlabel 'P (root + peers)'\nset ylabel 'gamma'\nset key top left\nset grid\n"
     << "set yrange [0:*]\n"
     << plots << "\n";
  fig.script = gg.str();
  return fig;
}

// Relay: per size, each run's (ring - hops) / 2 and the table's points.
Figure relay_figure(const ChannelTable &ch, int c, const std::string &name, const Samples &samples) {
  Figure fig{"relay_" + name, "relay_" + name + ".png", "", {}};
  std::map<double, std::vector<double>> ring, hops;
  for (const auto &smp : samples.relay)
    if (static_cast<int>(smp.channel) == c)
      (smp.kind == RelayKind::ring ? ring : hops)[smp.bytes].push_back(smp.latency_us);
  std::ostringstream runs, fit;
  runs << "# bytes (ring - hops) / 2 per run, us (runs paired in order)\n";
  for (const auto &[bytes, rings] : ring) {
    const auto &h = hops[bytes];
    for (size_t i = 0; i < rings.size() && i < h.size(); ++i) runs << bytes << " " << (rings[i] - h[i]) / 2 << "\n";
  }
  fit << "# bytes relay_us (table)\n";
  for (auto [bytes, us] : ch.relay) fit << bytes << " " << us << "\n";
  fig.data.emplace_back("relay_" + name + ".dat", runs.str());
  fig.data.emplace_back("relay_" + name + "_fit.dat", fit.str());
  std::ostringstream gp;
  gp << "set terminal pngcairo size 1000,700 noenhanced\nset output 'relay_" << name << ".png'\n"
     << "set title 'relay, " << name
     << " channel: (3-rank ring - its hops as half round trips) / 2 per run, and the table'\n"
     << "set logscale x\nset xlabel 'message size (bytes)'\nset ylabel 'forwarding cost beyond a message (us)'\n"
     << "set key top left\nset grid\n"
     << "plot 'relay_" << name << ".dat' using 1:2 with points pt 7 ps 0.5 lc rgb '#80336699' title 'runs', \\\n"
     << "     'relay_" << name << "_fit.dat' using 1:2 with linespoints lw 2 lc rgb '#cc2200' title 'table'\n";
  fig.script = gp.str();
  return fig;
}

}  // namespace

void write_plots(const CalibrationTable &table, const Samples &samples, const std::string &dir, std::ostream &out) {
  std::vector<Figure> figures;
  for (int c = 0; c < kChannels; ++c) {
    const ChannelTable &ch = table.channels[c];
    if (!ch.present) continue;
    const std::string name(kChannelNames[c]);
    figures.push_back(p2p_figure(ch, c, name, samples));
    figures.push_back(gamma_figure(ch, c, name, samples));
    if (!ch.relay.empty()) figures.push_back(relay_figure(ch, c, name, samples));
  }
  out << draw_figures(dir, figures).summary << "\n";
}

}  // namespace modeltuned::calib
