// The size-independent part of a prediction, one type per kind of plan: the trees' (simulate/) and
// each collective family's own. A family with a new kind of plan adds its type here; every plan
// type has `int size` (ranks).
#pragma once
#include <variant>

#include "model/collectives/allgather/simulate.hpp"
#include "model/collectives/allreduce/simulate.hpp"
#include "model/collectives/alltoall/simulate.hpp"
#include "model/collectives/barrier/simulate.hpp"
#include "model/collectives/bcast/scatter_allgather.hpp"
#include "model/collectives/bcast/split_bintree.hpp"
#include "model/collectives/reduce/rabenseifner.hpp"
#include "model/simulate/tree_evaluation.hpp"

namespace modeltuned {

using Plan =
    std::variant<TreePlan, SplitBintreePlan, ScatterAllgatherPlan, ScatterAllgatherRingPlan, RabenseifnerPlan,
                 LinearAllreducePlan, RecursiveDoublingPlan, RingPlan, BarrierPlan, AllgatherPlan, AlltoallPlan>;

inline int plan_size(const Plan &plan) {
  return std::visit([](const auto &family) { return family.size; }, plan);
}

}  // namespace modeltuned
