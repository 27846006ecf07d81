// Writing validate's CSV files (see csv_output.hpp).
#include "tools/validate/csv_output.hpp"

#include <cmath>
#include <fstream>

#include <fmt/format.h>

#include "tools/validate/format.hpp"

namespace modeltuned::tools::validate {

void write_accuracy_csv(const fs::path &path, const std::vector<AccuracyRow> &rows) {
  std::ofstream out(path);
  out << "model,op,algorithm,mapping,r2_1B,r2_log_all,mdape_all\n";
  for (const auto &r : rows)
    out << r.model << ',' << op_name(r.op) << ',' << algorithm_label(r.op, r.algorithm) << ',' << kMappings[r.mapping]
        << ',' << num(r.r2_1b, 4) << ',' << num(r.r2_log, 4) << ',' << num(r.mdape_all, 2) << '\n';
  if (!out) throw ValidateError(fmt::format("{}: cannot write; check --out", path.string()));
}

void write_selection_csv(const fs::path &path, const std::vector<SelectionRow> &rows) {
  std::ofstream out(path);
  out << "model,op,mapping,scored_against,cases,regret_geomean,regret_p95,regret_worst,speedup_vs_default_geomean,"
         "protocol,check_sizes,calibration_seconds\n";
  for (const auto &r : rows)
    out << r.model << ',' << op_name(r.op) << ',' << kMappings[r.mapping] << ',' << r.scored_against << ',' << r.cases
        << ',' << num(r.regret_geomean, 4) << ',' << num(r.regret_p95, 4) << ',' << num(r.regret_worst, 4) << ','
        << num(r.speedup_vs_default, 4) << ',' << r.protocol << ',' << r.check_sizes << ','
        << (std::isnan(r.calibration_seconds) ? "" : num(r.calibration_seconds, 1)) << '\n';
  if (!out) throw ValidateError(fmt::format("{}: cannot write; check --out", path.string()));
}

void write_decisions_csv(const fs::path &path, const std::vector<SelectionRow> &rows) {
  std::ofstream out(path);
  out << "model,op,mapping,scored_against,p,bytes,pick,best,pick_us,best_us,default_us,regret,protocol\n";
  for (const auto &r : rows)
    for (const auto &d : r.decisions)
      out << r.model << ',' << op_name(r.op) << ',' << kMappings[r.mapping] << ',' << r.scored_against << ',' << d.p
          << ',' << d.bytes << ',' << algorithm_label(r.op, d.pick) << ',' << algorithm_label(r.op, d.best) << ','
          << num(d.pick_us, 3) << ',' << num(d.best_us, 3) << ',' << num(d.default_us, 3) << ','
          << num(d.pick_us / d.best_us, 4) << ',' << r.protocol << '\n';
  if (!out) throw ValidateError(fmt::format("{}: cannot write; check --out", path.string()));
}

void write_predictions_csv(const fs::path &path, const Measured &measured, const Measured &measured_max,
                           const Predictions &pred, const std::vector<std::string> &models) {
  std::ofstream out(path);
  out << "op,algorithm,mapping,p,bytes,measured,measured_max";
  for (const auto &m : models) out << ',' << m;
  out << '\n';
  for (const auto &[k, us] : measured) {
    const Op op = static_cast<Op>(k.op);
    auto max_it = measured_max.find(k);
    out << op_name(op) << ',' << algorithm_label(op, k.algorithm) << ',' << kMappings[k.mapping] << ',' << k.p << ','
        << k.bytes << ',' << us << ',' << (max_it == measured_max.end() ? "" : num(max_it->second, 2));
    for (const auto &m : models) {
      out << ',';
      auto mit = pred.find(m);
      if (mit == pred.end()) continue;
      auto it = mit->second.find(k);
      if (it != mit->second.end()) out << num(it->second, 3);
    }
    out << '\n';
  }
  if (!out) throw ValidateError(fmt::format("{}: cannot write; check --out", path.string()));
}

}  // namespace modeltuned::tools::validate
