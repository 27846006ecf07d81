// MPI_Reduce (coll_base_reduce.c; docs/openmpi-algorithms.md §3, §5): Open MPI 4.1's reduce
// algorithms in tuned's order, each with tuned's name from coll_tuned_reduce_decision.c (4.1.4),
// 6.0's k-nomial, their fallbacks, and tuned's fixed rule.
#include "model/collectives/family.hpp"
#include "model/collectives/fixed_rule.hpp"
#include "model/collectives/reduce/rabenseifner.hpp"
#include "model/collectives/tree_specs.hpp"
#include "model/schedule/rounds.hpp"

// Specs name only the fields that differ from their defaults; GCC would warn about the others.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace modeltuned {

std::optional<Candidate> rabenseifner_runs_instead(const Candidate &c, const CallShape &call, int comm_size) {
  const size_t pof2 = static_cast<size_t>(floor_power_of_two(comm_size));
  if (pof2 >= 2 && call.count >= pof2 && call.commutative) return std::nullopt;
  return registered_algorithm(c.op, "linear");
}

namespace {

Plan plan_in_order_binomial(const Placement &p, int, int root) {
  return plan_for_tree(build_in_order_bmtree(p.size(), root), p);
}
Plan plan_in_order_binary(const Placement &p, int, int root) { return in_order_binary_plan(p, root); }
Plan plan_rabenseifner(const Placement &p, int, int root) { return rabenseifner_plan(p, root); }
Plan plan_knomial(const Placement &p, int radix, int root) {
  return plan_for_tree(build_kmtree(p.size(), root, radix), p);
}

// Radices searched for 6.0's k-nomial reduce (its tree is bcast's k-nomial tree, and radix < 2
// fails), and what tuned passes: 2 by its fixed rules (which never pick it), its reduce chain
// fan-out's default (4) when forced, a rule's fan-in/out under a rules file. It ignores the
// segment size: one message per child.
constexpr int kKnomialRadices[] = {2, 3, 4, 8};
constexpr Parameters kKnomial{
    .fanout_name = "radix", .fanouts = kKnomialRadices, .tuned_fixed_fanout = 2, .tuned_forced_fanout = 4};

// ompi_coll_tuned_reduce_intra_dec_fixed, Open MPI 4.1.4 and 5.0.7, non-commutative branch.
int reduce_noncommutative_rule(size_t s, int p) {
  return fixed_rule_lookup({{4, {{8, 6}}, 1},
                            {8, {}, 1},
                            {16, {{1024, 6}, {8192, 1}, {16384, 6}, {262144, 1}}, 6},
                            {128, {}, 6},
                            {256, {{512, 6}, {1024, 1}}, 6},
                            {0, {}, 6}},
                           s, p);
}

// ompi_coll_tuned_reduce_intra_dec_fixed, Open MPI 4.1.4 and 5.0.7, commutative branch.
int reduce_commutative_rule(size_t s, int p) {
  return fixed_rule_lookup({{4, {{8, 7}, {16, 4}, {32, 3}, {262144, 1}, {524288, 3}, {1048576, 2}}, 3},
                            {8, {{4096, 4}, {65536, 2}, {262144, 5}, {524288, 1}, {1048576, 5}}, 1},
                            {16, {{8192, 4}}, 5},
                            {32, {{4096, 4}}, 5},
                            {256, {}, 5},
                            {512, {{8192, 5}, {16384, 6}}, 5},
                            {2048, {}, 5},
                            {4096, {{512, 5}, {1024, 6}, {8192, 5}, {16384, 6}}, 5},
                            {0, {{16, 5}, {32, 6}, {1024, 5}, {2048, 6}, {8192, 5}, {16384, 6}}, 5}},
                           s, p);
}

int reduce_fixed_rule(size_t s, int p, bool commutative) {
  return commutative ? reduce_commutative_rule(s, p) : reduce_noncommutative_rule(s, p);
}

using CC = CallingConvention;

const AlgorithmSpec kReduce[] = {
    {.op = Op::reduce,
     .id = 1,
     .name = "linear",
     .tuned_name = "linear",
     .description = "root receives from every rank in order and reduces",
     .order_preserving = true,
     .ompi_function = "ompi_coll_base_reduce_intra_basic_linear",
     .convention = CC::reduce,
     .plan = plan_linear,
     .evaluate = kTree},
    {.op = Op::reduce,
     .id = 2,
     .name = "chain",
     .tuned_name = "chain",
     .description = "fan-in chains into the root, segments pipelined",
     .parameters = kChain,
     .ompi_function = "ompi_coll_base_reduce_intra_chain",
     .convention = CC::reduce_segsize_fanout_requests,
     .plan = plan_chain,
     .evaluate = kTree,
     .runs_instead = chain_runs_instead},
    {.op = Op::reduce,
     .id = 3,
     .name = "pipeline",
     .tuned_name = "pipeline",
     .description = "a single chain into the root, segments pipelined",
     .parameters = kSegmented,
     .ompi_function = "ompi_coll_base_reduce_intra_pipeline",
     .convention = CC::reduce_segsize_requests,
     .plan = plan_pipeline,
     .evaluate = kTree},
    {.op = Op::reduce,
     .id = 4,
     .name = "binary",
     .tuned_name = "binary",
     .description = "binary tree, segments pipelined",
     .parameters = kSegmented,
     .ompi_function = "ompi_coll_base_reduce_intra_binary",
     .convention = CC::reduce_segsize_requests,
     .plan = plan_binary_tree,
     .evaluate = kTree},
    {.op = Op::reduce,
     .id = 5,
     .name = "binomial",
     .tuned_name = "binomial",
     .description = "in-order binomial tree, segments pipelined",
     .parameters = kSegmented,
     .ompi_function = "ompi_coll_base_reduce_intra_binomial",
     .convention = CC::reduce_segsize_requests,
     .plan = plan_in_order_binomial,
     .evaluate = kTree},
    {.op = Op::reduce,
     .id = 6,
     .name = "in_order_binary",
     .tuned_name = "in-order_binary",
     .description = "in-order binary tree rooted at the last rank, result sent to the root",
     .parameters = kSegmented,
     .order_preserving = true,
     .ompi_function = "ompi_coll_base_reduce_intra_in_order_binary",
     .convention = CC::reduce_segsize_requests,
     .plan = plan_in_order_binary,
     .evaluate = kTree},
    {.op = Op::reduce,
     .id = 7,
     .name = "rabenseifner",
     .tuned_name = "rabenseifner",
     .description = "reduce-scatter by recursive halving then binomial gather (linear when count < 2^floor(log2 P))",
     .splits = true,
     .ompi_function = "ompi_coll_base_reduce_intra_redscat_gather",
     .convention = CC::reduce,
     .plan = plan_rabenseifner,
     .evaluate = evaluate_as<evaluate_rabenseifner>,
     .runs_instead = rabenseifner_runs_instead},
    {.op = Op::reduce,
     .id = 8,
     .name = "knomial",
     .tuned_name = "knomial",
     .description = "k-nomial tree of the given radix, each child's whole message at once (Open MPI 6.0)",
     .parameters = kKnomial,
     .ompi_function = "ompi_coll_base_reduce_intra_knomial",
     .convention = CC::reduce_segsize_requests_radix,
     .plan = plan_knomial,
     .evaluate = kTree,
     .since = OmpiVersion::v6_0},
};

}  // namespace

const CollectiveFamily &reduce_family() {
  static const CollectiveFamily family{
      .op = Op::reduce, .rooted = true, .algorithms = kReduce, .fixed_rule = reduce_fixed_rule, .han = true};
  return family;
}

}  // namespace modeltuned
