// `modeltuned validate`: the model against the ORFEO EPYC measurements (docs/validation.md).
// Calibrates from p2p.csv + nbft.csv only, predicts every measured osu_bcast / osu_reduce point
// with the algorithm Open MPI ran, and compares: accuracy (R^2 at 1 B, R^2 of log latency and
// median absolute percentage error over all sizes), the seed report's linear regression (eq. 12)
// in and out of sample, and algorithm selection on the measured latencies.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <Eigen/Dense>
#include <fmt/format.h>

#include "model/calibration/contention.hpp"
#include "model/select/margin.hpp"
#include "model/select/selector.hpp"
#include "calib/csv.hpp"
#include "calib/fit.hpp"
#include "calib/gnuplot.hpp"
#include "calib/regression.hpp"
#include "model/registry/predict.hpp"
#include "model/select/ompi_fixed.hpp"
#include "common/cli.hpp"
#include "tools/commands.hpp"
#include "tools/lib/emulate.hpp"
#include "tools/lib/stage_sum.hpp"

namespace modeltuned::tools {
namespace {

namespace fs = std::filesystem;

struct ValidateOptions {
  std::string data_dir, out_dir, variant = "both";
  bool plots = true, quick = false;
  // Same estimate as the shipped table (calib/local.mk, ORFEO_REDUCE_US_PER_BYTE): the data set
  // has no local-reduction measurement.
  double reduce_us_per_byte = 5e-5;
  // Off by default: derived from nbft.csv above 64 KiB (--contention-from 65536) it improves the
  // selection under map-by core but worsens the chain's accuracy (docs/validation.md).
  double contention_from_bytes = 0;
  std::string checks_out;  // where to write the fitted checks (JSON), for modeltuned fit --checks
  // Fit each mapping's neighbour channel's relay cost on the forced chain bcasts at P <= 126
  // (collective data, scored on P >= 130 only: issue 12, item 5).
  bool relay_from_chains = false;
};

class ValidateError : public std::runtime_error { using runtime_error::runtime_error; };

constexpr const char *kMappings[] = {"core", "socket", "node"};
constexpr MapBy kMapBy[] = {MapBy::core, MapBy::socket, MapBy::node};
constexpr int kMappingCount = 3;
constexpr double kPlotSizes[] = {1, 65536};
// Fit on the first node only, predict where the second node starts (map-by core and socket).
constexpr int kOutOfSampleFitMaxP = 126, kOutOfSampleMinP = 130;

// The algorithms measured (tuned numbers), the default (0) first.
std::vector<int> measured_algorithms(Op op) { return op == Op::bcast ? std::vector{0, 1, 2, 5, 6} : std::vector{0, 1, 2, 4}; }

// What tuned ran for a forced algorithm with no other parameter: segment size 0 and the default
// of its fan-out parameter (for the chain coll_tuned_init_chain_fanout, 4: README of the data set).
Candidate forced_candidate(Op op, int algorithm) {
  const AlgorithmSpec *spec = find_algorithm(op, algorithm);
  return Candidate{op, algorithm, 0, spec ? spec->parameters.tuned_forced_fanout : 0};
}

// Report eq. 12 regresses on log2 P for the binary trees, on P otherwise.
bool is_binary_tree(Op op, int algorithm) { return (op == Op::bcast && algorithm == 5) || (op == Op::reduce && algorithm == 4); }

std::string algorithm_label(Op op, int algorithm) {
  if (algorithm == 0) return "default";
  const AlgorithmSpec *spec = find_algorithm(op, algorithm);
  return spec ? std::string(spec->name) : std::to_string(algorithm);
}

// ---------------------------------------------------------------------------- measurements

struct Key {
  int op, algorithm, mapping, p;
  double bytes;
  auto operator<=>(const Key &) const = default;
};

// Median of the repeats of each (algorithm, P, size): the socket files hold 2-3 repeats with
// spikes of hundreds of microseconds, which a mean would pass on.
using Measured = std::map<Key, double>;

void read_collective_csv(const fs::path &path, Op op, int mapping, const char *latency_column, Measured &out) {
  if (!fs::exists(path)) throw ValidateError(fmt::format("{}: cannot open; --data must be the orfeo-epyc data directory", path.string()));
  calib::CsvReader csv(path.string(), {"algorithm", "cores", "size", latency_column});
  std::map<Key, std::vector<double>> repeats;
  while (csv.next_row()) {
    Key k{static_cast<int>(op), csv.integer("algorithm"), mapping, csv.integer("cores"), csv.positive("size")};
    if (k.p < 2) throw ValidateError(csv.where() + ": column 'cores': a collective needs P >= 2");
    repeats[k].push_back(csv.positive(latency_column));
  }
  for (auto &[k, v] : repeats) out[k] = median(v);
}

// ---------------------------------------------------------------------------- metrics

struct Fit { std::vector<double> measured, predicted; };

double r_squared(const std::vector<double> &m, const std::vector<double> &p) {
  if (m.size() < 2) return NAN;
  double mean = 0;
  for (double v : m) mean += v;
  mean /= static_cast<double>(m.size());
  double ss_res = 0, ss_tot = 0;
  for (size_t i = 0; i < m.size(); ++i) {
    ss_res += (m[i] - p[i]) * (m[i] - p[i]);
    ss_tot += (m[i] - mean) * (m[i] - mean);
  }
  return ss_tot > 0 ? 1 - ss_res / ss_tot : NAN;
}

// Regressions can predict negative latencies; their log is taken at 0.01 us.
double r_squared_log(const std::vector<double> &m, const std::vector<double> &p) {
  std::vector<double> lm, lp;
  for (size_t i = 0; i < m.size(); ++i) {
    lm.push_back(std::log(m[i]));
    lp.push_back(std::log(std::max(p[i], 0.01)));
  }
  return r_squared(lm, lp);
}

double mdape(const std::vector<double> &m, const std::vector<double> &p) {
  std::vector<double> e;
  for (size_t i = 0; i < m.size(); ++i) e.push_back(100 * std::abs(p[i] - m[i]) / m[i]);
  return e.empty() ? NAN : median(e);
}

double geomean(const std::vector<double> &v) {
  double s = 0;
  for (double x : v) s += std::log(x);
  return v.empty() ? NAN : std::exp(s / static_cast<double>(v.size()));
}

// ---------------------------------------------------------------------------- models

// Predictions per model name, for the same keys as the measurements (missing: not predictable).
using Predictions = std::map<std::string, std::map<Key, double>>;

// `metric`: OSU's latency column is each rank's time averaged over ranks (Metric::rank_mean);
// its max column is the slowest rank, closest to the collective's completion. `schedule`: the
// tree schedule (nullptr: the model's own).
struct ModelDef { std::string name; TreeSchedule schedule; Metric metric; };

void predict_p2p(const CalibrationTable &table, const Measured &measured, const std::vector<ModelDef> &models,
                 Predictions &out) {
  std::map<std::tuple<int, int, int>, Placement> placements;  // (mapping, P) only, op ignored
  std::map<std::tuple<int, int, int, int>, std::optional<Plan>> plans;  // (op, alg, mapping, P)
  for (const auto &[k, us] : measured) {
    auto pkey = std::tuple{k.mapping, k.p, 0};
    auto pit = placements.find(pkey);
    if (pit == placements.end())
      pit = placements.emplace(pkey, emulate_placement(orfeo_epyc(2), k.p, kMapBy[k.mapping])).first;
    const Op op = static_cast<Op>(k.op);
    for (const auto &model : models) {
      const CallShape call{op, static_cast<size_t>(k.bytes), 1, 0, true, model.metric};
      std::optional<double> predicted;
      if (k.algorithm == 0) {
        // Open MPI's fixed decision, with its silent substitutions, predicted like any algorithm.
        Candidate c = what_runs(ompi_fixed_decision(op, call.bytes(), k.p, true), call.count, 1, k.p, true);
        predicted = predict_us(table, pit->second, c, call, model.schedule);
      } else {
        auto plan_key = std::tuple{k.op, k.algorithm, k.mapping, k.p};
        auto it = plans.find(plan_key);
        const Candidate c = forced_candidate(op, k.algorithm);
        if (it == plans.end()) it = plans.emplace(plan_key, make_plan(pit->second, c, 0)).first;
        if (it->second) predicted = evaluate_plan(table, *it->second, call, c, model.schedule);
      }
      if (predicted && std::isfinite(*predicted)) out[model.name][k] = *predicted;
    }
  }
}

// Report eq. 12: latency = b0 + b1 x + sum_i (b2i z_i + b3i x z_i), x = P (log2 P for binary
// trees), z_i = "the i-th socket is used" (map-by core), "the second node is used" (socket),
// none (node). Fitted per (op, algorithm, mapping, size). Minimum-norm least squares, so dummies
// never active in the training set get zero weight (out of sample they cannot be learnt).
Eigen::RowVectorXd regression_row(const Key &k) {
  const double x = is_binary_tree(static_cast<Op>(k.op), k.algorithm) ? std::log2(k.p) : k.p;
  std::vector<double> z;
  if (k.mapping == 0) {
    const int sockets = (k.p + 63) / 64;  // map-by core fills 64-core sockets in turn
    for (int i = 1; i <= 3; ++i) z.push_back(sockets > i ? 1 : 0);
  } else if (k.mapping == 1) {
    z.push_back(k.p > 128 ? 1 : 0);  // map-by socket fills one 128-core node first
  }
  Eigen::RowVectorXd row(2 + 2 * z.size());
  row(0) = 1;
  row(1) = x;
  for (size_t i = 0; i < z.size(); ++i) {
    row(2 + 2 * i) = z[i];
    row(3 + 2 * i) = x * z[i];
  }
  return row;
}

void predict_regression(const Measured &measured, Predictions &out) {
  std::map<std::tuple<int, int, int, double>, std::vector<Key>> groups;
  for (const auto &[k, us] : measured) groups[{k.op, k.algorithm, k.mapping, k.bytes}].push_back(k);
  auto fit_and_predict = [&](const std::vector<Key> &train, const std::vector<Key> &test, std::map<Key, double> &dest) {
    if (train.size() < 3 || test.empty()) return;
    const Eigen::Index cols = regression_row(train.front()).size();
    Eigen::MatrixXd a(static_cast<Eigen::Index>(train.size()), cols);
    Eigen::VectorXd b(static_cast<Eigen::Index>(train.size()));
    for (size_t i = 0; i < train.size(); ++i) {
      a.row(static_cast<Eigen::Index>(i)) = regression_row(train[i]);
      b(static_cast<Eigen::Index>(i)) = measured.at(train[i]);
    }
    const Eigen::VectorXd beta = a.completeOrthogonalDecomposition().solve(b);
    for (const Key &k : test) dest[k] = regression_row(k).dot(beta);
  };
  for (const auto &[g, keys] : groups) {
    fit_and_predict(keys, keys, out["linear-in"]);
    std::vector<Key> train, test;
    for (const Key &k : keys) {
      if (k.p <= kOutOfSampleFitMaxP) train.push_back(k);
      if (k.p >= kOutOfSampleMinP) test.push_back(k);
    }
    fit_and_predict(train, test, out["linear-out"]);
  }
}

// ---------------------------------------------------------------------------- accuracy

struct AccuracyRow {
  std::string model;
  Op op;
  int algorithm, mapping;
  double r2_1b, r2_log, mdape_all;
  size_t points;
  double r2_1b_no_spikes = NAN;  // report.md only: R^2 at 1 B without the measured spikes
};

// Measured spikes: a point more than kSpikeFactor times the median of its neighbours (up to
// kSpikeReach P values on each side, same op, algorithm, mapping and size). The report dropped
// outliers by hand before its R^2; this rule does it mechanically and the same for every model.
constexpr double kSpikeFactor = 3.0;
// Three on each side: two spikes side by side at the end of a series (map-by socket, bcast chain,
// P = 250 and 254) still leave a majority of ordinary neighbours.
constexpr size_t kSpikeReach = 3;
std::set<Key> measured_spikes(const Measured &measured) {
  std::map<std::tuple<int, int, int, double>, std::vector<std::pair<int, double>>> series;
  for (const auto &[k, us] : measured) series[{k.op, k.algorithm, k.mapping, k.bytes}].push_back({k.p, us});
  std::set<Key> spikes;
  for (auto &[s, points] : series) {
    std::sort(points.begin(), points.end());
    for (size_t i = 0; i < points.size(); ++i) {
      std::vector<double> around;
      for (size_t j = i >= kSpikeReach ? i - kSpikeReach : 0; j < std::min(points.size(), i + kSpikeReach + 1); ++j)
        if (j != i) around.push_back(points[j].second);
      if (around.size() >= 2 && points[i].second > kSpikeFactor * median(around))
        spikes.insert(Key{std::get<0>(s), std::get<1>(s), std::get<2>(s), points[i].first, std::get<3>(s)});
    }
  }
  return spikes;
}

std::vector<AccuracyRow> accuracy(const Measured &measured, const Predictions &predictions,
                                  const std::vector<std::string> &model_order) {
  const std::set<Key> spikes = measured_spikes(measured);
  std::vector<AccuracyRow> rows;
  for (const auto &name : model_order) {
    const auto pit = predictions.find(name);
    if (pit == predictions.end()) continue;
    for (Op op : {Op::bcast, Op::reduce})
      for (int alg : measured_algorithms(op))
        for (int m = 0; m < kMappingCount; ++m) {
          Fit all, one_byte, one_byte_clean;
          for (const auto &[k, us] : measured) {
            if (k.op != static_cast<int>(op) || k.algorithm != alg || k.mapping != m) continue;
            auto it = pit->second.find(k);
            if (it == pit->second.end()) continue;
            all.measured.push_back(us);
            all.predicted.push_back(it->second);
            if (k.bytes == 1) {
              one_byte.measured.push_back(us);
              one_byte.predicted.push_back(it->second);
              if (!spikes.count(k)) {
                one_byte_clean.measured.push_back(us);
                one_byte_clean.predicted.push_back(it->second);
              }
            }
          }
          if (all.measured.empty()) continue;
          rows.push_back({name, op, alg, m, r_squared(one_byte.measured, one_byte.predicted),
                          r_squared_log(all.measured, all.predicted), mdape(all.measured, all.predicted),
                          all.measured.size(), r_squared(one_byte_clean.measured, one_byte_clean.predicted)});
        }
  }
  return rows;
}

// ---------------------------------------------------------------------------- selection

struct SelectionRow {
  std::string model;
  std::string scored_against = "latency";  // the OSU column: latency (rank mean) or max (completion)
  Op op = Op::bcast;
  int mapping = 0;
  size_t cases = 0;
  double regret_geomean = NAN, regret_p95 = NAN, regret_worst = NAN, speedup_vs_default = NAN;
  double oracle_speedup_vs_default = NAN;  // measured best over the default: the most a pick can gain
  struct Decision {  // one scored case, for decisions.csv
    int p = 0;
    double bytes = 0;
    int pick = 0, best = 0;  // tuned algorithm numbers (0: Open MPI's default)
    double pick_us = NAN, best_us = NAN, default_us = NAN;  // measured
  };
  std::vector<Decision> decisions;
};

struct FixedRulesRow {
  Op op = Op::bcast;
  int mapping = 0;
  size_t cases = 0, in_measured = 0;
  double in_measured_regret_geomean = NAN;  // the fixed rule's measured latency / best, where measured
  double default_vs_best_geomean = NAN;     // measured default / measured best of the forced ones
  std::map<std::string, size_t> picks;
};

// One (op, mapping, P, size) where every forced algorithm (and maybe the default) was measured.
struct Case {
  Key base;  // algorithm 0
  std::map<int, double> measured;
};

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

// A measured communicator's shape (Placement::neighbor_channel, widest_channel), by mapping and P.
std::pair<Channel, Channel> shape_of(int mapping, int p) {
  static std::map<std::pair<int, int>, std::pair<Channel, Channel>> shapes;
  auto it = shapes.find({mapping, p});
  if (it == shapes.end()) {
    const Placement placement = emulate_placement(orfeo_epyc(2), p, kMapBy[mapping]);
    it = shapes.emplace(std::pair{mapping, p}, std::pair{placement.neighbor_channel(), placement.widest_channel()}).first;
  }
  return it->second;
}

// The model's residuals on measured collectives, ln(measured / predicted), per op, algorithm
// ("default" for algorithm 0), size band [4^k, 4^(k+1)) bytes and communicator-size band
// [2^j, 2^(j+1)) ranks, pooled over mappings, from the cases with P <= max_p only: the table's
// checks (margin.hpp), fitted where they are not scored.
std::vector<CheckResidual> fit_checks(const Measured &measured, const std::map<Key, double> &predicted,
                                      const char *objective, int max_p) {
  // op, algorithm, size band, ranks band, shape
  std::map<std::tuple<int, int, int, int, Channel, Channel>, std::vector<double>> residuals;
  for (const auto &[k, us] : measured) {
    if (k.p > max_p) continue;
    auto it = predicted.find(k);
    if (it == predicted.end() || !(it->second > 0) || !(us > 0)) continue;
    const int band = k.bytes < 1 ? 0 : static_cast<int>(std::floor(std::log(k.bytes) / std::log(4.0) + 1e-9));
    const int ranks_band = std::bit_width(static_cast<unsigned>(k.p)) - 1;
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
    r.from_ranks = std::max(2, 1 << ranks_band);
    r.below_ranks = 2 << ranks_band;
    r.log_lo = *std::min_element(values.begin(), values.end());
    r.log_hi = *std::max_element(values.begin(), values.end());
    r.samples = static_cast<int>(values.size());
    out.push_back(r);
  }
  return out;
}

// with_default: Open MPI's default decision (what its fixed rules run, predicted like any
// algorithm) is a candidate too, and the best is taken over it as well: the component can always
// leave a call to Open MPI.
// margin > 0: the component's rule (model/select/margin.hpp): the fastest forced algorithm
// replaces the default only when predicted faster by that factor.
// checks: a table with checks (margin.hpp), whose rule replaces the factor; only cases with
// min_p <= P <= max_p are scored (checks fitted on P <= 126 are scored on P >= 130).
struct ChecksRule {
  const CalibrationTable *table = nullptr;
  Metric metric = Metric::completion;
  int min_p = 0, max_p = 1 << 30;
};

SelectionRow select_on(const std::vector<Case> &cases, const std::map<Key, double> &predicted, const std::string &model,
                       Op op, int mapping, bool with_default = false, double margin = 0, const ChecksRule &checks = {}) {
  SelectionRow row;
  row.model = model;
  row.op = op;
  row.mapping = mapping;
  for (const Case &c : cases) {
    if (c.base.op != static_cast<int>(op) || c.base.mapping != mapping) continue;
    if (with_default && !c.measured.count(0)) continue;
    if (c.base.p < checks.min_p || c.base.p > checks.max_p) continue;
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
      if (it->second < pick_us) { pick = alg; pick_us = it->second; }
      if (alg == 0) default_us = it->second;
      else forced_us.push_back(it->second), forced.push_back(alg);
    }
    if (pick < 0) continue;
    if (checks.table) {
      if (std::isnan(default_us)) continue;
      const auto [neighbors, widest] = shape_of(mapping, c.base.p);
      // The checks for this case, selected once, as the selector does.
      const std::vector<const CheckResidual *> held =
          checks_for(*checks.table, op, c.base.bytes, checks.metric, neighbors, widest, c.base.p);
      const auto default_runs = [&](int ranks, double bytes) {
        const size_t b = static_cast<size_t>(bytes);
        return what_runs(ompi_fixed_decision(op, b, ranks, true), b, 1, ranks, true);
      };
      const Candidate runs = default_runs(c.base.p, c.base.bytes);
      // As the selector: what the default runs anyway never replaces it.
      std::vector<std::optional<ResidualRange>> ranges;
      for (int alg : forced) {
        const Candidate f = forced_candidate(op, alg);
        ranges.push_back(f == runs ? std::nullopt
                                   : range_in(held, algorithm_label(op, alg), f.segsize, f.fanout, c.base.p));
      }
      const int chosen = pick_with_checks(forced_us, ranges, default_us,
                                          default_range_in(held, op, runs, c.base.p, default_runs));
      pick = chosen < 0 ? 0 : forced[chosen];
    } else if (margin > 0) {
      if (std::isnan(default_us)) continue;
      const int chosen = pick_with_margin(forced_us, default_us, margin);
      pick = chosen < 0 ? 0 : forced[chosen];
    }
    row.decisions.push_back({c.base.p, c.base.bytes, pick, best_alg, c.measured.at(pick), best,
                             c.measured.count(0) ? c.measured.at(0) : NAN});
  }
  // The row's figures from its scored cases (decisions.csv lists the same ones).
  std::vector<double> regrets, speedups, oracle;
  for (const auto &d : row.decisions) {
    regrets.push_back(d.pick_us / d.best_us);
    if (!std::isnan(d.default_us)) {
      speedups.push_back(d.default_us / d.pick_us);
      oracle.push_back(d.default_us / d.best_us);
    }
  }
  row.cases = regrets.size();
  row.regret_geomean = geomean(regrets);
  row.regret_p95 = quantile(regrets, 0.95);
  row.regret_worst = regrets.empty() ? NAN : *std::max_element(regrets.begin(), regrets.end());
  row.speedup_vs_default = geomean(speedups);
  row.oracle_speedup_vs_default = geomean(oracle);
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
  row.in_measured_regret_geomean = geomean(regrets);
  row.default_vs_best_geomean = geomean(default_vs_best);
  return row;
}

// ---------------------------------------------------------------------------- output

std::string num(double v, int digits = 3) { return std::isfinite(v) ? fmt::format("{:.{}f}", v, digits) : "nan"; }

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
  out << "model,op,mapping,scored_against,cases,regret_geomean,regret_p95,regret_worst,speedup_vs_default_geomean\n";
  for (const auto &r : rows)
    out << r.model << ',' << op_name(r.op) << ',' << kMappings[r.mapping] << ',' << r.scored_against << ',' << r.cases
        << ',' << num(r.regret_geomean, 4) << ',' << num(r.regret_p95, 4) << ',' << num(r.regret_worst, 4) << ','
        << num(r.speedup_vs_default, 4) << '\n';
  if (!out) throw ValidateError(fmt::format("{}: cannot write; check --out", path.string()));
}

