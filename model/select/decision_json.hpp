// One decision as JSON: the component's decision file (mt_decide) and `modeltuned explain
// --json` write the same, so `modeltuned explain --decisions` prints a real run's choices like a
// what-if.
#pragma once
#include <optional>

#include <nlohmann/json.hpp>

#include "model/select/selector.hpp"

namespace modeltuned {

nlohmann::json candidate_json(const Candidate &c, std::optional<double> predicted_us);

// {"op", "count", "type_size", "bytes", "root", "commutative", "comm_size",
//  "pick": candidate, "ompi_default": candidate (what Open MPI 4.1's fixed rules run, predicted),
//  "candidates": [every prediction, fastest first]}
nlohmann::json decision_json(const CalibrationTable &table, const Placement &placement,
                             const CallShape &call, const std::optional<Decision> &decision,
                             TreeSchedule tree_schedule = nullptr);

}  // namespace modeltuned
