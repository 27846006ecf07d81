// Bcast scatter-allgather: binomial scatter of one block per rank, then an allgather by recursive
// doubling, or by a ring (docs/openmpi-algorithms.md §2). Each round is a set of concurrent
// blocking exchanges and costs its slowest one.
#pragma once
#include <utility>
#include <vector>

#include "model/simulate/evaluation.hpp"
#include "model/topology/placement.hpp"

namespace modeltuned {

struct ScatterAllgatherPlan {
  int size = 0;
  std::vector<ChannelMask> scatter;   // per binomial round, largest first
  std::vector<ChannelMask> doubling;  // per recursive-doubling round
  // P not a power of two: after a doubling round, ranks whose partner subtree was incomplete get
  // the data by recursive halving; per round, its sending steps in order as (channels, blocks sent).
  std::vector<std::vector<std::pair<ChannelMask, int>>> doubling_extra;
};

struct ScatterAllgatherRingPlan {
  int size = 0;
  std::vector<ChannelMask> scatter;  // per binomial round, largest first
  ChannelMask ring = 0;              // neighbours
};

ScatterAllgatherPlan scatter_allgather_plan(const Placement &placement, int root);
ScatterAllgatherRingPlan scatter_allgather_ring_plan(const Placement &placement, int root);
// For calls they run as themselves (at least one element per rank).
double evaluate_scatter_allgather(const Evaluation &e, const ScatterAllgatherPlan &plan);
double evaluate_scatter_allgather_ring(const Evaluation &e, const ScatterAllgatherRingPlan &plan);

}  // namespace modeltuned
