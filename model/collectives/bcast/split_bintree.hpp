// Bcast split binary tree: each half of the message goes down one subtree of the binary tree
// with blocking sends, then paired ranks swap halves (docs/openmpi-algorithms.md §2).
#pragma once
#include "model/simulate/evaluation.hpp"
#include "model/simulate/tree_evaluation.hpp"
#include "model/topology/placement.hpp"

namespace modeltuned {

struct SplitBintreePlan {
  int size = 0;
  TreePlan tree;             // phase 1: the binary tree
  ChannelMask exchange = 0;  // phase 2: the pairs swapping halves
};

SplitBintreePlan split_bintree_plan(const Placement &placement, int root);
// For calls it runs as itself (a segment no larger than a half, two elements or more).
double evaluate_split_bintree(const Evaluation &e, const SplitBintreePlan &plan);

}  // namespace modeltuned
