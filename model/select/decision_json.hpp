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
//  "ompi" (the Open MPI line, "4.1" or "5.0"), "pick": candidate, "ompi_default": candidate (what
//  that line's fixed rules run, predicted),
//  "candidates": [every prediction, fastest first]}
nlohmann::json decision_json(const CalibrationTable &table, const Placement &placement, const CallShape &call,
                             const std::optional<Decision> &decision, TreeSchedule tree_schedule = nullptr,
                             OmpiVersion ompi = OmpiVersion::v4_1);

}  // namespace modeltuned
