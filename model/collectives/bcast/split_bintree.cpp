#include "model/collectives/bcast/split_bintree.hpp"

#include <algorithm>

#include "model/cost/channel_cost.hpp"

namespace modeltuned {

SplitBintreePlan split_bintree_plan(const Placement &placement, int root) {
  const int size = placement.size();
  SplitBintreePlan plan;
  plan.size = size;
  plan.tree = plan_for_tree(build_kary_tree(2, size, root), placement);
  // Phase 2 pairs shifted ranks s (odd) and s+1; with an even size the last rank has no pair
  // and gets the right half from the root instead.
  for (int s = 1; s + 1 < size; s += 2)
    plan.exchange |= 1u << static_cast<int>(placement.channel((s + root) % size, (s + 1 + root) % size));
  if (size % 2 == 0) plan.exchange |= 1u << static_cast<int>(placement.channel(root, (size - 1 + root) % size));
  return plan;
}

double evaluate_split_bintree(const Evaluation &e, const SplitBintreePlan &plan) {
  const CallShape &call = e.call;
  const uint32_t segsize = e.candidate.segsize;
  const size_t left = (call.count + 1) / 2;  // counts[0], down the odd subtree
  const size_t ts = call.type_size;
  const size_t seg_bytes_raw = segsize == 0 ? left * ts : std::max<size_t>(segsize, ts);
  const size_t segcount = segsize == 0 ? left : seg_bytes_raw / ts;  // truncated, no rounding
  const size_t segments = (left + segcount - 1) / segcount;
  const double segment_bytes = static_cast<double>(segcount * ts);

  // Phase 1 sends are blocking, one child after the other: a rank's time per segment is the
  // sum of its point-to-point messages, not a flat tree.
  std::vector<double> serial_us(plan.tree.flat_trees.size());
  for (size_t id = 0; id < plan.tree.flat_trees.size(); ++id) {
    double t = 0;
    for (int c = 0; c < kChannels; ++c)
      if (plan.tree.flat_trees[id][c] > 0)
        t += plan.tree.flat_trees[id][c] * p2p_us(e.table.channels[c], segment_bytes);
    if (const int up = plan.tree.flat_tree_up_channel[id]; up >= 0) t += relay_us(e.table.channels[up], segment_bytes);
    serial_us[id] = t;
  }
  double phase1 = tree_schedule_us(e, plan.tree, serial_us, segments);
  // Phase 2 sends on what phase 1 delivered: a relay.
  double phase2 = step_us(e.table, plan.exchange, static_cast<double>(left * ts)) +
                  relay_step_us(e.table, plan.exchange, static_cast<double>(left * ts));
  return phase1 + phase2;
}

}  // namespace modeltuned
