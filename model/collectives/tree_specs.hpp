// What the tree algorithms of bcast and reduce share in their registry entries: they run on
// Open MPI's generic pipelined trees (simulate/tree_evaluation.hpp), take the same parameters and
// fall back alike.
#pragma once
#include <optional>

#include "model/collectives/family.hpp"

namespace modeltuned {

// Fan-outs searched for chains (Open MPI caps them at MAXTREEFANOUT = 32).
inline constexpr int kChainFanouts[] = {2, 4, 8, 16, 32};
// Default of tuned's chain fan-out parameter (coll_tuned_init_chain_fanout).
inline constexpr int kTunedChainFanout = 4;

// Specs name only the fields that differ from their defaults; GCC would warn about the others.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
inline constexpr Parameters kChain{
    .segmented = true, .fanout_name = "fanout", .fanouts = kChainFanouts, .tuned_forced_fanout = kTunedChainFanout};
#pragma GCC diagnostic pop

Plan plan_linear(const Placement &p, int fanout, int root);
Plan plan_chain(const Placement &p, int fanout, int root);
Plan plan_pipeline(const Placement &p, int fanout, int root);
Plan plan_binary_tree(const Placement &p, int fanout, int root);

inline constexpr Evaluator kTree = evaluate_as<evaluate_tree>;

// A chain of fan-out below 1 is built as one chain (ompi_coll_base_topo_build_chain).
std::optional<Candidate> chain_runs_instead(const Candidate &c, const CallShape &call, int comm_size);

}  // namespace modeltuned
