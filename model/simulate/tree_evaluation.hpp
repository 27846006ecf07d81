// Tree algorithms: linear (one flat tree), chain, pipeline, binary tree, binomial, k-nomial and
// the reduce trees, all run by Open MPI's generic pipelined tree bcast/reduce
// (docs/openmpi-algorithms.md sections 2-3, docs/model.md).
#pragma once
#include <span>
#include <utility>
#include <vector>

#include "model/schedule/ompi_trees.hpp"
#include "model/simulate/evaluation.hpp"
#include "model/topology/placement.hpp"

namespace modeltuned {

// Placement-dependent part of a tree algorithm, independent of message size: which flat tree
// each sending rank runs (deduplicated), and the tree's shape as far as the cost needs it.
struct TreePlan {
  int size = 0;
  std::vector<PeersPerChannel> flat_trees;  // distinct flat trees (peers per channel)
  // Per flat tree: how many transfers of its tree level go through each channel into one node at
  // once (the busiest node), which the contention curves charge; flat trees are distinct in both.
  std::vector<PeersPerChannel> flat_tree_level;
  // Per flat tree: the channel from its sender to the sender's parent, -1 for the root. A sender
  // below the root forwards what it received (bcast) or sends up what it combined (reduce), and
  // pays the table's relay cost of that channel; flat trees are distinct in this too.
  std::vector<int> flat_tree_up_channel;
  // The same count per tree level, root's level first: a pipeline of S segments keeps S
  // consecutive levels busy at once.
  std::vector<PeersPerChannel> levels;
  // For every path from the root to a rank whose children all are leaves, how many times each
  // flat tree occurs on it, as (flat tree, count); distinct paths only.
  std::vector<std::vector<std::pair<int, int>>> paths;
  // Every sending rank, parents first: its flat tree, its parent's index (-1 for the root), the
  // channel to its parent (-1), and its children that are leaves, per channel.
  std::vector<int> sender_flat_tree, sender_parent, sender_up_channel;
  std::vector<PeersPerChannel> sender_leaves;
  int final_send_channel = -1;  // in-order binary reduce: rank P-1 sends the result to the root
  bool linear = false;          // the linear algorithm (one flat tree, its own temporaries)
};

TreePlan plan_for_tree(const Tree &tree, const Placement &placement);
// The linear algorithms: a flat tree of all ranks around the root.
TreePlan linear_plan(const Placement &placement, int root);
// In-order binary reduce: the tree is rooted at P-1, which sends the result on to the root.
TreePlan in_order_binary_plan(const Placement &placement, int root);

// The model's tree schedule (docs/model.md): a rank forwards a segment as soon as it has it and
// its previous segment's sends are done.
double schedule_us(const TreePlan &plan, std::span<const double> flat_us, size_t segments);
// The evaluation's tree schedule (the model's unless it names another); 0 when nobody sends.
double tree_schedule_us(const Evaluation &e, const TreePlan &plan, std::span<const double> flat_us, size_t segments);

double evaluate_tree(const Evaluation &e, const TreePlan &plan);

}  // namespace modeltuned
