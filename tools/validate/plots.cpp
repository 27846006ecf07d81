// Drawing validate's figures (see plots.hpp).
#include "tools/validate/plots.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <sstream>

#include <fmt/format.h>

#include "calib/gnuplot.hpp"
#include "tools/validate/format.hpp"

namespace modeltuned::tools::validate {
namespace {

constexpr double kPlotSizes[] = {1, 65536};

// One PNG per op x algorithm x mapping: measured and every model against P, at 1 B and 64 KiB.
calib::Figure validation_figure(const std::string &stem, Op op, int alg, int m, const Measured &measured,
                                const Predictions &pred, const std::vector<std::string> &models) {
  std::ostringstream dat;
  for (double bytes : kPlotSizes) {
    dat << "# bytes " << bytes << "\n# P measured";
    for (const auto &name : models) dat << ' ' << name;
    dat << '\n';
    for (const auto &[k, us] : measured) {
      if (k.op != static_cast<int>(op) || k.algorithm != alg || k.mapping != m || k.bytes != bytes) continue;
      dat << k.p << ' ' << us;
      for (const auto &name : models) {
        auto mit = pred.find(name);
        auto it = mit == pred.end() ? decltype(mit->second.end()){} : mit->second.find(k);
        dat << ' ' << (mit != pred.end() && it != mit->second.end() ? num(it->second, 4) : "?");
      }
      dat << '\n';
    }
    dat << "\n\n";
  }
  std::ostringstream script;
  script << "set terminal pngcairo size 1100,420 font ',9'\nset output '" << stem << ".png"
         << "'\nset datafile missing '?'\nset key top left\nset xlabel 'P'\nset ylabel 'latency (us)'\n"
         << "set grid\nset multiplot layout 1,2 title '" << op_name(op) << " " << algorithm_label(op, alg)
         << ", map-by " << kMappings[m] << "'\n";
  for (int block = 0; block < 2; ++block) {
    script << "set title '" << (block == 0 ? "1 B" : "64 KiB") << "'\nplot '" << stem << ".dat"
           << "' index " << block << " using 1:2 with points pt 7 ps 0.6 lc rgb 'black' title 'measured'";
    const char *colors[] = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd"};
    for (size_t i = 0; i < models.size(); ++i)
      script << ", '' index " << block << " using 1:" << i + 3 << " with lines lw 2 lc rgb '" << colors[i % 4]
             << "' title '" << models[i] << "'";
    script << '\n';
  }
  script << "unset multiplot\n";
  return {stem, stem + ".png", script.str(), {{stem + ".dat", dat.str()}}};
}

}  // namespace

std::vector<std::string> write_plots(const fs::path &dir, const Measured &measured, const Predictions &pred,
                                     const std::vector<std::string> &models) {
  std::vector<calib::Figure> figures;
  for (Op op : {Op::bcast, Op::reduce})
    for (int alg : measured_algorithms(op))
      for (int m = 0; m < kMappingCount; ++m) {
        bool any = false;  // a measured point at one of the plotted sizes
        for (const auto &[k, us] : measured)
          any = any || (k.op == static_cast<int>(op) && k.algorithm == alg && k.mapping == m &&
                        std::find(std::begin(kPlotSizes), std::end(kPlotSizes), k.bytes) != std::end(kPlotSizes));
        if (!any) continue;
        const std::string stem = fmt::format("{}_{}_{}", op_name(op), algorithm_label(op, alg), kMappings[m]);
        figures.push_back(validation_figure(stem, op, alg, m, measured, pred, models));
      }
  calib::Drawn drawn;
  try {
    drawn = calib::draw_figures(dir, figures);
  } catch (const calib::PlotError &e) {
    throw ValidateError(fmt::format("{}; install gnuplot-nox (pngcairo) or use --no-plots", e.what()));
  }
  std::printf("%s\n", drawn.summary.c_str());
  std::vector<std::string> written;
  if (drawn.images)
    for (const auto &f : figures) written.push_back(f.image);
  return written;
}

}  // namespace modeltuned::tools::validate
