#include "model/collectives/reduce/rabenseifner.hpp"

#include "model/schedule/rounds.hpp"

namespace modeltuned {

RabenseifnerPlan rabenseifner_plan(const Placement &placement, int root) {
  const int size = placement.size();
  const int pof2 = floor_power_of_two(size);
  const int rem = size - pof2;
  auto real = [&](int v) { return v < rem ? 2 * v : v + rem; };
  auto channel = [&](int a, int b) { return 1u << static_cast<int>(placement.channel(a, b)); };
  RabenseifnerPlan plan;
  plan.size = size;
  for (int i = 0; i < rem; ++i) plan.pairing |= channel(2 * i, 2 * i + 1);
  for (int mask = 1; mask < pof2; mask <<= 1) {  // halving partners: vrank ^ mask, mask growing
    ChannelMask m = 0;
    for (int v = 0; v < pof2; ++v) m |= channel(real(v), real(v ^ mask));
    plan.halving.push_back(m);
  }
  plan.gather = std::vector<ChannelMask>(plan.halving.rbegin(), plan.halving.rend());
  // A root folded away in the first step (odd, below 2r) takes vrank 0's place in the gather
  // after receiving vrank 0's share from rank 0 (coll_base_reduce.c, "Case 1").
  if (root < 2 * rem && root % 2 != 0) plan.odd_root = channel(root, 0);
  return plan;
}

double evaluate_rabenseifner(const Evaluation &e, const RabenseifnerPlan &plan) {
  const CalibrationTable &table = e.table;
  const CallShape &call = e.call;
  const size_t pof2 = static_cast<size_t>(floor_power_of_two(plan.size));
  const double ts = static_cast<double>(call.type_size);
  const double reduce_us_per_byte = table.reduce_us_per_byte;
  double total = 0;
  const double half = static_cast<double>(call.count / 2) * ts;
  if (plan.pairing) {  // exchange halves, reduce, the odd rank sends its half to the even one
    const int paired = 2 * (plan.size - static_cast<int>(pof2));
    total += 2 * busy_step_us(table, plan.pairing, half, BusyRound::exchange, paired) + half * reduce_us_per_byte;
  }
  double window = static_cast<double>(call.count) * ts;
  // Fresh temporaries per call (coll_base_reduce.c): a non-root rank copies its data into a
  // result buffer of the whole message and receives the halves into another one, written up to
  // (1 - 1/p') of its size. Every rank waits for the slowest, so one such rank's cost counts.
  total += table.fresh_us_per_byte(2 * window) * window * (2 - 1.0 / static_cast<double>(pof2));
  // Every step after the first sends what an earlier one delivered (and this rank combined): the
  // relay cost of its channels.
  bool first = !plan.pairing;
  for (ChannelMask mask : plan.halving) {
    window /= 2;
    total += busy_step_us(table, mask, window, BusyRound::exchange, static_cast<int>(pof2)) +
             window * reduce_us_per_byte + (first ? 0 : relay_step_us(table, mask, window));
    first = false;
  }
  if (plan.odd_root) total += step_us(table, plan.odd_root, window) + relay_step_us(table, plan.odd_root, window);
  int gathering = static_cast<int>(pof2);  // binomial gather: half the ranks send in each round
  for (ChannelMask mask : plan.gather) {
    total += busy_step_us(table, mask, window, BusyRound::concurrent, gathering) + relay_step_us(table, mask, window);
    gathering /= 2;
    window *= 2;
  }
  return total;
}

}  // namespace modeltuned
