// MPI_Bcast (coll_base_bcast.c; docs/openmpi-algorithms.md §2, §5): Open MPI 4.1's bcast
// algorithms in tuned's order, each with tuned's name from coll_tuned_bcast_decision.c (4.1.4),
// their fallbacks, and tuned's fixed rule. Bcast moves data unchanged: every bcast algorithm is
// order-preserving.
#include "model/collectives/bcast/scatter_allgather.hpp"
#include "model/collectives/bcast/split_bintree.hpp"
#include "model/collectives/family.hpp"
#include "model/collectives/fixed_rule.hpp"
#include "model/collectives/tree_specs.hpp"

// Specs name only the fields that differ from their defaults; GCC would warn about the others.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace modeltuned {
namespace {

// Radices searched for the k-nomial tree (Open MPI never checks the radix, and radix < 2 hangs),
// and the default of tuned's k-nomial radix parameter (coll_tuned_bcast_knomial_radix).
constexpr int kKnomialRadices[] = {2, 3, 4, 8};
constexpr int kTunedKnomialRadix = 4;
constexpr Parameters kKnomial{.segmented = true,
                              .fanout_name = "radix",
                              .fanouts = kKnomialRadices,
                              .tuned_fixed_fanout = kTunedKnomialRadix,
                              .tuned_forced_fanout = kTunedKnomialRadix,
                              .tuned_rule_fanout = kTunedKnomialRadix};

Plan plan_binomial(const Placement &p, int, int root) { return plan_for_tree(build_bmtree(p.size(), root), p); }
Plan plan_knomial(const Placement &p, int radix, int root) {
  return plan_for_tree(build_kmtree(p.size(), root, radix), p);
}
Plan plan_split_bintree(const Placement &p, int, int root) { return split_bintree_plan(p, root); }
Plan plan_scatter_allgather(const Placement &p, int, int root) { return scatter_allgather_plan(p, root); }
Plan plan_scatter_allgather_ring(const Placement &p, int, int root) { return scatter_allgather_ring_plan(p, root); }

// One element, or a segment larger than a half of the message: the pipeline.
std::optional<Candidate> split_bintree_runs_instead(const Candidate &c, const CallShape &call, int) {
  const size_t half = call.count / 2;
  if (call.count > 1 && c.segsize <= half * call.type_size && c.segsize <= (call.count - half) * call.type_size)
    return std::nullopt;
  return registered_algorithm(c.op, "pipeline", c.segsize);
}

// Fewer elements than ranks: the linear bcast.
std::optional<Candidate> scatter_allgather_runs_instead(const Candidate &c, const CallShape &call, int comm_size) {
  if (call.count >= static_cast<size_t>(comm_size)) return std::nullopt;
  return registered_algorithm(c.op, "linear");
}

// ompi_coll_tuned_bcast_intra_dec_fixed, Open MPI 4.1.4 and 5.0.7.
int bcast_fixed_rule(size_t s, int p, bool) {
  return fixed_rule_lookup(
      {{4,
        {{32, 3}, {256, 5}, {512, 3}, {1024, 7}, {32768, 1}, {131072, 5}, {262144, 2}, {524288, 1}, {1048576, 6}},
        5},
       {8, {{64, 5}, {128, 6}, {2048, 5}, {8192, 6}, {1048576, 1}}, 2},
       {16, {{8, 7}, {64, 5}, {4096, 7}, {16384, 5}, {32768, 6}}, 1},
       {32, {{4096, 7}, {1048576, 6}}, 8},
       {64, {{2048, 6}}, 7},
       {128, {}, 7},
       {256, {{2, 6}, {16384, 5}, {32768, 1}, {65536, 5}}, 7},
       {1024, {{16384, 7}, {32768, 4}}, 7},
       {2048, {{524288, 7}}, 8},
       {4096, {{262144, 7}}, 8},
       {0, {{8192, 7}, {16384, 5}, {262144, 7}}, 8}},
      s, p);
}

using CC = CallingConvention;

const AlgorithmSpec kBcast[] = {
    {.op = Op::bcast,
     .id = 1,
     .name = "linear",
     .tuned_name = "basic_linear",
     .description = "root sends to every rank (non-blocking flat tree)",
     .order_preserving = true,
     .ompi_function = "ompi_coll_base_bcast_intra_basic_linear",
     .convention = CC::bcast,
     .plan = plan_linear,
     .evaluate = kTree},
    {.op = Op::bcast,
     .id = 2,
     .name = "chain",
     .tuned_name = "chain",
     .description = "fan-out chains hanging off the root, segments pipelined",
     .parameters = kChain,
     .order_preserving = true,
     .ompi_function = "ompi_coll_base_bcast_intra_chain",
     .convention = CC::bcast_segsize_fanout,
     .plan = plan_chain,
     .evaluate = kTree,
     .runs_instead = chain_runs_instead},
    {.op = Op::bcast,
     .id = 3,
     .name = "pipeline",
     .tuned_name = "pipeline",
     .description = "a single chain, segments pipelined",
     .parameters = kSegmented,
     .order_preserving = true,
     .ompi_function = "ompi_coll_base_bcast_intra_pipeline",
     .convention = CC::bcast_segsize,
     .plan = plan_pipeline,
     .evaluate = kTree},
    {.op = Op::bcast,
     .id = 4,
     .name = "split_bintree",
     .tuned_name = "split_binary_tree",
     .description = "binary tree, each half of the message down one subtree, then exchange",
     .parameters = kSegmented,
     .order_preserving = true,
     .splits = true,
     .ompi_function = "ompi_coll_base_bcast_intra_split_bintree",
     .convention = CC::bcast_segsize,
     .plan = plan_split_bintree,
     .evaluate = evaluate_as<evaluate_split_bintree>,
     .runs_instead = split_bintree_runs_instead},
    {.op = Op::bcast,
     .id = 5,
     .name = "bintree",
     .tuned_name = "binary_tree",
     .description = "binary tree, segments pipelined",
     .parameters = kSegmented,
     .order_preserving = true,
     .ompi_function = "ompi_coll_base_bcast_intra_bintree",
     .convention = CC::bcast_segsize,
     .plan = plan_binary_tree,
     .evaluate = kTree},
    {.op = Op::bcast,
     .id = 6,
     .name = "binomial",
     .tuned_name = "binomial",
     .description = "binomial tree, segments pipelined",
     .parameters = kSegmented,
     .order_preserving = true,
     .ompi_function = "ompi_coll_base_bcast_intra_binomial",
     .convention = CC::bcast_segsize,
     .plan = plan_binomial,
     .evaluate = kTree},
    {.op = Op::bcast,
     .id = 7,
     .name = "knomial",
     .tuned_name = "knomial",
     .description = "k-nomial tree of the given radix, segments pipelined",
     .parameters = kKnomial,
     .order_preserving = true,
     .ompi_function = "ompi_coll_base_bcast_intra_knomial",
     .convention = CC::bcast_segsize_fanout,
     .plan = plan_knomial,
     .evaluate = kTree},
    // Scatter-allgather and Rabenseifner ignore the segment size Open MPI passes them: none is searched.
    {.op = Op::bcast,
     .id = 8,
     .name = "scatter_allgather",
     .tuned_name = "scatter_allgather",
     .description = "binomial scatter then recursive-doubling allgather (linear when count < P)",
     .order_preserving = true,
     .splits = true,
     .ompi_function = "ompi_coll_base_bcast_intra_scatter_allgather",
     .convention = CC::bcast_segsize,
     .plan = plan_scatter_allgather,
     .evaluate = evaluate_as<evaluate_scatter_allgather>,
     .runs_instead = scatter_allgather_runs_instead},
    {.op = Op::bcast,
     .id = 9,
     .name = "scatter_allgather_ring",
     .tuned_name = "scatter_allgather_ring",
     .description = "binomial scatter then ring allgather (linear when count < P)",
     .order_preserving = true,
     .splits = true,
     .ompi_function = "ompi_coll_base_bcast_intra_scatter_allgather_ring",
     .convention = CC::bcast_segsize,
     .plan = plan_scatter_allgather_ring,
     .evaluate = evaluate_as<evaluate_scatter_allgather_ring>,
     .runs_instead = scatter_allgather_runs_instead},
};

}  // namespace

const CollectiveFamily &bcast_family() {
  static const CollectiveFamily family{
      .op = Op::bcast, .rooted = true, .algorithms = kBcast, .fixed_rule = bcast_fixed_rule, .han = true};
  return family;
}

}  // namespace modeltuned
