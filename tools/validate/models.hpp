// The models validate scores: modeltuned's point-to-point model (schedule, stage-sum and
// rank-mean variants) and the seed report's linear regression (eq. 12), each predicting the
// measured points.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "model/calibration/table.hpp"
#include "model/simulate/evaluation.hpp"
#include "tools/validate/measurements.hpp"

namespace modeltuned::tools::validate {

// Predictions per model name, for the same keys as the measurements (missing: not predictable).
using Predictions = std::map<std::string, std::map<Key, double>>;

// `metric`: OSU's latency column is each rank's time averaged over ranks (Metric::rank_mean);
// its max column is the slowest rank, closest to the collective's completion. `schedule`: the
// tree schedule (nullptr: the model's own).
struct ModelDef {
  std::string name;
  TreeSchedule schedule;
  Metric metric;
};

// The point-to-point models --variant asks for (schedule, stage_sum or both).
std::vector<ModelDef> point_to_point_models(const std::string &variant);

// Every measured point the models can predict, with `table`, into out[model name].
void predict_p2p(const CalibrationTable &table, const Measured &measured, const std::vector<ModelDef> &models,
                 Predictions &out);

// Report eq. 12 fitted per (op, algorithm, mapping, size): "linear-in" fitted on every P (as the
// report), "linear-out" fitted on P <= kOutOfSampleFitMaxP and predicting P >= kOutOfSampleMinP.
void predict_regression(const Measured &measured, Predictions &out);

}  // namespace modeltuned::tools::validate
