#include "tools/ab/analysis.hpp"

#include <cmath>

namespace modeltuned::ab {
namespace {

SizeResult size_result(const std::vector<Round> &rounds, size_t table, size_t row, double level) {
  SizeResult out;
  out.size = rounds.front().baseline.tables[table].sizes[row];
  std::vector<double> baseline, modeltuned;
  for (const Round &r : rounds) {
    baseline.push_back(r.baseline.tables[table].values[row]);
    modeltuned.push_back(r.modeltuned.tables[table].values[row]);
    out.ratios.push_back(modeltuned.back() / baseline.back());
  }
  out.baseline = geometric_mean(baseline);
  out.modeltuned = geometric_mean(modeltuned);
  out.ratio = ratio_ci(out.ratios, level);
  return out;
}

TableResult table_result(const std::vector<Round> &rounds, size_t table, double level) {
  const SizeTable &first = rounds.front().baseline.tables[table];
  TableResult out{first.name, first.column, {}, {}, {}};
  for (size_t row = 0; row < first.sizes.size(); ++row) out.sizes.push_back(size_result(rounds, table, row, level));
  for (size_t round = 0; round < rounds.size(); ++round) {
    std::vector<double> valid;
    for (const SizeResult &s : out.sizes)
      if (s.valid()) valid.push_back(s.ratios[round]);
    out.ratios.push_back(geometric_mean(valid));
  }
  out.ratio = ratio_ci(out.ratios, level);
  return out;
}

}  // namespace

bool SizeResult::valid() const { return std::isfinite(baseline) && std::isfinite(modeltuned); }

Analysis analyse(const std::vector<Round> &rounds, double level) {
  Analysis out;
  if (rounds.empty()) return out;
  std::vector<double> baseline, modeltuned;
  for (const Round &r : rounds) {
    baseline.push_back(r.baseline.wall_s);
    modeltuned.push_back(r.modeltuned.wall_s);
    out.wall_ratios.push_back(r.modeltuned.wall_s / r.baseline.wall_s);
  }
  out.wall_baseline = geometric_mean(baseline);
  out.wall_modeltuned = geometric_mean(modeltuned);
  out.wall = ratio_ci(out.wall_ratios, level);
  for (size_t t = 0; t < rounds.front().baseline.tables.size(); ++t)
    out.tables.push_back(table_result(rounds, t, level));
  return out;
}

bool any_significantly_above(const Analysis &a, double x) {
  if (a.tables.empty()) return significantly_above(a.wall, x);
  for (const TableResult &t : a.tables) {
    if (significantly_above(t.ratio, x)) return true;
    for (const SizeResult &s : t.sizes)
      if (significantly_above(s.ratio, x)) return true;
  }
  return false;
}

}  // namespace modeltuned::ab
