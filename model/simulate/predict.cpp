#include "simulate/predict.hpp"

#include <algorithm>
#include <deque>

#include "cost/channel_cost.hpp"
#include "schedule/trees.hpp"

namespace modeltuned {

Segmentation segmentation(uint32_t segsize, size_t type_size, size_t count) {
  Segmentation s{count, 1};
  // Same test and rounding as COLL_BASE_COMPUTED_SEGCOUNT in coll_base_functions.h.
  if (type_size > 0 && segsize >= type_size && segsize < type_size * count) {
    s.segcount = segsize / type_size;
    if (segsize - s.segcount * type_size > (type_size >> 1)) ++s.segcount;
  }
  if (s.segcount > 0) s.segments = (count + s.segcount - 1) / s.segcount;
  if (s.segments == 0) s.segments = 1;
  return s;
}

static std::optional<Tree> algorithm_tree(Op op, int algorithm, int fanout, int size, int root) {
  if (op == Op::bcast) {
    switch (static_cast<BcastAlgorithm>(algorithm)) {
      case BcastAlgorithm::chain: return build_chain(fanout, size, root);
      case BcastAlgorithm::pipeline: return build_chain(1, size, root);
      case BcastAlgorithm::bintree: return build_kary_tree(2, size, root);
      case BcastAlgorithm::binomial: return build_bmtree(size, root);
      default: return std::nullopt;
    }
  }
  switch (static_cast<ReduceAlgorithm>(algorithm)) {
    case ReduceAlgorithm::chain: return build_chain(fanout, size, root);
    case ReduceAlgorithm::pipeline: return build_chain(1, size, root);
    case ReduceAlgorithm::binary: return build_kary_tree(2, size, root);
    case ReduceAlgorithm::binomial: return build_in_order_bmtree(size, root);
    case ReduceAlgorithm::in_order_binary: return build_in_order_bintree(size);
    default: return std::nullopt;
  }
}

std::optional<TreeShape> tree_shape(const Placement &placement, Op op, int algorithm, int fanout,
                                    int root) {
  const int size = placement.size();
  TreeShape shape;
  // Linear algorithms are one flat tree around the root, unsegmented.
  if (algorithm == 1) {
    PeersPerChannel peers{};
    for (int r = 0; r < size; ++r)
      if (r != root) ++peers[static_cast<int>(placement.channel(root, r))];
    shape.flat_trees_by_depth.push_back({peers});
    return shape;
  }
  std::optional<Tree> tree = algorithm_tree(op, algorithm, fanout, size, root);
  if (!tree) return std::nullopt;
  const std::vector<int> depth = depths(*tree);
  for (int r = 0; r < size; ++r) {
    if (tree->children[r].empty()) continue;
    PeersPerChannel peers{};
    for (int child : tree->children[r]) ++peers[static_cast<int>(placement.channel(r, child))];
    size_t d = static_cast<size_t>(depth[r]);
    if (shape.flat_trees_by_depth.size() <= d) shape.flat_trees_by_depth.resize(d + 1);
    auto &level = shape.flat_trees_by_depth[d];
    if (std::find(level.begin(), level.end(), peers) == level.end()) level.push_back(peers);
  }
  if (op == Op::reduce && algorithm == static_cast<int>(ReduceAlgorithm::in_order_binary) &&
      root != size - 1)
    shape.final_send_channel = static_cast<int>(placement.channel(size - 1, root));
  return shape;
}

double evaluate_shape(const CalibrationTable &table, const TreeShape &shape, const CallShape &call,
                      uint32_t segsize, ModelVariant) {
  const Segmentation seg = segmentation(segsize, call.type_size, call.count);
  const double segment_bytes = static_cast<double>(seg.segcount * call.type_size);
  const bool reduce = call.op == Op::reduce;
  const FlatTreeKind kind = reduce ? FlatTreeKind::fanin : FlatTreeKind::fanout;

  // Slowest flat tree of each depth: every segment costs that much at that depth.
  std::vector<double> level_us;
  level_us.reserve(shape.flat_trees_by_depth.size());
  for (const auto &level : shape.flat_trees_by_depth) {
    double worst = 0;
    for (const auto &peers : level) {
      double t = multi_channel_flat_tree_us(table, kind, peers, segment_bytes);
      if (reduce) {
        int children = 0;
        for (int n : peers) children += n;
        t += children * segment_bytes * table.reduce_us_per_byte;
      }
      worst = std::max(worst, t);
    }
    level_us.push_back(worst);
  }

  // Eq. 2-3: stage i runs segment i-d at every depth d where that segment exists; stages are
  // serial and each costs its slowest flat tree. Reduce is the same schedule run leaves-first.
  // The depths active in a stage form a sliding window, so a monotonic deque keeps this linear.
  const long depth_count = static_cast<long>(level_us.size());
  const long segments = static_cast<long>(seg.segments);
  std::deque<long> window;  // depths in the window, level_us decreasing
  double total = 0;
  if (depth_count == 0) return total;  // a single rank sends nothing
  for (long stage = 0; stage < depth_count + segments - 1; ++stage) {
    if (stage < depth_count) {
      while (!window.empty() && level_us[window.back()] <= level_us[stage]) window.pop_back();
      window.push_back(stage);
    }
    while (window.front() < stage - segments + 1) window.pop_front();
    total += level_us[window.front()];
  }
  if (shape.final_send_channel >= 0)
    total += p2p_us(table.channels[shape.final_send_channel], static_cast<double>(call.bytes()));
  return total;
}

std::optional<double> predict_us(const CalibrationTable &table, const Placement &placement,
                                 const Candidate &candidate, const CallShape &call,
                                 ModelVariant variant) {
  const AlgorithmInfo *info = find_algorithm(candidate.op, candidate.algorithm);
  if (!info || !info->modelled) return std::nullopt;
  auto shape = tree_shape(placement, candidate.op, candidate.algorithm, candidate.fanout, call.root);
  if (!shape) return std::nullopt;
  return evaluate_shape(table, *shape, call, info->segmented ? candidate.segsize : 0, variant);
}

}  // namespace modeltuned
