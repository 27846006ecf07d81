// Predicting the measured points: the point-to-point model through the model library, the
// seed report's regression by least squares (see models.hpp).
#include "tools/validate/models.hpp"

#include <cmath>
#include <optional>
#include <tuple>

#include <Eigen/Dense>

#include "model/registry/predict.hpp"
#include "model/select/ompi_fixed.hpp"
#include "tools/lib/stage_sum.hpp"

namespace modeltuned::tools::validate {

std::vector<ModelDef> point_to_point_models(const std::string &variant) {
  std::vector<ModelDef> models;
  if (variant != "stage_sum") models.push_back({"p2p", nullptr, Metric::completion});
  if (variant != "schedule") models.push_back({"p2p-stage-sum", stage_sum_us, Metric::completion});
  // The schedule model predicting each rank's own time averaged over ranks, OSU's definition of
  // the latency column (docs/validation.md: better for reduce, worse for selection so far).
  if (variant != "stage_sum") models.push_back({"p2p-rank-mean", nullptr, Metric::rank_mean});
  return models;
}

void predict_p2p(const CalibrationTable &table, const Measured &measured, const std::vector<ModelDef> &models,
                 Predictions &out) {
  std::map<std::tuple<int, int, int>, Placement> placements;            // (mapping, P) only, op ignored
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

namespace {

// Report eq. 12 regresses on log2 P for the binary trees, on P otherwise.
bool is_binary_tree(Op op, int algorithm) {
  return (op == Op::bcast && algorithm == 5) || (op == Op::reduce && algorithm == 4);
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

// Fits eq. 12 on `train` and predicts `test` into `dest`; too few points to fit: nothing.
void fit_and_predict(const Measured &measured, const std::vector<Key> &train, const std::vector<Key> &test,
                     std::map<Key, double> &dest) {
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
}

}  // namespace

void predict_regression(const Measured &measured, Predictions &out) {
  std::map<std::tuple<int, int, int, double>, std::vector<Key>> groups;
  for (const auto &[k, us] : measured) groups[{k.op, k.algorithm, k.mapping, k.bytes}].push_back(k);
  for (const auto &[g, keys] : groups) {
    fit_and_predict(measured, keys, keys, out["linear-in"]);
    std::vector<Key> train, test;
    for (const Key &k : keys) {
      if (k.p <= kOutOfSampleFitMaxP) train.push_back(k);
      if (k.p >= kOutOfSampleMinP) test.push_back(k);
    }
    fit_and_predict(measured, train, test, out["linear-out"]);
  }
}

}  // namespace modeltuned::tools::validate
