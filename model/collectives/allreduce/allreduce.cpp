// MPI_Allreduce (coll_base_allreduce.c; docs/openmpi-algorithms.md §6): Open MPI 4.1's allreduce
// algorithms in tuned's order, each with tuned's name from coll_tuned_allreduce_decision.c
// (4.1.4), their fallbacks, and tuned's fixed rule. Recursive doubling combines the lower rank's
// operand first, in rank order: order-preserving, like linear.
#include "model/collectives/allreduce/schedule.hpp"
#include "model/collectives/allreduce/simulate.hpp"
#include "model/collectives/family.hpp"
#include "model/collectives/fixed_rule.hpp"
#include "model/collectives/reduce/rabenseifner.hpp"

// Specs name only the fields that differ from their defaults; GCC would warn about the others.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace modeltuned {
namespace {

// Allreduce has no root: its plans are the same for any.
Plan plan_linear_allreduce(const Placement &p, int, int) { return linear_allreduce_plan(p); }
Plan plan_recursive_doubling(const Placement &p, int, int) { return recursive_doubling_plan(p); }
Plan plan_ring(const Placement &p, int, int) { return ring_plan(p); }
Plan plan_allreduce_rabenseifner(const Placement &p, int, int) { return allreduce_rabenseifner_plan(p); }

// Fewer elements than ranks: recursive doubling.
std::optional<Candidate> ring_runs_instead(const Candidate &c, const CallShape &call, int comm_size) {
  if (call.count >= static_cast<size_t>(comm_size)) return std::nullopt;
  return registered_algorithm(c.op, "recursive_doubling");
}

// Fewer elements than P segments (so always with segment size 0): the whole ring.
std::optional<Candidate> segmented_ring_runs_instead(const Candidate &c, const CallShape &call, int comm_size) {
  if (segmented_ring_phases(c.segsize, call.type_size, call.count, comm_size) > 0) return std::nullopt;
  return registered_algorithm(c.op, "ring");
}

// As the reduce's Rabenseifner, it runs the linear allreduce instead.
std::optional<Candidate> allreduce_rabenseifner_runs_instead(const Candidate &c, const CallShape &call, int comm_size) {
  if (rabenseifner_runs_instead(c, call, comm_size)) return registered_algorithm(c.op, "linear");
  return std::nullopt;
}

// 6.0's runs itself at any count (its blocks may be empty), linear only for a non-commutative
// operation.
std::optional<Candidate> allreduce_rabenseifner_6_runs_instead(const Candidate &c, const CallShape &call, int) {
  if (!call.commutative) return registered_algorithm(c.op, "linear");
  return std::nullopt;
}

// ompi_coll_tuned_allreduce_intra_dec_fixed (4.1.4 and 5.0.7, the same): tuned's allreduce number
// (1 linear, 2 non-overlapping, 3 recursive doubling, 4 ring, 5 segmented ring, 6 Rabenseifner),
// run with segment size 0.
int allreduce_fixed_rule(size_t s, int p, bool commutative) {
  if (!commutative)
    return fixed_rule_lookup({{4, {{131072, 3}}, 1},
                              {8, {}, 3},
                              {16, {{1048576, 3}}, 2},
                              {128, {}, 3},
                              {256, {{131072, 2}, {524288, 3}}, 2},
                              {512, {{4096, 2}, {524288, 3}}, 2},
                              {0, {{2048, 2}}, 3}},
                             s, p);
  return fixed_rule_lookup({{4, {{8, 4}, {4096, 3}, {8192, 4}, {16384, 3}, {65536, 4}, {262144, 5}}, 6},
                            {8, {{16, 4}, {8192, 3}}, 6},
                            {16, {{8192, 3}}, 6},
                            {32, {{64, 5}, {4096, 3}}, 6},
                            {64, {{128, 5}}, 6},
                            {128, {{262144, 3}}, 6},
                            {256, {{131072, 2}, {262144, 3}}, 6},
                            {512, {{4096, 2}}, 6},
                            {2048, {{2048, 2}, {16384, 3}}, 6},
                            {4096, {{2048, 2}, {4096, 5}, {16384, 3}}, 6},
                            {0, {{2048, 2}, {16384, 5}, {32768, 3}}, 6}},
                           s, p);
}

using CC = CallingConvention;

const AlgorithmSpec kAllreduce[] = {
    {.op = Op::allreduce,
     .id = 1,
     .name = "linear",
     .tuned_name = "basic_linear",
     .description = "linear reduce to rank 0, then linear bcast from it",
     .order_preserving = true,
     .ompi_function = "ompi_coll_base_allreduce_intra_basic_linear",
     .convention = CC::allreduce,
     .plan = plan_linear_allreduce,
     .evaluate = evaluate_as<evaluate_linear_allreduce>},
    {.op = Op::allreduce,
     .id = 2,
     .name = "nonoverlapping",
     .tuned_name = "nonoverlapping",
     .description = "the communicator's own reduce to rank 0, then its own bcast",
     .order_preserving = true,
     .ompi_function = "ompi_coll_base_allreduce_intra_nonoverlapping",
     .convention = CC::allreduce,
     .composed = Composition::reduce_then_bcast},
    {.op = Op::allreduce,
     .id = 3,
     .name = "recursive_doubling",
     .tuned_name = "recursive_doubling",
     .description = "pairwise exchanges of the whole message over the largest power of two of ranks",
     .order_preserving = true,
     .ompi_function = "ompi_coll_base_allreduce_intra_recursivedoubling",
     .convention = CC::allreduce,
     .plan = plan_recursive_doubling,
     .evaluate = evaluate_as<evaluate_recursive_doubling>},
    {.op = Op::allreduce,
     .id = 4,
     .name = "ring",
     .tuned_name = "ring",
     .description = "reduce-scatter then allgather around the ring (recursive doubling when count < P)",
     .splits = true,
     .ompi_function = "ompi_coll_base_allreduce_intra_ring",
     .convention = CC::allreduce,
     .plan = plan_ring,
     .evaluate = evaluate_as<evaluate_ring>,
     .runs_instead = ring_runs_instead},
    {.op = Op::allreduce,
     .id = 5,
     .name = "segmented_ring",
     .tuned_name = "segmented_ring",
     .description = "the ring in phases of one segment per block (the ring when count < P segments)",
     .parameters = kSegmented,
     .splits = true,
     .ompi_function = "ompi_coll_base_allreduce_intra_ring_segmented",
     .convention = CC::allreduce_segsize,
     .plan = plan_ring,
     .evaluate = evaluate_as<evaluate_segmented_ring>,
     .runs_instead = segmented_ring_runs_instead},
    {.op = Op::allreduce,
     .id = 6,
     .name = "rabenseifner",
     .tuned_name = "rabenseifner",
     .description =
         "reduce-scatter by recursive halving, allgather by recursive doubling (linear when count < 2^floor(log2 P))",
     .splits = true,
     .ompi_function = "ompi_coll_base_allreduce_intra_redscat_allgather",
     .convention = CC::allreduce,
     .plan = plan_allreduce_rabenseifner,
     .evaluate = evaluate_as<evaluate_allreduce_rabenseifner>,
     .runs_instead = allreduce_rabenseifner_runs_instead,
     .until = OmpiVersion::v5_0},
    {.op = Op::allreduce,
     .id = 6,
     .name = "rabenseifner",
     .tuned_name = "rabenseifner",
     .description = "reduce-scatter by recursive halving, allgather by recursive doubling (Open MPI 6.0: at any count)",
     .splits = true,
     .ompi_function = "ompi_coll_base_allreduce_intra_redscat_allgather",
     .convention = CC::allreduce,
     .plan = plan_allreduce_rabenseifner,
     .evaluate = evaluate_as<evaluate_allreduce_rabenseifner>,
     .runs_instead = allreduce_rabenseifner_6_runs_instead,
     .since = OmpiVersion::v6_0},
    // Its P - 1 reductions fold each rank's message onto rank 0's from rank 1 up, the later
    // operand on the left: not rank order.
    {.op = Op::allreduce,
     .id = 7,
     .name = "allgather_reduce",
     .tuned_name = "allgather_reduce",
     .description =
         "the communicator's own allgather of every message, then every rank reduces them all (Open MPI 6.0)",
     .ompi_function = "ompi_coll_base_allreduce_intra_allgather_reduce",
     .convention = CC::allreduce,
     .composed = Composition::allgather_then_reduce,
     .since = OmpiVersion::v6_0},
};

}  // namespace

const CollectiveFamily &allreduce_family() {
  static const CollectiveFamily family{.op = Op::allreduce,
                                       .rooted = false,
                                       .algorithms = kAllreduce,
                                       .fixed_rule = allreduce_fixed_rule,
                                       .rounds = allreduce_rounds,
                                       .han = true};
  return family;
}

}  // namespace modeltuned
