// The allgather's cost: its rounds (schedule.hpp), in each of which every rank sends and receives
// at once, each as long as its slowest exchange with the contention of all the ranks, and after
// the first a relay (what a rank passes on, it received the round before); Bruck's final local
// shift through a freshly allocated buffer; and linear's gather to rank 0, a fan-in (its bcast of
// the gathered message is the communicator's own, which the selector adds: registry.hpp,
// Composition). docs/model.md, "Allgather".
#pragma once
#include <vector>

#include "model/simulate/evaluation.hpp"
#include "model/topology/placement.hpp"

namespace modeltuned {

struct AllgatherRound {
  ChannelMask mask = 0;
  int blocks = 0;    // per message, in blocks of one rank's contribution
  int messages = 0;  // each rank sends in it (sparbit sends one per block)
};

struct AllgatherPlan {
  int size = 0;
  std::vector<AllgatherRound> rounds;
  bool shift = false;   // Bruck: the blocks rotated into rank order through a temporary
  bool linear = false;  // the gather to rank 0, peers per channel (rounds empty)
  PeersPerChannel gather{};
};

// The plan of allgather algorithm `algorithm` (tuned's number) on this placement, with its radix
// `fanout` where it takes one.
AllgatherPlan allgather_plan(const Placement &placement, int algorithm, int fanout = 0);

// For calls the algorithm runs as itself (runs_instead says when Open MPI runs another).
double evaluate_allgather(const Evaluation &e, const AllgatherPlan &plan);

}  // namespace modeltuned