// Every scored case of every selection row: what was picked, what was best, both measured.
void write_decisions_csv(const fs::path &path, const std::vector<SelectionRow> &rows) {
  std::ofstream out(path);
  out << "model,op,mapping,scored_against,p,bytes,pick,best,pick_us,best_us,default_us,regret\n";
  for (const auto &r : rows)
    for (const auto &d : r.decisions)
      out << r.model << ',' << op_name(r.op) << ',' << kMappings[r.mapping] << ',' << r.scored_against << ',' << d.p
          << ',' << d.bytes << ',' << algorithm_label(r.op, d.pick) << ',' << algorithm_label(r.op, d.best) << ','
          << num(d.pick_us, 3) << ',' << num(d.best_us, 3) << ',' << num(d.default_us, 3) << ','
          << num(d.pick_us / d.best_us, 4) << '\n';
  if (!out) throw ValidateError(fmt::format("{}: cannot write; check --out", path.string()));
}

// Every measured point beside every model's prediction (empty: not predictable), for analysis.
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

// The seed report's appendix: Tables 1 and 3 (point-to-point model) and 2 and 4 (its linear
// model), R^2 at 1 B, per algorithm and map-by core / socket / node. "-" where it gave none.
struct ReportR2 { Op op; int algorithm; double p2p[3]; double linear[3]; };
const ReportR2 kReport[] = {
    {Op::bcast, 0, {NAN, NAN, NAN}, {0.924, 0.901, 0.899}},
    {Op::bcast, 1, {0.929, 0.986, 0.916}, {0.995, 0.996, 0.995}},
    {Op::bcast, 2, {0.839, 0.895, 0.959}, {0.971, 0.984, 0.987}},
    {Op::bcast, 5, {0.534, 0.321, 0.421}, {0.976, 0.956, 0.891}},
    {Op::reduce, 0, {NAN, NAN, NAN}, {0.893, 0.877, 0.912}},
    {Op::reduce, 1, {0, 0, 0}, {0.988, 0.882, 0.941}},
    {Op::reduce, 2, {0.734, 0.882, 0.809}, {0.952, 0.966, 0.976}},
    {Op::reduce, 4, {0, 0, 0}, {0.987, 0.961, 0.363}},
};

