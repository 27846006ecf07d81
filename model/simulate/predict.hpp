// Predicted latency of one candidate on one placement: the entry point of the simulate layer.
// One file per algorithm family: tree_algorithms.cpp (linear, chain, pipeline, binary and
// binomial trees, k-nomial, in-order binary), split_bintree.cpp, scatter_allgather.cpp,
// rabenseifner.cpp.
#pragma once
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

#include "model/calibration/table.hpp"
#include "model/schedule/algorithms.hpp"
#include "model/schedule/trees.hpp"
#include "model/topology/placement.hpp"

namespace modeltuned {

// What a prediction measures.
//  completion: from the start until the last rank is done (the collective's latency; what the
//              selector minimises).
//  rank_mean:  each rank's own time in the call, averaged over ranks: what OSU's benchmarks
//              report as latency. In a reduce most ranks only send and leave early.
enum class Metric { completion, rank_mean };

// What a call looks like: every rank passes the same values (MPI requires matching signatures).
struct CallShape {
  Op op = Op::bcast;
  size_t count = 0;
  size_t type_size = 1;
  int root = 0;
  bool commutative = true;
  Metric metric = Metric::completion;
  // The ranks' datatypes may cut the message differently (same type signature, other types: a
  // user-defined operation sees each rank's own type): only algorithms that move the message
  // whole, unsegmented and unsplit, can run.
  bool whole_message = false;
  size_t bytes() const { return count * type_size; }
};

// How a schedule's steps combine into a latency.
//  schedule: follows Open MPI's schedule segment by segment (docs/model.md): a rank forwards a
//            segment as soon as it has it and its previous segment's sends are done.
//  stage_sum: the seed report's model (eq. 2-3): depth + segments - 1 serial stages, each costing
//            its slowest flat tree. Kept to compare against the report.
enum class ModelVariant { schedule, stage_sum };
inline constexpr ModelVariant kDefaultVariant = ModelVariant::schedule;
std::string_view variant_name(ModelVariant v);

// Open MPI's segmentation (COLL_BASE_COMPUTED_SEGCOUNT): elements per segment and segments.
struct Segmentation {
  size_t segcount = 0;
  size_t segments = 1;
};
Segmentation segmentation(uint32_t segsize, size_t type_size, size_t count);

using PeersPerChannel = std::array<int, kChannels>;

// Placement-dependent part of a tree algorithm, independent of message size: which flat tree
// each sending rank runs (deduplicated), and the tree's shape as far as the cost needs it.
struct TreePlan {
  std::vector<PeersPerChannel> flat_trees;    // distinct flat trees (peers per channel)
  // schedule: for every path from the root to a rank whose children all are leaves, how many
  // times each flat tree occurs on it, as (flat tree, count); distinct paths only.
  std::vector<std::vector<std::pair<int, int>>> paths;
  std::vector<std::vector<int>> flat_trees_by_depth;  // stage_sum: distinct flat trees per depth
  // rank_mean needs every sending rank, parents first: its flat tree, its parent's index (-1 for
  // the root), the channel to its parent (-1), and its children that are leaves, per channel.
  int size = 0;
  std::vector<int> sender_flat_tree, sender_parent, sender_up_channel;
  std::vector<PeersPerChannel> sender_leaves;
  int final_send_channel = -1;  // in-order binary reduce: rank P-1 sends the result to the root
  bool linear = false;          // the linear algorithm (one flat tree, its own temporaries)
};

TreePlan plan_for_tree(const Tree &tree, const Placement &placement);
// Latency of a tree schedule given each distinct flat tree's time per segment.
double tree_schedule_us(const TreePlan &plan, const std::vector<double> &flat_us, size_t segments,
                        ModelVariant variant);

// Bit c set: some transfer of a step goes through channel c.
using ChannelMask = unsigned;

// Phase-structured algorithms: a sequence of steps, each a set of concurrent pairwise transfers
// that ends with its slowest one. What the placement decides is which channels each step uses.
struct PhasePlan {
  int algorithm = 0;
  int size = 0;
  TreePlan tree;                          // split_bintree: phase 1 tree
  ChannelMask exchange = 0;               // split_bintree: phase 2 pairs
  std::vector<ChannelMask> scatter;       // scatter_allgather*: per binomial round, largest first
  std::vector<ChannelMask> doubling;      // scatter_allgather: per recursive-doubling round
  // scatter_allgather, P not a power of two: after a doubling round, ranks whose partner subtree
  // was incomplete get the data by recursive halving; per round, its sending steps in order as
  // (channels, blocks sent).
  std::vector<std::vector<std::pair<ChannelMask, int>>> doubling_extra;
  ChannelMask ring = 0;                   // scatter_allgather_ring: neighbours
  ChannelMask pairing = 0;                // rabenseifner: the 2r ranks folded in first
  std::vector<ChannelMask> halving;       // rabenseifner: per reduce-scatter round
  std::vector<ChannelMask> gather;        // rabenseifner: per gather round
  ChannelMask odd_root = 0;               // rabenseifner: an odd root among the folded ranks first
                                          // gets rank 0's share of the result
};

using Plan = std::variant<TreePlan, PhasePlan>;

// Nullopt when the model cannot predict the algorithm.
std::optional<Plan> make_plan(const Placement &placement, Op op, int algorithm, int fanout, int root);

// Nullopt when Open MPI would silently run another algorithm for this call (the selector must
// never pick it) or the variant cannot predict it.
std::optional<double> evaluate_plan(const CalibrationTable &table, const Plan &plan,
                                    const CallShape &call, const Candidate &candidate,
                                    ModelVariant variant = kDefaultVariant);

std::optional<double> predict_us(const CalibrationTable &table, const Placement &placement,
                                 const Candidate &candidate, const CallShape &call,
                                 ModelVariant variant = kDefaultVariant);

// Family entry points (one file each).
std::optional<TreePlan> tree_plan(const Placement &placement, Op op, int algorithm, int fanout, int root);
double evaluate_tree(const CalibrationTable &table, const TreePlan &plan, const CallShape &call,
                     uint32_t segsize, ModelVariant variant);
std::optional<double> evaluate_split_bintree(const CalibrationTable &table, const PhasePlan &plan,
                                             const CallShape &call, uint32_t segsize,
                                             ModelVariant variant);
std::optional<double> evaluate_scatter_allgather(const CalibrationTable &table, const PhasePlan &plan,
                                                 const CallShape &call);
std::optional<PhasePlan> split_bintree_plan(const Placement &placement, int root);
PhasePlan scatter_allgather_plan(const Placement &placement, int root, bool ring);
PhasePlan rabenseifner_plan(const Placement &placement, int root);
// Cost of a step moving `bytes` per pair through the channels of `mask`: its slowest transfer.
double step_us(const CalibrationTable &table, ChannelMask mask, double bytes);
std::optional<double> evaluate_rabenseifner(const CalibrationTable &table, const PhasePlan &plan,
                                            const CallShape &call);

}  // namespace modeltuned
