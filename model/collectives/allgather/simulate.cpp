#include "model/collectives/allgather/simulate.hpp"

#include <algorithm>

#include "model/collectives/allgather/schedule.hpp"

namespace modeltuned {

// The plans take their peers from the schedules, which the MPI tests compare with what libmpi
// sends; with one element per rank, a transfer's count is its blocks.
AllgatherPlan allgather_plan(const Placement &placement, int algorithm, int fanout) {
  AllgatherPlan plan;
  plan.size = placement.size();
  if (algorithm == 1) {  // the communicator's gather to rank 0, then its bcast
    plan.linear = true;
    for (int r = 1; r < plan.size; ++r) ++plan.gather[static_cast<int>(placement.channel(r, 0))];
    return plan;
  }
  for (const Round &round : allgather_rounds(algorithm, plan.size, 1, 1, 0, fanout)) {
    AllgatherRound out{round_mask(placement, round), 0, 0};
    for (const Transfer &t : round) {
      out.blocks = std::max(out.blocks, static_cast<int>(t.count));
      out.messages += t.from == 0;
    }
    plan.rounds.push_back(out);
  }
  plan.shift = algorithm == 2;
  return plan;
}

double evaluate_allgather(const Evaluation &e, const AllgatherPlan &plan) {
  const CalibrationTable &table = e.table;
  const double block = static_cast<double>(e.call.bytes());
  if (plan.size < 2) return 0;
  if (plan.linear) return multi_channel_flat_tree_us(table, FlatTreeKind::fanin, plan.gather, block);
  double total = 0;
  bool first = true;
  for (const AllgatherRound &round : plan.rounds) {
    // A rank's messages of one round go out at once, to one peer (sparbit) or to several (the
    // k-radix Bruck, direct messaging): one step of all their bytes, which its sends copy in turn.
    const double bytes = block * round.blocks * round.messages;
    total += busy_step_us(table, round.mask, bytes, BusyRound::exchange, plan.size) +
             (first ? 0 : relay_step_us(table, round.mask, bytes));
    first = false;
  }
  if (plan.shift) {  // rank 1 copies P - 1 blocks through a buffer calloc'd per call
    const double moved = block * (plan.size - 1);
    total += table.fresh_one_buffer_us_per_byte(moved) * moved;
  }
  return total;
}

}  // namespace modeltuned
