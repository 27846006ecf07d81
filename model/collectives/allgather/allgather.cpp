// MPI_Allgather (coll_base_allgather.c; docs/openmpi-algorithms.md §8): Open MPI's allgather
// algorithms in tuned's order, each with tuned's name from coll_tuned_allgather_decision.c (4.1.4
// has 1-6, 5.0.7 adds sparbit, 6.0 replaces Bruck with its k-radix Bruck under 2 and adds direct
// messaging), their fallbacks, and tuned's fixed rule (the same in all three). A call
// is decided by one rank's block, in bytes: what tuned's rule looks at, and what every rank shares.
#include <bit>

#include "model/collectives/allgather/schedule.hpp"
#include "model/collectives/allgather/simulate.hpp"
#include "model/collectives/family.hpp"
#include "model/collectives/fixed_rule.hpp"

// Specs name only the fields that differ from their defaults; GCC would warn about the others.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace modeltuned {
namespace {

// An allgather has no root: one plan per algorithm (and radix) serves every call.
template <int algorithm>
Plan plan_allgather(const Placement &p, int fanout, int) {
  return allgather_plan(p, algorithm, fanout);
}

// Off powers of two, recursive doubling runs Bruck (6.0: its k-radix Bruck of radix 2, the same).
std::optional<Candidate> recursive_doubling_runs_instead(const Candidate &c, const CallShape &, int comm_size) {
  if (std::has_single_bit(static_cast<unsigned>(comm_size))) return std::nullopt;
  Candidate bruck = registered_algorithm(c.op, "bruck");
  if (!find_algorithm(c.op, bruck.algorithm)->parameters.fanout_name.empty()) bruck.fanout = 2;
  return bruck;
}

// Radices searched for 6.0's k-radix Bruck (Open MPI does not check it; below 2 never ends), and
// what tuned passes: 2 by its fixed rules, its allgather tree fan-out's default (4) when forced,
// a rule's fan-in/out under a rules file.
constexpr int kBruckRadices[] = {2, 3, 4, 8};
constexpr Parameters kBruckRadix{
    .fanout_name = "radix", .fanouts = kBruckRadices, .tuned_fixed_fanout = 2, .tuned_forced_fanout = 4};

// On odd sizes, neighbor exchange runs the ring.
std::optional<Candidate> neighbor_exchange_runs_instead(const Candidate &c, const CallShape &, int comm_size) {
  if (comm_size % 2 == 0) return std::nullopt;
  return registered_algorithm(c.op, "ring");
}

// ompi_coll_tuned_allgather_intra_dec_fixed (4.1.4 and 5.0.7, the same): tuned's number by one
// rank's block (1 linear, 2 Bruck, 3 recursive doubling, 4 ring, 5 neighbor exchange, 6 two_proc).
int allgather_fixed_rule(size_t s, int p, bool) {
  if (p == 2) return 6;
  return fixed_rule_lookup({{32, {}, 3},
                            {64, {{1024, 3}, {65536, 5}}, 4},
                            {128, {{512, 3}, {65536, 5}}, 4},
                            {256, {{512, 3}, {131072, 5}, {524288, 4}, {1048576, 5}}, 4},
                            {512, {{32, 3}, {128, 2}, {1024, 3}, {131072, 5}, {524288, 4}, {1048576, 5}}, 4},
                            {1024, {{64, 3}, {256, 2}, {2048, 3}}, 5},
                            {2048, {{4, 3}, {8, 2}, {16, 3}, {32, 2}, {256, 3}, {512, 2}, {4096, 3}}, 5},
                            {4096, {{32, 2}, {128, 3}, {512, 2}, {4096, 3}}, 5},
                            {0, {{2, 3}, {8, 2}, {16, 3}, {512, 2}, {4096, 3}}, 5}},
                           s, p);
}

using CC = CallingConvention;

const AlgorithmSpec kAllgather[] = {
    {.op = Op::allgather,
     .id = 1,
     .name = "linear",
     .description = "the communicator's own gather to rank 0, then its own bcast of the whole",
     .ompi_function = "ompi_coll_base_allgather_intra_basic_linear",
     .convention = CC::allgather,
     .plan = plan_allgather<1>,
     .evaluate = evaluate_as<evaluate_allgather>,
     .composed = Composition::gather_then_bcast},
    {.op = Op::allgather,
     .id = 2,
     .name = "bruck",
     .description = "ceil(log2 P) rounds sending what a rank has to rank - 2^k, then a local rotation",
     .ompi_function = "ompi_coll_base_allgather_intra_bruck",
     .convention = CC::allgather,
     .plan = plan_allgather<2>,
     .evaluate = evaluate_as<evaluate_allgather>,
     .until = OmpiVersion::v5_0},
    {.op = Op::allgather,
     .id = 2,
     .name = "k_bruck",
     .tuned_name = "bruck-k-fanout",
     .description =
         "Bruck of radix k: ceil(log_k P) rounds sending to k - 1 ranks at once, then a local rotation (Open MPI 6.0)",
     .parameters = kBruckRadix,
     .ompi_function = "ompi_coll_base_allgather_intra_k_bruck",
     .convention = CC::allgather_radix,
     .plan = plan_allgather<2>,
     .evaluate = evaluate_as<evaluate_allgather>,
     .since = OmpiVersion::v6_0},
    {.op = Op::allgather,
     .id = 3,
     .name = "recursive_doubling",
     .description = "pairwise exchanges of doubling halves (Bruck off powers of two)",
     .ompi_function = "ompi_coll_base_allgather_intra_recursivedoubling",
     .convention = CC::allgather,
     .plan = plan_allgather<3>,
     .evaluate = evaluate_as<evaluate_allgather>,
     .runs_instead = recursive_doubling_runs_instead},
    {.op = Op::allgather,
     .id = 4,
     .name = "ring",
     .description = "P - 1 rounds passing one block to rank + 1",
     .ompi_function = "ompi_coll_base_allgather_intra_ring",
     .convention = CC::allgather,
     .plan = plan_allgather<4>,
     .evaluate = evaluate_as<evaluate_allgather>},
    {.op = Op::allgather,
     .id = 5,
     .name = "neighbor",
     .description = "P/2 rounds exchanging two blocks with alternate neighbours (the ring on odd sizes)",
     .ompi_function = "ompi_coll_base_allgather_intra_neighborexchange",
     .convention = CC::allgather,
     .plan = plan_allgather<5>,
     .evaluate = evaluate_as<evaluate_allgather>,
     .runs_instead = neighbor_exchange_runs_instead},
    {.op = Op::allgather,
     .id = 6,
     .name = "two_proc",
     .description = "one exchange between the two ranks (Open MPI refuses it on other sizes)",
     .ompi_function = "ompi_coll_base_allgather_intra_two_procs",
     .convention = CC::allgather,
     .plan = plan_allgather<6>,
     .evaluate = evaluate_as<evaluate_allgather>,
     .runs_only_on = 2},
    {.op = Op::allgather,
     .id = 7,
     .name = "sparbit",
     .description = "ceil(log2 P) rounds at halving distances, one message per block held (Open MPI 5.0)",
     .ompi_function = "ompi_coll_base_allgather_intra_sparbit",
     .convention = CC::allgather_in_place,
     .plan = plan_allgather<7>,
     .evaluate = evaluate_as<evaluate_allgather>,
     .since = OmpiVersion::v5_0},
    {.op = Op::allgather,
     .id = 8,
     .name = "direct_messaging",
     .tuned_name = "direct-messaging",
     .description = "one round in which every rank sends its block to every other at once (Open MPI 6.0)",
     .ompi_function = "ompi_coll_base_allgather_direct_messaging",
     .convention = CC::allgather_own_block,
     .plan = plan_allgather<8>,
     .evaluate = evaluate_as<evaluate_allgather>,
     .since = OmpiVersion::v6_0},
};

}  // namespace

const CollectiveFamily &allgather_family() {
  static const CollectiveFamily family{.op = Op::allgather,
                                       .rooted = false,
                                       .algorithms = kAllgather,
                                       .fixed_rule = allgather_fixed_rule,
                                       .rounds = allgather_rounds,
                                       .han = true};
  return family;
}

}  // namespace modeltuned