const AccuracyRow *find_row(const std::vector<AccuracyRow> &rows, const std::string &model, Op op, int alg, int m) {
  for (const auto &r : rows)
    if (r.model == model && r.op == op && r.algorithm == alg && r.mapping == m) return &r;
  return nullptr;
}

std::string cell(const AccuracyRow *r, double AccuracyRow::*field, int digits = 3) {
  return r ? num(r->*field, digits) : "-";
}

// Report sections, in the order they appear (defined below write_report).
void write_r2_section(std::ostream &out, const std::vector<AccuracyRow> &acc);
void write_all_sizes_section(std::ostream &out, const std::vector<AccuracyRow> &acc);
void write_selection_section(std::ostream &out, const std::vector<SelectionRow> &sel);
void write_fixed_rules_section(std::ostream &out, const std::vector<FixedRulesRow> &fixed);
void write_targets(std::ostream &out, const std::vector<AccuracyRow> &acc, const std::vector<SelectionRow> &sel);

void write_report(const fs::path &path, const ValidateOptions &o, const CalibrationTable &table,
                  const std::vector<AccuracyRow> &acc, const std::vector<SelectionRow> &sel,
                  const std::vector<FixedRulesRow> &fixed, const std::vector<std::string> &plots) {
  std::ofstream out(path);
  out << "# modeltuned validation on the ORFEO EPYC measurements\n\n"
      << "Generated by `modeltuned validate --data " << o.data_dir << " --out " << o.out_dir << " --variant "
      << o.variant << (o.quick ? " --quick" : "") << "`. Method and discussion: docs/validation.md.\n\n"
      << "Calibration from p2p.csv and nbft.csv only (checksum " << fmt::format("{:016x}", table.checksum)
      << ", local reduction " << o.reduce_us_per_byte << " us/B, an estimate). Placements: Open MPI 4.1 "
      << "`--map-by core|socket|node` on two emulated 2 x EPYC 7H12 nodes, default binding. Forced algorithms "
      << "as tuned ran them: no segmentation, chain fan-out 4, root 0, MPI_CHAR, MPI_SUM. Repeated (P, size) "
      << "points: median. `default` is Open MPI's fixed decision, predicted with the algorithm it runs.\n\n";
  write_r2_section(out, acc);
  write_all_sizes_section(out, acc);
  write_selection_section(out, sel);
  write_fixed_rules_section(out, fixed);
  write_targets(out, acc, sel);

  if (!plots.empty()) {
    out << "\n## Plots (measured vs predicted against P; left 1 B, right 64 KiB)\n\n";
    for (const auto &p : plots) out << "![" << p << "](plots/" << p << ")\n";
  }
  if (!out) throw ValidateError(fmt::format("{}: cannot write; check --out", path.string()));
}

