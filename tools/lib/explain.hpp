// The core of `modeltuned explain`: a what-if's decisions, made by the component's Selector, as
// JSON (decision_json), and the text explain prints for a decision (a what-if's or a real run's).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/select/selector.hpp"

namespace modeltuned::tools {

struct WhatIf {
  Op op = Op::bcast;
  std::vector<size_t> sizes;  // message sizes, bytes
  size_t type_size = 1;
  int root = 0;
  bool commutative = true;
  AlgorithmMask allowed = kAllAlgorithms;
  TreeSchedule tree_schedule = nullptr;  // nullptr: the model's (the component's)
  OmpiVersion ompi = OmpiVersion::v4_1;  // whose default the picks are weighed against
  bool han_enabled = true;               // false: as under --mca coll ^han (5.0 only)
};

// One decision_json per size.
nlohmann::json explain_what_if(const CalibrationTable &table, const Placement &placement, const WhatIf &what_if);

// Every candidate of one decision (decision_json) with its prediction, the pick and Open MPI's
// default; `top` > 0 shows only the best ones.
std::string format_decision(const nlohmann::json &decision, int top);

}  // namespace modeltuned::tools
