// The model's entry points for one candidate, through its algorithm's spec.
#pragma once
#include <optional>

#include "model/calibration/table.hpp"
#include "model/registry/registry.hpp"
#include "model/topology/placement.hpp"

namespace modeltuned {

// The candidate's plan on this placement for this root; nullopt for an unregistered algorithm.
std::optional<Plan> make_plan(const Placement &placement, const Candidate &c, int root);

// Nullopt for an unregistered algorithm, and when Open MPI would run another algorithm for this
// call (AlgorithmSpec::runs_instead): the selector must never pick it.
std::optional<double> evaluate_plan(const CalibrationTable &table, const Plan &plan, const CallShape &call,
                                    const Candidate &c, TreeSchedule tree_schedule = nullptr);

// make_plan and evaluate_plan, with the segment size of an unsegmented algorithm ignored.
std::optional<double> predict_us(const CalibrationTable &table, const Placement &placement, const Candidate &c,
                                 const CallShape &call, TreeSchedule tree_schedule = nullptr);

}  // namespace modeltuned
