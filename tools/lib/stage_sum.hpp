// The seed report's model of a tree schedule (eq. 2-3), kept to compare with modeltuned's: depth
// + segments - 1 serial stages, each costing its slowest flat tree. A TreeSchedule, so any tree
// algorithm's evaluation can use it (explain --variant stage_sum, validate).
#pragma once
#include <span>

#include "model/simulate/tree_evaluation.hpp"

namespace modeltuned::tools {

double stage_sum_us(const TreePlan &plan, std::span<const double> flat_us, size_t segments);

}  // namespace modeltuned::tools
