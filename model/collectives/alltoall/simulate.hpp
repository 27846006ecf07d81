// The alltoall's cost. Pairwise and modified Bruck run rounds in which every rank sends and
// receives at once, each as long as its slowest exchange with the contention of all the ranks;
// Bruck's rounds after the first pass on blocks received before (a relay), and it rotates the
// blocks through a buffer allocated per call. Linear and linear_sync post every message at once:
// each rank is the root of a flat tree to all the others, with every rank's flat tree running
// at the same time (the exchange contention of all the ranks), and no faster than the bytes of
// pairwise's rounds take with one round's latency: posting everything at once saves latencies,
// not bandwidth. docs/model.md, "Alltoall".
#pragma once
#include <vector>

#include "model/simulate/evaluation.hpp"
#include "model/topology/placement.hpp"

namespace modeltuned {

struct AlltoallRound {
  ChannelMask mask = 0;
  int blocks = 0;  // per message, in blocks of one peer's share
};

struct AlltoallPlan {
  int size = 0;
  std::vector<AlltoallRound> rounds;  // empty for the algorithms that post everything at once
  bool bruck = false;                 // relays after its first round, rotates through a temporary
  // Every message at once: each distinct rank's peers per channel, and the channels they use.
  std::vector<PeersPerChannel> at_once;
  ChannelMask at_once_mask = 0;
  std::vector<ChannelMask> volume;  // at once: pairwise's rounds, the same bytes in P - 1 exchanges
};

// The plan of alltoall algorithm `algorithm` (tuned's number) on this placement.
AlltoallPlan alltoall_plan(const Placement &placement, int algorithm);

// For calls the algorithm runs as itself (two_proc only on two ranks: runs_only_on).
double evaluate_alltoall(const Evaluation &e, const AlltoallPlan &plan);

}  // namespace modeltuned
