// The built-in algorithms: Open MPI 4.1's bcast, reduce and allreduce algorithms in tuned's order,
// each with tuned's name from coll_tuned_{bcast,reduce,allreduce}_decision.c (4.1.4). The fallbacks (runs_instead)
// are those of coll_base_bcast.c / coll_base_reduce.c (docs/openmpi-algorithms.md §5).
#include "model/registry/registry.hpp"

// Specs name only the fields that differ from their defaults; GCC would warn about the others.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace modeltuned {
namespace {

// Fan-outs searched for chains (Open MPI caps them at MAXTREEFANOUT = 32) and radices for the
// k-nomial tree (Open MPI never checks the radix, and radix < 2 hangs).
constexpr int kChainFanouts[] = {2, 4, 8, 16, 32};
constexpr int kKnomialRadices[] = {2, 3, 4, 8};
// Defaults of tuned's chain fan-out (coll_tuned_init_chain_fanout) and k-nomial radix
// (coll_tuned_bcast_knomial_radix) parameters.
constexpr int kTunedChainFanout = 4, kTunedKnomialRadix = 4;

constexpr Parameters kSegmented{.segmented = true};
constexpr Parameters kChain{
    .segmented = true, .fanout_name = "fanout", .fanouts = kChainFanouts, .tuned_forced_fanout = kTunedChainFanout};
constexpr Parameters kKnomial{.segmented = true,
                              .fanout_name = "radix",
                              .fanouts = kKnomialRadices,
                              .tuned_fixed_fanout = kTunedKnomialRadix,
                              .tuned_forced_fanout = kTunedKnomialRadix};

// Plan builders: which tree (or phase structure) each algorithm runs.
Plan plan_linear(const Placement &p, int, int root) { return linear_plan(p, root); }
Plan plan_chain(const Placement &p, int fanout, int root) {
  return plan_for_tree(build_chain(fanout, p.size(), root), p);
}
Plan plan_pipeline(const Placement &p, int, int root) { return plan_for_tree(build_chain(1, p.size(), root), p); }
Plan plan_binary_tree(const Placement &p, int, int root) {
  return plan_for_tree(build_kary_tree(2, p.size(), root), p);
}
Plan plan_binomial(const Placement &p, int, int root) { return plan_for_tree(build_bmtree(p.size(), root), p); }
Plan plan_in_order_binomial(const Placement &p, int, int root) {
  return plan_for_tree(build_in_order_bmtree(p.size(), root), p);
}
Plan plan_knomial(const Placement &p, int radix, int root) {
  return plan_for_tree(build_kmtree(p.size(), root, radix), p);
}
Plan plan_in_order_binary(const Placement &p, int, int root) { return in_order_binary_plan(p, root); }
Plan plan_split_bintree(const Placement &p, int, int root) { return split_bintree_plan(p, root); }
Plan plan_scatter_allgather(const Placement &p, int, int root) { return scatter_allgather_plan(p, root); }
Plan plan_scatter_allgather_ring(const Placement &p, int, int root) { return scatter_allgather_ring_plan(p, root); }
Plan plan_rabenseifner(const Placement &p, int, int root) { return rabenseifner_plan(p, root); }
// Allreduce has no root: its plans are the same for any.
Plan plan_linear_allreduce(const Placement &p, int, int) { return linear_allreduce_plan(p); }
Plan plan_recursive_doubling(const Placement &p, int, int) { return recursive_doubling_plan(p); }
Plan plan_ring(const Placement &p, int, int) { return ring_plan(p); }
Plan plan_allreduce_rabenseifner(const Placement &p, int, int) { return allreduce_rabenseifner_plan(p); }

constexpr Evaluator kTree = evaluate_as<evaluate_tree>;

// The algorithm Open MPI falls back to, named; the registry knows its number.
Candidate instead(Op op, std::string_view name, uint32_t segsize = 0) {
  return Candidate{op, find_algorithm(op, name)->id, segsize, 0};
}

// A chain of fan-out below 1 is built as one chain (ompi_coll_base_topo_build_chain).
std::optional<Candidate> chain_runs_instead(const Candidate &c, const CallShape &, int) {
  if (c.fanout >= 1) return std::nullopt;
  return instead(c.op, "pipeline", c.segsize);
}

// One element, or a segment larger than a half of the message: the pipeline.
std::optional<Candidate> split_bintree_runs_instead(const Candidate &c, const CallShape &call, int) {
  const size_t half = call.count / 2;
  if (call.count > 1 && c.segsize <= half * call.type_size && c.segsize <= (call.count - half) * call.type_size)
    return std::nullopt;
  return instead(c.op, "pipeline", c.segsize);
}

// Fewer elements than ranks: the linear bcast.
std::optional<Candidate> scatter_allgather_runs_instead(const Candidate &c, const CallShape &call, int comm_size) {
  if (call.count >= static_cast<size_t>(comm_size)) return std::nullopt;
  return instead(c.op, "linear");
}

// Fewer elements than the largest power of two of ranks (or under 2 ranks), or a
// non-commutative operation: the linear reduce.
std::optional<Candidate> rabenseifner_runs_instead(const Candidate &c, const CallShape &call, int comm_size) {
  size_t pof2 = 1;
  while (pof2 * 2 <= static_cast<size_t>(comm_size)) pof2 *= 2;
  if (pof2 >= 2 && call.count >= pof2 && call.commutative) return std::nullopt;
  return instead(c.op, "linear");
}

// Allreduce ring: fewer elements than ranks, recursive doubling.
std::optional<Candidate> ring_runs_instead(const Candidate &c, const CallShape &call, int comm_size) {
  if (call.count >= static_cast<size_t>(comm_size)) return std::nullopt;
  return instead(c.op, "recursive_doubling");
}

// Fewer elements than P segments (so always with segment size 0): the whole ring.
std::optional<Candidate> segmented_ring_runs_instead(const Candidate &c, const CallShape &call, int comm_size) {
  if (segmented_ring_phases(c.segsize, call.type_size, call.count, comm_size) > 0) return std::nullopt;
  return instead(c.op, "ring");
}

// Allreduce Rabenseifner: as the reduce's, it runs the linear allreduce instead.
std::optional<Candidate> allreduce_rabenseifner_runs_instead(const Candidate &c, const CallShape &call, int comm_size) {
  if (rabenseifner_runs_instead(c, call, comm_size)) return instead(c.op, "linear");
  return std::nullopt;
}

using CC = CallingConvention;

// Bcast moves data unchanged: every bcast algorithm is order-preserving.
const AlgorithmSpec kBuiltin[] = {
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
    // Allreduce (coll_base_allreduce.c; docs/openmpi-algorithms.md §6). Recursive doubling
    // combines the lower rank's operand first, in rank order: order-preserving, like linear.
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
     .composed_of_reduce_bcast = true},
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
     .runs_instead = allreduce_rabenseifner_runs_instead},
};

}  // namespace

std::span<const AlgorithmSpec> builtin_algorithms() { return kBuiltin; }

}  // namespace modeltuned
