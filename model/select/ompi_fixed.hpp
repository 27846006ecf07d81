// What Open MPI 4.1's tuned component decides without rules (coll_tuned_decision_fixed.c), so that
// modeltuned's picks can be shown and validated beside the default.
#pragma once
#include <cstddef>

#include "model/schedule/algorithms.hpp"

namespace modeltuned {

// The candidate tuned's fixed rules run for a call: no segmentation, fan-out 0 (which Open MPI's
// chain turns into a pipeline) and, for k-nomial, tuned's default radix 4.
Candidate ompi_fixed_decision(Op op, size_t bytes, int comm_size, bool commutative);

// The algorithm Open MPI really runs when asked for `c` (its silent fallbacks, docs/openmpi-
// algorithms.md §5): scatter-allgather with count < P and Rabenseifner with count < 2^floor(log2 P)
// or a non-commutative op run linear; split binary tree with one element or a segment larger than
// a half runs the pipeline; chain with fan-out 0 is the pipeline.
Candidate what_runs(const Candidate &c, size_t count, size_t type_size, int comm_size, bool commutative);

// tuned's coll_tuned_bcast_algorithm_knomial_radix default.
inline constexpr int kTunedKnomialRadix = 4;

}  // namespace modeltuned
