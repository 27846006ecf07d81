// The size-independent part of a prediction, one type per algorithm family. A new family adds
// its plan type here; every plan type has `int size` (ranks).
#pragma once
#include <variant>

#include "model/simulate/allreduce.hpp"
#include "model/simulate/rabenseifner.hpp"
#include "model/simulate/scatter_allgather.hpp"
#include "model/simulate/split_bintree.hpp"
#include "model/simulate/tree_algorithms.hpp"

namespace modeltuned {

using Plan = std::variant<TreePlan, SplitBintreePlan, ScatterAllgatherPlan, ScatterAllgatherRingPlan, RabenseifnerPlan,
                          LinearAllreducePlan, RecursiveDoublingPlan, RingPlan>;

inline int plan_size(const Plan &plan) {
  return std::visit([](const auto &family) { return family.size; }, plan);
}

}  // namespace modeltuned