// R^2 at 1 B per algorithm and mapping, beside the seed report's tables.
void write_r2_section(std::ostream &out, const std::vector<AccuracyRow> &acc) {
  out << "## R^2 at 1 B beside the seed report\n\n"
      << "`p2p` = modeltuned (schedule variant), `stage-sum` = the report's eq. 2-3 on modeltuned's "
      << "calibration, `report p2p` = report Tables 1/3; `linear-in` = eq. 12 fitted on all P (as the report), "
      << "`report linear` = Tables 2/4; `linear-out` = eq. 12 fitted on P <= 126, scored on P >= 130.\n\n"
      << "`p2p vs max` = the model calibrated on nbft.csv's `max` column, against the collectives' `max` "
      << "(the slowest rank: the completion time the model predicts; OSU's `latency` is the mean over ranks).\n\n"
      << "`no spikes` = the same R^2 without measured spikes (a point above " << kSpikeFactor
      << "x the median of its neighbours in P; the report dropped outliers by hand), for every model alike.\n\n"
      << "| op | algorithm | mapping | p2p | stage-sum | report p2p | linear-in | report linear | linear-out | p2p vs max "
      << "| p2p, no spikes | linear-in, no spikes |\n"
      << "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto &rep : kReport)
    for (int m = 0; m < kMappingCount; ++m) {
      const auto *p = find_row(acc, "p2p", rep.op, rep.algorithm, m);
      const auto *s = find_row(acc, "p2p-stage-sum", rep.op, rep.algorithm, m);
      const auto *li = find_row(acc, "linear-in", rep.op, rep.algorithm, m);
      const auto *lo = find_row(acc, "linear-out", rep.op, rep.algorithm, m);
      out << "| " << op_name(rep.op) << " | " << algorithm_label(rep.op, rep.algorithm) << " | " << kMappings[m]
          << " | " << cell(p, &AccuracyRow::r2_1b) << " | " << cell(s, &AccuracyRow::r2_1b) << " | "
          << (std::isnan(rep.p2p[m]) ? "-" : num(rep.p2p[m])) << " | " << cell(li, &AccuracyRow::r2_1b) << " | "
          << num(rep.linear[m]) << " | " << cell(lo, &AccuracyRow::r2_1b) << " | "
          << cell(find_row(acc, "p2p-completion", rep.op, rep.algorithm, m), &AccuracyRow::r2_1b) << " | "
          << cell(p, &AccuracyRow::r2_1b_no_spikes) << " | " << cell(li, &AccuracyRow::r2_1b_no_spikes) << " |\n";
    }
  for (int alg : {6})  // binomial bcast: measured, not in the report's tables
    for (int m = 0; m < kMappingCount; ++m) {
      const auto *p = find_row(acc, "p2p", Op::bcast, alg, m);
      const auto *s = find_row(acc, "p2p-stage-sum", Op::bcast, alg, m);
      const auto *li = find_row(acc, "linear-in", Op::bcast, alg, m);
      const auto *lo = find_row(acc, "linear-out", Op::bcast, alg, m);
      out << "| bcast | binomial | " << kMappings[m] << " | " << cell(p, &AccuracyRow::r2_1b) << " | "
          << cell(s, &AccuracyRow::r2_1b) << " | - | " << cell(li, &AccuracyRow::r2_1b) << " | - | "
          << cell(lo, &AccuracyRow::r2_1b) << " | "
          << cell(find_row(acc, "p2p-completion", Op::bcast, alg, m), &AccuracyRow::r2_1b) << " | "
          << cell(p, &AccuracyRow::r2_1b_no_spikes) << " | " << cell(li, &AccuracyRow::r2_1b_no_spikes) << " |\n";
    }
}

