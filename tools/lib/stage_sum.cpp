#include "tools/lib/stage_sum.hpp"

#include <algorithm>
#include <deque>
#include <vector>

namespace modeltuned::tools {

// Stage i runs segment i-d at every depth d where that segment exists; stages are serial and
// each costs its slowest flat tree. The depths active in a stage form a sliding window, so a
// monotonic deque keeps this linear in depth + segments.
double stage_sum_us(const TreePlan &plan, std::span<const double> flat_us, size_t segments) {
  // A sender's depth is its parent's plus one (senders are listed parents first).
  std::vector<size_t> depth(plan.sender_flat_tree.size(), 0);
  std::vector<double> level_us;  // slowest flat tree per depth
  for (size_t i = 0; i < depth.size(); ++i) {
    if (plan.sender_parent[i] >= 0) depth[i] = depth[static_cast<size_t>(plan.sender_parent[i])] + 1;
    if (level_us.size() <= depth[i]) level_us.resize(depth[i] + 1, 0.0);
    level_us[depth[i]] = std::max(level_us[depth[i]], flat_us[plan.sender_flat_tree[i]]);
  }
  const long depth_count = static_cast<long>(level_us.size());
  const long n = static_cast<long>(segments);
  std::deque<long> window;  // depths in the window, level_us decreasing
  double total = 0;
  for (long stage = 0; stage < depth_count + n - 1; ++stage) {
    if (stage < depth_count) {
      while (!window.empty() && level_us[window.back()] <= level_us[stage]) window.pop_back();
      window.push_back(stage);
    }
    while (window.front() < stage - n + 1) window.pop_front();
    total += level_us[window.front()];
  }
  return total;
}

}  // namespace modeltuned::tools
