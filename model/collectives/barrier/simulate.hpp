// The barrier's cost: its rounds of empty messages (schedule.hpp), each as long as its slowest
// message, with the contention of the ranks busy in it; linear's rounds are a fan-in to rank 0
// and a fan-out from it, flat trees. A barrier's time is its completion (docs/model.md, "Barrier").
#pragma once
#include <vector>

#include "model/simulate/evaluation.hpp"
#include "model/topology/placement.hpp"

namespace modeltuned {

struct BarrierRound {
  ChannelMask mask = 0;
  int busy = 0;           // ranks that send or receive in it
  bool exchange = false;  // every rank in it both sends and receives
};

struct BarrierPlan {
  int size = 0;
  std::vector<BarrierRound> rounds;
  // linear: its two rounds as flat trees around rank 0, peers per channel (rounds empty)
  PeersPerChannel gather{}, release{};
  bool linear = false;
  // Its last round's senders send synchronously (double ring, recursive doubling's answers): they
  // leave when the receiver's acknowledgement comes back.
  bool synchronous_last = false;
};

// The plan of barrier algorithm `algorithm` (tuned's number) on this placement.
BarrierPlan barrier_plan(const Placement &placement, int algorithm);

double evaluate_barrier(const Evaluation &e, const BarrierPlan &plan);

}  // namespace modeltuned