// Accuracy over all sizes per algorithm and mapping.
void write_all_sizes_section(std::ostream &out, const std::vector<AccuracyRow> &acc) {
  out << "\n## All sizes (1 B - 1 MiB): R^2 of log latency / median absolute percentage error\n\n"
      << "`p2p rank-mean` = the schedule model predicting each rank's own time averaged over ranks, "
      << "which is what OSU's `latency` column is (docs/model.md, Metric::rank_mean).\n\n"
      << "| op | algorithm | mapping | points | p2p | stage-sum | linear-in | linear-out | p2p vs max | p2p rank-mean |\n"
      << "|---|---|---|---|---|---|---|---|---|---|\n";
  for (Op op : {Op::bcast, Op::reduce})
    for (int alg : measured_algorithms(op))
      for (int m = 0; m < kMappingCount; ++m) {
        const auto *p = find_row(acc, "p2p", op, alg, m);
        if (!p) continue;
        auto both = [&](const AccuracyRow *r) {
          return r ? num(r->r2_log) + " / " + num(r->mdape_all, 1) + "%" : std::string("-");
        };
        out << "| " << op_name(op) << " | " << algorithm_label(op, alg) << " | " << kMappings[m] << " | " << p->points
            << " | " << both(p) << " | " << both(find_row(acc, "p2p-stage-sum", op, alg, m)) << " | "
            << both(find_row(acc, "linear-in", op, alg, m)) << " | " << both(find_row(acc, "linear-out", op, alg, m))
            << " | " << both(find_row(acc, "p2p-completion", op, alg, m)) << " | "
            << both(find_row(acc, "p2p-rank-mean", op, alg, m)) << " |\n";
      }
}

