#include "model/collectives/barrier/simulate.hpp"

#include <set>

#include "model/collectives/barrier/schedule.hpp"

namespace modeltuned {
namespace {

BarrierRound round_of(const Placement &placement, const Round &round) {
  std::set<int> senders, receivers, busy;
  for (const Transfer &t : round) {
    senders.insert(t.from);
    receivers.insert(t.to);
  }
  busy.insert(senders.begin(), senders.end());
  busy.insert(receivers.begin(), receivers.end());
  return BarrierRound{round_mask(placement, round), static_cast<int>(busy.size()), senders == receivers};
}

}  // namespace

BarrierPlan barrier_plan(const Placement &placement, int algorithm) {
  BarrierPlan plan;
  plan.size = placement.size();
  if (algorithm == 1) {  // rank 0 hears from every rank, then releases each
    plan.linear = true;
    for (int r = 1; r < plan.size; ++r) {
      ++plan.gather[static_cast<int>(placement.channel(r, 0))];
      ++plan.release[static_cast<int>(placement.channel(0, r))];
    }
    return plan;
  }
  const std::vector<Round> rounds = barrier_rounds(algorithm, plan.size, 0, 1, 0);
  for (const Round &round : rounds) plan.rounds.push_back(round_of(placement, round));
  plan.synchronous_last = algorithm == 2 || (algorithm == 3 && floor_power_of_two(plan.size) != plan.size);
  return plan;
}

double evaluate_barrier(const Evaluation &e, const BarrierPlan &plan) {
  const CalibrationTable &table = e.table;
  if (plan.size < 2) return 0;
  if (plan.linear)
    return multi_channel_flat_tree_us(table, FlatTreeKind::fanin, plan.gather, 0) +
           multi_channel_flat_tree_us(table, FlatTreeKind::fanout, plan.release, 0);
  double total = 0;
  bool first = true;
  for (const BarrierRound &round : plan.rounds) {
    const BusyRound kind = round.exchange ? BusyRound::exchange : BusyRound::concurrent;
    // A round's senders signal once they heard the round before: a relay, as in every family.
    total += (round.busy > 2 ? busy_step_us(table, round.mask, 0, kind, round.busy) : step_us(table, round.mask, 0)) +
             (first ? 0 : relay_step_us(table, round.mask, 0));
    first = false;
  }
  if (plan.synchronous_last) total += step_us(table, plan.rounds.back().mask, 0);
  return total;
}

}  // namespace modeltuned
