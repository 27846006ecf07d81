// Selection on the measured latencies and the component's checks (see selection.hpp).
#include "tools/validate/selection.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>
#include <tuple>

#include "common/stats.hpp"
#include "model/registry/registry.hpp"
#include "model/select/margin.hpp"
#include "model/select/ompi_fixed.hpp"
#include "model/select/selector.hpp"
#include "tools/validate/metrics.hpp"

namespace modeltuned::tools::validate {

std::vector<Case> selection_cases(const Measured &measured) {
  std::map<Key, Case> cases;
  for (const auto &[k, us] : measured) {
    Key base = k;
    base.algorithm = 0;
    auto &c = cases[base];
    c.base = base;
    c.measured[k.algorithm] = us;
  }
  std::vector<Case> out;
  for (auto &[k, c] : cases) {
    bool complete = true;
    for (int alg : measured_algorithms(static_cast<Op>(k.op)))
      if (alg != 0 && !c.measured.count(alg)) complete = false;
    if (complete) out.push_back(std::move(c));
  }
  return out;
}

std::vector<CheckResidual> fit_checks(const Measured &measured, const std::map<Key, double> &predicted,
                                      const char *objective, const std::function<bool(int)> &fitted, bool exact_ranks) {
  // op, algorithm, size band, ranks band, shape
  std::map<std::tuple<int, int, int, int, Channel, Channel>, std::vector<double>> residuals;
  for (const auto &[k, us] : measured) {
    if (!fitted(k.p)) continue;
    auto it = predicted.find(k);
    if (it == predicted.end() || !(it->second > 0) || !(us > 0)) continue;
    const int band = k.bytes < 1 ? 0 : static_cast<int>(std::floor(std::log(k.bytes) / std::log(4.0) + 1e-9));
    const int ranks_band = exact_ranks ? -k.p : std::bit_width(static_cast<unsigned>(k.p)) - 1;
    const auto [neighbors, widest] = shape_of(k.mapping, k.p);
    residuals[{k.op, k.algorithm, band, ranks_band, neighbors, widest}].push_back(std::log(us / it->second));
  }
  std::vector<CheckResidual> out;
  for (const auto &[key, values] : residuals) {
    const auto [op, algorithm, band, ranks_band, neighbors, widest] = key;
    CheckResidual r;
    r.op = op_name(static_cast<Op>(op));
    r.algorithm = algorithm_label(static_cast<Op>(op), algorithm);
    if (algorithm != 0) {  // as forced: tuned's default parameters
      const Candidate forced = forced_candidate(static_cast<Op>(op), algorithm);
      r.segsize = forced.segsize;
      r.fanout = forced.fanout;
    }
    r.objective = objective;
    r.neighbors = channel_name(neighbors);
    r.widest = channel_name(widest);
    r.from_bytes = band == 0 ? 0 : std::pow(4.0, band);
    r.below_bytes = std::pow(4.0, band + 1);
    r.from_ranks = ranks_band < 0 ? -ranks_band : std::max(2, 1 << ranks_band);
    r.below_ranks = ranks_band < 0 ? 1 - ranks_band : 2 << ranks_band;
    r.log_lo = *std::min_element(values.begin(), values.end());
    r.log_hi = *std::max_element(values.begin(), values.end());
    r.samples = static_cast<int>(values.size());
    out.push_back(r);
  }
  return out;
}

namespace {

// What the component picks with a table's checks among the default and the forced algorithms
// (ascending tuned numbers, with their predictions): a tuned number, 0 for the default.
int pick_by_checks(const ChecksRule &checks, Op op, int mapping, const Key &base, const std::vector<int> &forced,
                   const std::vector<double> &forced_us, double default_us) {
  const auto [neighbors, widest] = shape_of(mapping, base.p);
  // The checks for this case, selected once, as the selector does.
  const std::vector<const CheckResidual *> held =
      checks_for(*checks.table, op, base.bytes, checks.metric, neighbors, widest, base.p);
  const auto default_runs = [&](int ranks, double bytes) {
    const size_t b = static_cast<size_t>(bytes);
    return what_runs(ompi_fixed_decision(op, b, ranks, true), b, 1, ranks, true);
  };
  const Candidate runs = default_runs(base.p, base.bytes);
  // As the selector: what the default runs anyway never replaces it.
  std::vector<std::optional<ResidualRange>> ranges;
  for (int alg : forced) {
    const Candidate f = forced_candidate(op, alg);
    ranges.push_back(f == runs ? std::nullopt : range_in(held, algorithm_label(op, alg), f.segsize, f.fanout, base.p));
  }
  const int chosen =
      pick_with_checks(forced_us, ranges, default_us, default_range_in(held, op, runs, base.p, default_runs));
  return chosen < 0 ? 0 : forced[chosen];
}

}  // namespace

void score(SelectionRow &row) {
  std::vector<double> regrets, speedups, oracle;
  for (const auto &d : row.decisions) {
    regrets.push_back(d.pick_us / d.best_us);
    if (!std::isnan(d.default_us)) {
      speedups.push_back(d.default_us / d.pick_us);
      oracle.push_back(d.default_us / d.best_us);
    }
  }
  row.cases = regrets.size();
  row.regret_geomean = geometric_mean(regrets);
  row.regret_p95 = quantile(regrets, 0.95);
  row.regret_worst = regrets.empty() ? NAN : *std::max_element(regrets.begin(), regrets.end());
  row.speedup_vs_default = geometric_mean(speedups);
  row.oracle_speedup_vs_default = geometric_mean(oracle);
}

SelectionRow select_on(const std::vector<Case> &cases, const std::map<Key, double> &predicted, const std::string &model,
                       Op op, int mapping, bool with_default, double margin, const ChecksRule &checks) {
  SelectionRow row;
  row.model = model;
  row.op = op;
  row.mapping = mapping;
  for (const Case &c : cases) {
    if (c.base.op != static_cast<int>(op) || c.base.mapping != mapping) continue;
    if (with_default && !c.measured.count(0)) continue;
    if (!checks.scored(c.base.p)) continue;
    double best = INFINITY, default_us = NAN;
    int best_alg = -1;
    std::vector<double> forced_us;  // predictions of the forced algorithms, ascending tuned number
    std::vector<int> forced;
    int pick = -1;
    double pick_us = INFINITY;
    for (int alg : measured_algorithms(op)) {  // ascending: ties go to the lower tuned number
      if (alg == 0 && !with_default) continue;
      if (c.measured.at(alg) < best) best = c.measured.at(alg), best_alg = alg;
      Key k = c.base;
      k.algorithm = alg;
      auto it = predicted.find(k);
      if (it == predicted.end()) continue;
      if (it->second < pick_us) {
        pick = alg;
        pick_us = it->second;
      }
      if (alg == 0)
        default_us = it->second;
      else
        forced_us.push_back(it->second), forced.push_back(alg);
    }
    if (pick < 0) continue;
    if (checks.table) {
      if (std::isnan(default_us)) continue;
      pick = pick_by_checks(checks, op, mapping, c.base, forced, forced_us, default_us);
    } else if (margin > 0) {
      if (std::isnan(default_us)) continue;
      const int chosen = pick_with_margin(forced_us, default_us, margin);
      pick = chosen < 0 ? 0 : forced[chosen];
    }
    row.decisions.push_back({c.base.p, c.base.bytes, pick, best_alg, c.measured.at(pick), best,
                             c.measured.count(0) ? c.measured.at(0) : NAN});
  }
  score(row);
  return row;
}

FixedRulesRow fixed_rules(const std::vector<Case> &cases, Op op, int mapping) {
  FixedRulesRow row;
  row.op = op;
  row.mapping = mapping;
  std::vector<double> regrets, default_vs_best;
  for (const Case &c : cases) {
    if (c.base.op != static_cast<int>(op) || c.base.mapping != mapping) continue;
    ++row.cases;
    const size_t bytes = static_cast<size_t>(c.base.bytes);
    const Candidate fixed = what_runs(ompi_fixed_decision(op, bytes, c.base.p, true), bytes, 1, c.base.p, true);
    ++row.picks[describe(fixed)];
    double best = INFINITY;
    for (int alg : measured_algorithms(op))
      if (alg != 0) best = std::min(best, c.measured.at(alg));
    if (c.measured.count(0)) default_vs_best.push_back(c.measured.at(0) / best);
    // A measured configuration: the same algorithm with the same parameters as forced.
    for (int alg : measured_algorithms(op))
      if (alg != 0 && forced_candidate(op, alg) == fixed) {
        ++row.in_measured;
        regrets.push_back(c.measured.at(alg) / best);
      }
  }
  row.in_measured_regret_geomean = geometric_mean(regrets);
  row.default_vs_best_geomean = geometric_mean(default_vs_best);
  return row;
}

}  // namespace modeltuned::tools::validate