void write_selection_section(std::ostream &out, const std::vector<SelectionRow> &sel) {
  out << "\n## Selection among the measured algorithms\n\n"
      << "For every (P, size) where all forced algorithms were measured, the model picks the one it predicts "
      << "fastest; regret = measured latency of the pick / measured best; speedup = measured default / "
      << "measured pick; oracle = measured default / measured best. `p2p+default`: Open MPI's default "
      << "decision is a candidate too (predicted as what its fixed rules run; the component can always "
      << "hand a call back), and the best is taken over it as well. `component`: what the component decides "
      << "among the default and the forced algorithms, with its margin (model/select/margin.hpp) and the "
      << "objective matching the column: rank mean against `latency`, completion against `max` (calibrated "
      << "from nbft.csv's max column). `p2p-completion`: the completion model alone, against `max`.\n\n"
      << "| model | op | mapping | scored against | cases | regret geomean | p95 | worst | speedup vs default | oracle speedup |\n"
      << "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto &r : sel)
    out << "| " << r.model << " | " << op_name(r.op) << " | " << kMappings[r.mapping] << " | " << r.scored_against
        << " | " << r.cases << " | "
        << num(r.regret_geomean) << " | " << num(r.regret_p95) << " | " << num(r.regret_worst) << " | "
        << num(r.speedup_vs_default) << " | " << num(r.oracle_speedup_vs_default) << " |\n";
}

void write_fixed_rules_section(std::ostream &out, const std::vector<FixedRulesRow> &fixed) {
  out << "\n## What Open MPI 4.1's fixed rules pick\n\n"
      << "`in measured set`: cases where the fixed rule runs one of the measured configurations (its regret "
      << "is then measured). `default / best`: the measured default against the best forced algorithm "
      << "(below 1: the default, running algorithms outside the measured set, is faster).\n\n"
      << "| op | mapping | cases | in measured set | its regret geomean | default / best geomean | fixed-rule algorithms (cases) |\n"
      << "|---|---|---|---|---|---|---|\n";
  for (const auto &r : fixed) {
    std::string picks;
    for (const auto &[name, n] : r.picks) picks += (picks.empty() ? "" : ", ") + name + " " + std::to_string(n);
    out << "| " << op_name(r.op) << " | " << kMappings[r.mapping] << " | " << r.cases << " | " << r.in_measured
        << " | " << num(r.in_measured_regret_geomean) << " | " << num(r.default_vs_best_geomean) << " | " << picks
        << " |\n";
  }
}

// The targets of docs/validation.md, checked.
void write_targets(std::ostream &out, const std::vector<AccuracyRow> &acc, const std::vector<SelectionRow> &sel) {
  out << "\n## Targets\n\n";
  auto target = [&](bool ok, const std::string &what) { out << "- [" << (ok ? "x" : " ") << "] " << what << "\n"; };
  for (Op op : {Op::bcast, Op::reduce}) {
    const double need = op == Op::bcast ? 0.95 : 0.90;
    std::string misses;
    for (const auto &r : acc)
      if (r.model == "p2p" && r.op == op && r.algorithm != 0 && !(r.r2_1b >= need))
        misses += fmt::format(" {}/{} {}", algorithm_label(op, r.algorithm), kMappings[r.mapping], num(r.r2_1b));
    target(misses.empty(), fmt::format("{} R^2 at 1 B >= {} for every algorithm and mapping{}", op_name(op), need,
                                       misses.empty() ? "" : ": misses" + misses));
  }
  std::string mdape_misses;
  for (const auto &r : acc)
    if (r.model == "p2p" && r.algorithm != 0 && !(r.mdape_all < 20))
      mdape_misses += fmt::format(" {}/{}/{} {}%", op_name(r.op), algorithm_label(r.op, r.algorithm),
                                  kMappings[r.mapping], num(r.mdape_all, 1));
  target(mdape_misses.empty(), "median absolute percentage error < 20% over all sizes" +
                                   (mdape_misses.empty() ? std::string() : ": misses" + mdape_misses));
  std::string regret_misses;
  for (const auto &r : sel)
    if (r.model == "p2p" && !(r.regret_geomean <= 1.05 && r.regret_worst <= 1.5))
      regret_misses += fmt::format(" {}/{} {} (worst {})", op_name(r.op), kMappings[r.mapping], num(r.regret_geomean),
                                   num(r.regret_worst));
  target(regret_misses.empty(), "selection regret geomean <= 1.05 and worst <= 1.5" +
                                    (regret_misses.empty() ? std::string() : ": misses" + regret_misses));
}

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

// The figures of every measured op x algorithm x mapping. Returns the PNGs drawn (none without
// gnuplot: then only the scripts and data are written).
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
        if (any)
          figures.push_back(validation_figure(fmt::format("{}_{}_{}", op_name(op), algorithm_label(op, alg), kMappings[m]),
                                              op, alg, m, measured, pred, models));
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

