// What Open MPI 4.1's tuned component decides without rules (coll_tuned_decision_fixed.c), so that
// modeltuned's picks can be shown and validated beside the default.
#pragma once
#include <cstddef>

#include "schedule/algorithms.hpp"

namespace modeltuned {

// The candidate tuned's fixed rules run for a call: no segmentation, fan-out 0 (which Open MPI's
// chain turns into a pipeline) and, for k-nomial, tuned's default radix 4.
Candidate ompi_fixed_decision(Op op, size_t bytes, int comm_size, bool commutative);

// tuned's coll_tuned_bcast_algorithm_knomial_radix default.
inline constexpr int kTunedKnomialRadix = 4;

}  // namespace modeltuned
