// MPI_Barrier (coll_base_barrier.c; docs/openmpi-algorithms.md §7): Open MPI's barrier algorithms
// in tuned's order, each with tuned's name from coll_tuned_barrier_decision.c (4.1.4 and 5.0.7,
// the same), and tuned's fixed rule, which looks at the communicator's size only. Every algorithm
// moves empty messages: nothing to segment, split or reduce.
#include "model/collectives/barrier/schedule.hpp"
#include "model/collectives/barrier/simulate.hpp"
#include "model/collectives/family.hpp"

// Specs name only the fields that differ from their defaults; GCC would warn about the others.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace modeltuned {
namespace {

// A barrier has no root: one plan per algorithm serves every call.
template <int algorithm>
Plan plan_barrier(const Placement &p, int, int) {
  return barrier_plan(p, algorithm);
}

// ompi_coll_tuned_barrier_intra_dec_fixed (4.1.4 and 5.0.7, the same): by communicator size only.
int barrier_fixed_rule(size_t, int p, bool) {
  if (p < 4) return 3;
  if (p < 8) return 1;
  if (p < 64) return 3;
  if (p < 256) return 4;
  if (p < 512) return 6;
  if (p < 1024) return 4;
  if (p < 4096) return 6;
  return 4;
}

using CC = CallingConvention;

const AlgorithmSpec kBarrier[] = {
    {.op = Op::barrier,
     .id = 1,
     .name = "linear",
     .description = "every rank signals rank 0, which then releases each in turn",
     .ompi_function = "ompi_coll_base_barrier_intra_basic_linear",
     .convention = CC::barrier,
     .plan = plan_barrier<1>,
     .evaluate = evaluate_as<evaluate_barrier>},
    {.op = Op::barrier,
     .id = 2,
     .name = "double_ring",
     .description = "a token twice around the ring from rank 0, the second time with synchronous sends",
     .ompi_function = "ompi_coll_base_barrier_intra_doublering",
     .convention = CC::barrier,
     .plan = plan_barrier<2>,
     .evaluate = evaluate_as<evaluate_barrier>},
    {.op = Op::barrier,
     .id = 3,
     .name = "recursive_doubling",
     .description = "pairwise exchanges over the largest power of two of ranks, the others folded in",
     .ompi_function = "ompi_coll_base_barrier_intra_recursivedoubling",
     .convention = CC::barrier,
     .plan = plan_barrier<3>,
     .evaluate = evaluate_as<evaluate_barrier>},
    {.op = Op::barrier,
     .id = 4,
     .name = "bruck",
     .description = "ceil(log2 P) rounds in which every rank signals rank + 2^k",
     .ompi_function = "ompi_coll_base_barrier_intra_bruck",
     .convention = CC::barrier,
     .plan = plan_barrier<4>,
     .evaluate = evaluate_as<evaluate_barrier>},
    {.op = Op::barrier,
     .id = 5,
     .name = "two_proc",
     .description = "one exchange between the two ranks (Open MPI refuses it on other sizes)",
     .ompi_function = "ompi_coll_base_barrier_intra_two_procs",
     .convention = CC::barrier,
     .plan = plan_barrier<5>,
     .evaluate = evaluate_as<evaluate_barrier>,
     .runs_only_on = 2},
    {.op = Op::barrier,
     .id = 6,
     .name = "tree",
     .description = "up a binomial tree to rank 0 and back down it",
     .ompi_function = "ompi_coll_base_barrier_intra_tree",
     .convention = CC::barrier,
     .plan = plan_barrier<6>,
     .evaluate = evaluate_as<evaluate_barrier>},
};

}  // namespace

const CollectiveFamily &barrier_family() {
  static const CollectiveFamily family{.op = Op::barrier,
                                       .rooted = false,
                                       .moves_data = false,
                                       .algorithms = kBarrier,
                                       .fixed_rule = barrier_fixed_rule,
                                       .rounds = barrier_rounds,
                                       .han = true};
  return family;
}

}  // namespace modeltuned