// The chain bcast's per-forward cost, fitted where it is not scored: forced chains (fan-out 4)
// at 10 <= P <= kOutOfSampleFitMaxP and eager sizes (<= 4 KiB, where a turnaround is not lost in
// the transfer), against the `max` column (the slowest rank: completion, what the calibrator's
// ring measures). Per mapping, its neighbour channel (core: cache, socket: socket, node: node)
// gets one constant: the median over those points of (measured - predicted) / (the relays the
// model charges there), the count found by predicting with a relay of 1 us on that channel. The
// ORFEO files hold no relay measurement (p2p.csv and nbft.csv have no rank that forwards), so
// this is the only way to see what the term buys on them. Returns what was fitted, for the report.
nlohmann::json fit_relay_from_chains(CalibrationTable &table, const Measured &measured_max) {
  const int chain = find_algorithm(Op::bcast, "chain")->id;
  std::map<int, std::vector<double>> per_hop;  // channel -> (measured - predicted) / relays
  std::map<int, std::vector<std::string>> mappings;
  for (int m = 0; m < kMappingCount; ++m) {
    Measured points;
    for (const auto &[k, us] : measured_max)
      if (k.op == static_cast<int>(Op::bcast) && k.algorithm == chain && k.mapping == m && k.p >= 10 &&
          k.p <= kOutOfSampleFitMaxP && k.bytes <= kSharedMemoryEagerLimitBytes)
        points[k] = us;
    if (points.empty()) continue;
    const int c = static_cast<int>(shape_of(m, kOutOfSampleFitMaxP).first);
    CalibrationTable unit = table;
    unit.channels[c].relay = {{1, 1.0}};
    Predictions without, with;
    predict_p2p(table, points, {{"p", nullptr, Metric::completion}}, without);
    predict_p2p(unit, points, {{"p", nullptr, Metric::completion}}, with);
    for (const auto &[k, us] : points) {
      if (!without["p"].count(k) || !with["p"].count(k)) continue;
      const double relays = with["p"][k] - without["p"][k];
      if (relays > 0.5) per_hop[c].push_back((us - without["p"][k]) / relays);
    }
    mappings[c].push_back(kMappings[m]);
  }
  nlohmann::json report = nlohmann::json::object();
  for (const auto &[c, values] : per_hop) {
    const double us = std::max(0.0, median(values));
    table.channels[c].relay = {{1, us}};
    report[std::string(kChannelNames[c])] = {{"us", us}, {"points", values.size()}, {"mappings", mappings[c]}};
  }
  table.provenance["relay"] = {
      {"source", fmt::format("fitted on ORFEO's forced chain bcasts (max column) at 10 <= P <= {}, <= {} B; "
                             "scored on P >= {} only (modeltuned validate --relay-from-chains)",
                             kOutOfSampleFitMaxP, kSharedMemoryEagerLimitBytes, kOutOfSampleMinP)},
      {"channels", report}};
  return report;
}

void run_validate(const ValidateOptions &o) {
  const fs::path data(o.data_dir), out_dir(o.out_dir);
  if (o.variant != "schedule" && o.variant != "stage_sum" && o.variant != "both")
    throw ValidateError("--variant must be schedule, stage_sum or both");
  calib::Samples samples;
  calib::read_osu_p2p_csv((data / "p2p.csv").string(), samples);
  calib::read_osu_flat_csv((data / "nbft.csv").string(), FlatTreeKind::fanout, samples);
  CalibrationTable table = calib::fit_table(
      samples, {o.reduce_us_per_byte, "estimate (calib/local.mk ORFEO_REDUCE_SOURCE)",
                {{"source", "modeltuned validate"}, {"data", o.data_dir}},
                0, ""});  // the data set has no fresh-memory measurement
  if (o.contention_from_bytes > 0) derive_concurrent_from_fanout(table, o.contention_from_bytes);
  Measured measured_max;
  for (Op op : {Op::bcast, Op::reduce})
    for (int m = 0; m < kMappingCount; ++m)
      read_collective_csv(data / fmt::format("{}_{}.csv", op_name(op), kMappings[m]), op, m, "max", measured_max);
  if (o.relay_from_chains) {
    const nlohmann::json relay = fit_relay_from_chains(table, measured_max);
    std::printf("relay from chains at P <= %d: %s\n", kOutOfSampleFitMaxP, relay.dump().c_str());
  }

  Measured measured;
  for (Op op : {Op::bcast, Op::reduce})
    for (int m = 0; m < kMappingCount; ++m)
      read_collective_csv(data / fmt::format("{}_{}.csv", op_name(op), kMappings[m]), op, m, "latency", measured);

  std::vector<ModelDef> models;
  if (o.variant != "stage_sum") models.push_back({"p2p", nullptr, Metric::completion});
  if (o.variant != "schedule") models.push_back({"p2p-stage-sum", stage_sum_us, Metric::completion});
  // The schedule model predicting each rank's own time averaged over ranks, OSU's definition of
  // the latency column (docs/validation.md: better for reduce, worse for selection so far).
  if (o.variant != "stage_sum") models.push_back({"p2p-rank-mean", nullptr, Metric::rank_mean});
  Predictions predictions;
  predict_p2p(table, measured, models, predictions);
  predict_regression(measured, predictions);

  const std::vector<std::string> order = {"p2p", "p2p-stage-sum", "linear-in", "linear-out", "p2p-rank-mean"};
  auto acc = accuracy(measured, predictions, order);

  // OSU's `latency` is the mean over ranks of each rank's time; the model predicts when the
  // collective completes. Compare that with the slowest rank (`max`), calibrated consistently
  // from nbft.csv's `max` column.
  calib::Samples completion_samples;
  completion_samples.p2p = samples.p2p;
  calib::read_osu_flat_csv((data / "nbft.csv").string(), FlatTreeKind::fanout, completion_samples, "max");
  CalibrationTable completion_table = calib::fit_table(
      completion_samples, {o.reduce_us_per_byte, "estimate (calib/local.mk ORFEO_REDUCE_SOURCE)",
                           {{"source", "modeltuned validate, nbft.csv max column"}, {"data", o.data_dir}},
                           0, ""});
  if (o.contention_from_bytes > 0) derive_concurrent_from_fanout(completion_table, o.contention_from_bytes);
  if (o.relay_from_chains) fit_relay_from_chains(completion_table, measured_max);
  Predictions completion;
  predict_p2p(completion_table, measured_max, {{"p2p-completion", nullptr, Metric::completion}}, completion);
  const auto cases_max = selection_cases(measured_max);
  // What the component decides: Open MPI's default and the measured forced algorithms as
  // candidates, the margin from each table's held-out error, and the objective matching the
  // column: completion against `max` (table from nbft's max column), rank mean against `latency`.
  const double margin_latency = margin_factor(held_out_uncertainty(table));
  // The component's tables carry checks fitted on P <= 126 (both nodes' worth of measurements
  // stay unseen): the `component` rows are scored on P >= 130 only, `component-fitted` on the
  // fitting cases, `p2p-margin` is the held-out-error factor alone (a table without checks).
  const std::string checks_source = fmt::format(
      "ORFEO EPYC bcast_/reduce_{{core,socket,node}}.csv at P <= {} (modeltuned validate; scored on P >= {})",
      kOutOfSampleFitMaxP, kOutOfSampleMinP);
  CalibrationTable checked_latency = table, checked_max;
  checked_latency.checks = fit_checks(measured, predictions["p2p-rank-mean"], "rank_mean", kOutOfSampleFitMaxP);
  // The component runs with one table (the shipped one is fitted on nbft's latency column) and
  // its objective: completion is scored against `max` with that table's completion predictions.
  checked_max = table;
  checked_max.checks = fit_checks(measured_max, predictions["p2p"], "completion", kOutOfSampleFitMaxP);
  checked_latency.checks_source = checked_max.checks_source = checks_source;
  if (!o.checks_out.empty()) {  // both objectives, for the shipped table (calib/local.mk)
    CalibrationTable both = checked_latency;
    both.checks.insert(both.checks.end(), checked_max.checks.begin(), checked_max.checks.end());
    if (fs::path(o.checks_out).has_parent_path()) fs::create_directories(fs::path(o.checks_out).parent_path());
    std::ofstream out(o.checks_out);
    out << nlohmann::json{{"source", checks_source}, {"residuals", nlohmann::json::parse(to_json_text(both))["checks"]["residuals"]}}.dump(1) << '\n';
    if (!out) throw ValidateError(fmt::format("{}: cannot write; check --checks-out", o.checks_out));
  }
  const ChecksRule held_latency{&checked_latency, Metric::rank_mean, kOutOfSampleMinP},
      held_max{&checked_max, Metric::completion, kOutOfSampleMinP},
      fitted_latency{&checked_latency, Metric::rank_mean, 0, kOutOfSampleFitMaxP},
      fitted_max{&checked_max, Metric::completion, 0, kOutOfSampleFitMaxP};
  for (auto &row : accuracy(measured_max, completion, {"p2p-completion"})) acc.push_back(row);
  const auto cases = selection_cases(measured);
  std::vector<SelectionRow> sel;
  std::vector<FixedRulesRow> fixed;
  for (Op op : {Op::bcast, Op::reduce})
    for (int m = 0; m < kMappingCount; ++m) {
      for (const auto &model : models) sel.push_back(select_on(cases, predictions[model.name], model.name, op, m));
      if (predictions.count("p2p")) sel.push_back(select_on(cases, predictions["p2p"], "p2p+default", op, m, true));
      if (predictions.count("p2p-rank-mean")) {
        sel.push_back(select_on(cases, predictions["p2p-rank-mean"], "p2p-margin", op, m, true, margin_latency));
        sel.push_back(select_on(cases, predictions["p2p-rank-mean"], "component", op, m, true, 0, held_latency));
        sel.push_back(select_on(cases, predictions["p2p-rank-mean"], "component-fitted", op, m, true, 0, fitted_latency));
      }
      SelectionRow completion_row = select_on(cases_max, completion["p2p-completion"], "p2p-completion", op, m);
      completion_row.scored_against = "max";
      sel.push_back(completion_row);
      for (auto [name, rule] : {std::pair{"p2p-margin", ChecksRule{}}, std::pair{"component", held_max},
                                std::pair{"component-fitted", fitted_max}}) {
        SelectionRow row = select_on(cases_max, predictions["p2p"], name, op, m, true, rule.table ? 0 : margin_latency, rule);
        row.scored_against = "max";
        sel.push_back(row);
      }
      fixed.push_back(fixed_rules(cases, op, m));
    }

  fs::create_directories(out_dir);
  write_accuracy_csv(out_dir / "accuracy.csv", acc);
  write_selection_csv(out_dir / "selection.csv", sel);
  write_decisions_csv(out_dir / "decisions.csv", sel);
  {
    Predictions all = predictions;
    all["p2p-completion"] = completion["p2p-completion"];
    std::vector<std::string> names = order;
    names.push_back("p2p-completion");
    write_predictions_csv(out_dir / "predictions.csv", measured, measured_max, all, names);
  }
  std::vector<std::string> plots;
  if (o.plots && !o.quick) {
    std::vector<std::string> plotted;
    for (const auto &name : order)
      if (name != "linear-out" && predictions.count(name)) plotted.push_back(name);
    plots = write_plots(out_dir / "plots", measured, predictions, plotted);
  }
  write_report(out_dir / "report.md", o, table, acc, sel, fixed, plots);
  std::printf("%zu measured points, %zu selection cases; wrote %s/{report.md,accuracy.csv,selection.csv,decisions.csv,predictions.csv}%s\n",
              measured.size(), cases.size(), o.out_dir.c_str(), plots.empty() ? "" : " and plots/");
}

}  // namespace

