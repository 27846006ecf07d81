#include "model/collectives/alltoall/simulate.hpp"

#include <algorithm>

#include "model/collectives/alltoall/schedule.hpp"

namespace modeltuned {

// The plans take their peers from the schedules, which the MPI tests compare with what libmpi
// sends; with one element per block, a transfer's count is its blocks.
AlltoallPlan alltoall_plan(const Placement &placement, int algorithm) {
  AlltoallPlan plan;
  plan.size = placement.size();
  if (algorithm == 1 || algorithm == 4) {
    for (int r = 0; r < plan.size; ++r) {
      PeersPerChannel peers{};
      for (int peer = 0; peer < plan.size; ++peer)
        if (peer != r) {
          const int channel = static_cast<int>(placement.channel(r, peer));
          ++peers[channel];
          plan.at_once_mask |= 1u << channel;
        }
      if (std::find(plan.at_once.begin(), plan.at_once.end(), peers) == plan.at_once.end())
        plan.at_once.push_back(peers);
    }
    for (const Round &round : alltoall_rounds(2, plan.size, 1, 1, 0))
      plan.volume.push_back(round_mask(placement, round));
    return plan;
  }
  for (const Round &round : alltoall_rounds(algorithm, plan.size, 1, 1, 0)) {
    AlltoallRound out{round_mask(placement, round), 0};
    for (const Transfer &t : round) out.blocks = std::max(out.blocks, static_cast<int>(t.count));
    plan.rounds.push_back(out);
  }
  plan.bruck = algorithm == 3;
  return plan;
}

double evaluate_alltoall(const Evaluation &e, const AlltoallPlan &plan) {
  const CalibrationTable &table = e.table;
  const double block = static_cast<double>(e.call.bytes());
  if (plan.size < 2) return 0;
  if (!plan.at_once.empty()) {
    // Each rank's flat tree, slowed as every rank's exchange is when all of them run at once.
    const double alone = step_us(table, plan.at_once_mask, block);
    const double contention =
        alone > 0 ? std::max(1.0, busy_step_us(table, plan.at_once_mask, block, BusyRound::exchange, plan.size) / alone)
                  : 1.0;
    double slowest = 0;
    for (const PeersPerChannel &peers : plan.at_once)
      slowest = std::max(slowest, multi_channel_flat_tree_us(table, FlatTreeKind::fanout, peers, block));
    // The bytes of every exchange, each without its latency (its cost at 0 bytes), and one latency.
    double bandwidth = 0, latency = 0;
    for (ChannelMask mask : plan.volume) {
      const double empty = busy_step_us(table, mask, 0, BusyRound::exchange, plan.size);
      bandwidth += std::max(0.0, busy_step_us(table, mask, block, BusyRound::exchange, plan.size) - empty);
      latency = std::max(latency, empty);
    }
    return std::max(slowest * contention, bandwidth + latency);
  }
  double total = 0;
  bool first = true;
  for (const AlltoallRound &round : plan.rounds) {
    const double bytes = block * round.blocks;
    total += busy_step_us(table, round.mask, bytes, BusyRound::exchange, plan.size) +
             (plan.bruck && !first ? relay_step_us(table, round.mask, bytes) : 0);
    first = false;
  }
  if (plan.bruck) {  // the P blocks rotated through a buffer malloc'd per call
    const double moved = block * plan.size;
    total += table.fresh_one_buffer_us_per_byte(moved) * moved;
  }
  return total;
}

}  // namespace modeltuned
