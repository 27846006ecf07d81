// MPI_Alltoall (coll_base_alltoall.c; docs/openmpi-algorithms.md §9): Open MPI's alltoall
// algorithms in tuned's order, each with tuned's name from coll_tuned_alltoall_decision.c (the
// same five in 4.1.4 and 5.0.7), and tuned's fixed rule (the same in both). A call is decided by
// one block, the bytes a rank sends each peer: what tuned's rule looks at, and what every rank
// shares. Every algorithm runs an in-place call as Open MPI's basic in-place exchange, which the
// component leaves to Open MPI.
#include "model/collectives/alltoall/schedule.hpp"
#include "model/collectives/alltoall/simulate.hpp"
#include "model/collectives/family.hpp"
#include "model/collectives/fixed_rule.hpp"

// Specs name only the fields that differ from their defaults; GCC would warn about the others.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace modeltuned {
namespace {

// An alltoall has no root: one plan per algorithm serves every call.
template <int algorithm>
Plan plan_alltoall(const Placement &p, int, int) {
  return alltoall_plan(p, algorithm);
}

// ompi_coll_tuned_alltoall_intra_dec_fixed (4.1.4 and 5.0.7, the same): tuned's number by one
// block (1 linear, 2 pairwise, 3 modified Bruck, 4 linear_sync, 5 two_proc).
int alltoall_fixed_rule(size_t s, int p, bool) {
  if (p == 2)
    return fixed_rule_lookup(
        {{0, {{2, 2}, {4, 5}, {16, 2}, {64, 5}, {256, 2}, {4096, 5}, {32768, 2}, {262144, 4}, {1048576, 5}}, 2}}, s, p);
  return fixed_rule_lookup({{8, {{8192, 4}, {16384, 1}, {65536, 4}, {524288, 1}, {1048576, 2}}, 1},
                            {16, {{262144, 4}}, 1},
                            {32, {{4, 4}, {512, 3}, {8192, 4}, {32768, 1}, {262144, 4}, {524288, 1}}, 4},
                            {64, {{512, 3}, {524288, 1}}, 4},
                            {128, {{1024, 3}, {2048, 1}, {4096, 4}, {262144, 1}}, 2},
                            {256, {{1024, 3}, {2048, 4}, {262144, 1}}, 2},
                            {512, {{1024, 3}, {8192, 4}, {32768, 1}}, 2},
                            {1024, {{512, 3}, {8192, 4}, {16384, 1}, {131072, 4}, {262144, 1}}, 2},
                            {2048, {{512, 3}, {1024, 4}, {2048, 1}, {16384, 4}, {262144, 1}}, 4},
                            {4096, {{1024, 3}, {4096, 4}, {8192, 1}, {131072, 4}}, 1},
                            {0, {{2048, 3}, {8192, 4}, {16384, 1}, {32768, 4}, {65536, 1}}, 4}},
                           s, p);
}

using CC = CallingConvention;

const AlgorithmSpec kAlltoall[] = {
    {.op = Op::alltoall,
     .id = 1,
     .name = "linear",
     .tuned_name = "basic_linear",
     .description = "every send and receive posted at once (persistent requests), then one wait",
     .ompi_function = "ompi_coll_base_alltoall_intra_basic_linear",
     .convention = CC::alltoall,
     .plan = plan_alltoall<1>,
     .evaluate = evaluate_as<evaluate_alltoall>},
    {.op = Op::alltoall,
     .id = 2,
     .name = "pairwise",
     .description = "P - 1 rounds, each rank sending to rank + k and receiving from rank - k",
     .ompi_function = "ompi_coll_base_alltoall_intra_pairwise",
     .convention = CC::alltoall,
     .plan = plan_alltoall<2>,
     .evaluate = evaluate_as<evaluate_alltoall>},
    {.op = Op::alltoall,
     .id = 3,
     .name = "modified_bruck",
     .description = "ceil(log2 P) rounds at doubling distances, each a message of half the blocks, and rotations",
     .ompi_function = "ompi_coll_base_alltoall_intra_bruck",
     .convention = CC::alltoall_one_layout,
     .plan = plan_alltoall<3>,
     .evaluate = evaluate_as<evaluate_alltoall>},
    {.op = Op::alltoall,
     .id = 4,
     .name = "linear_sync",
     .description = "every send and receive posted at once (no request limit), then one wait",
     .ompi_function = "ompi_coll_base_alltoall_intra_linear_sync",
     .convention = CC::alltoall_requests,
     .plan = plan_alltoall<4>,
     .evaluate = evaluate_as<evaluate_alltoall>},
    {.op = Op::alltoall,
     .id = 5,
     .name = "two_proc",
     .description = "one exchange between the two ranks (Open MPI refuses it on other sizes)",
     .ompi_function = "ompi_coll_base_alltoall_intra_two_procs",
     .convention = CC::alltoall,
     .plan = plan_alltoall<5>,
     .evaluate = evaluate_as<evaluate_alltoall>,
     .runs_only_on = 2},
};

}  // namespace

const CollectiveFamily &alltoall_family() {
  static const CollectiveFamily family{.op = Op::alltoall,
                                       .rooted = false,
                                       .algorithms = kAlltoall,
                                       .fixed_rule = alltoall_fixed_rule,
                                       .rounds = alltoall_rounds,
                                       .han = true,
                                       .han_since = OmpiVersion::v6_0};
  return family;
}

}  // namespace modeltuned