void add_validate_command(CLI::App &app) {
  auto options = std::make_shared<ValidateOptions>();
  CLI::App *cmd = app.add_subcommand("validate", "Predict the ORFEO EPYC bcast/reduce measurements from point-to-point "
                                                 "calibration alone and compare (docs/validation.md)");
  cmd->add_option("--data", options->data_dir, "directory with p2p.csv, nbft.csv, bcast_*.csv, reduce_*.csv")->required();
  cmd->add_option("--out", options->out_dir, "output directory (report.md, accuracy.csv, selection.csv, plots/)")->required();
  cmd->add_option("--variant", options->variant, "model variant: schedule, stage_sum or both")->capture_default_str();
  cmd->add_flag("--plots,!--no-plots", options->plots, "write gnuplot PNGs (default on)");
  cmd->add_option("--contention-from", options->contention_from_bytes,
                  "derive the concurrent-transfer curves from the fan-out fits at and above this many bytes "
                  "(0: none; model/calibration/contention.hpp)")->capture_default_str();
  cmd->add_option("--checks-out", options->checks_out,
                  "also write the checks fitted on P <= 126 (both objectives) to this JSON file, which "
                  "`modeltuned fit --checks` puts into a table");
  cmd->add_flag("--relay-from-chains", options->relay_from_chains,
                "fit each mapping's relay cost on the forced chain bcasts at P <= 126 (max column) and put it "
                "in the tables; the data set has no relay measurement (docs/validation.md)");
  cmd->add_flag("--quick", options->quick, "no plots (for the regression guard)");
  cmd->add_option("--reduce-us-per-byte", options->reduce_us_per_byte,
                  "local reduction cost, us per byte (default: the shipped table's estimate)")
      ->check(cli::number(0))->capture_default_str();
  cmd->callback([options] {
    try {
      run_validate(*options);
    } catch (const std::exception &e) {
      std::fprintf(stderr, "modeltuned validate: %s\n", e.what());
      std::exit(2);
    }
  });
}

}  // namespace modeltuned::tools
