// Allreduce algorithms that are not trees of the bcast and reduce families: recursive doubling,
// the ring (whole and segmented) and Rabenseifner's reduce-scatter + allgather, each as Open MPI's
// coll_base_allreduce.c runs it (docs/openmpi-algorithms.md §6); and the linear allreduce, a
// linear reduce to rank 0 then a linear bcast from it. Every round is a set of concurrent blocking
// exchanges and costs its slowest one, as in the other non-tree families.
#pragma once
#include <vector>

#include "model/collectives/allreduce/schedule.hpp"
#include "model/simulate/evaluation.hpp"
#include "model/collectives/reduce/rabenseifner.hpp"
#include "model/simulate/tree_evaluation.hpp"
#include "model/topology/placement.hpp"

namespace modeltuned {

// basic_linear: ompi_coll_base_reduce_intra_basic_linear to rank 0, then
// ompi_coll_base_bcast_intra_basic_linear from it.
// The same flat tree around rank 0 serves both halves.
struct LinearAllreducePlan {
  int size = 0;
  TreePlan flat;
};

// Recursive doubling over the largest power of two p' <= P: the first 2(P - p') ranks fold in
// pairs (even sends to odd), p' ranks exchange the whole message log2 p' times, the folded ones
// get the result back.
struct RecursiveDoublingPlan {
  int size = 0;
  ChannelMask fold = 0;             // the folding pairs (2i, 2i + 1)
  std::vector<ChannelMask> rounds;  // per exchange round, distance growing
};

// The ring: every rank sends to rank + 1 and receives from rank - 1.
struct RingPlan {
  int size = 0;
  ChannelMask ring = 0;
};

LinearAllreducePlan linear_allreduce_plan(const Placement &placement);
RecursiveDoublingPlan recursive_doubling_plan(const Placement &placement);
RingPlan ring_plan(const Placement &placement);
// Rabenseifner's allreduce in the reduce's plan type: the fold's pairs, the halving rounds, and
// the allgather's doubling rounds in `gather`.
RabenseifnerPlan allreduce_rabenseifner_plan(const Placement &placement);

double evaluate_linear_allreduce(const Evaluation &e, const LinearAllreducePlan &plan);
double evaluate_recursive_doubling(const Evaluation &e, const RecursiveDoublingPlan &plan);
// For calls they run as themselves: the ring with at least one element per rank; the segmented
// ring with at least one segment per rank (e.candidate.segsize); Rabenseifner (its plan is the
// reduce's, rooted at 0) commutative with at least one element per rank of p'.
double evaluate_ring(const Evaluation &e, const RingPlan &plan);
double evaluate_segmented_ring(const Evaluation &e, const RingPlan &plan);
double evaluate_allreduce_rabenseifner(const Evaluation &e, const RabenseifnerPlan &plan);

}  // namespace modeltuned
