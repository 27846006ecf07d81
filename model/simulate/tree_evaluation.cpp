#include "model/simulate/tree_evaluation.hpp"

#include <algorithm>
#include <functional>
#include <deque>
#include <unordered_map>
#include <map>
#include <tuple>

#include "model/cost/channel_cost.hpp"

namespace modeltuned {

// Linear algorithms are a flat tree of all ranks around the root.
static Tree flat_tree(int size, int root) {
  Tree t;
  t.root = root;
  t.parent.assign(size, root);
  t.parent[root] = -1;
  t.children.assign(size, {});
  for (int r = 0; r < size; ++r)
    if (r != root) t.children[root].push_back(r);
  return t;
}

// Depth of every rank, and per level the transfers per channel into the busiest node. Breadth
// first visits parents level by level, so one level's counts per (channel, node) are kept at a
// time (a map over every edge cost a third of a 16384-rank decision).
static std::vector<int> tree_levels(const Tree &tree, const Placement &placement,
                                    std::vector<PeersPerChannel> &levels) {
  const int size = tree.size();
  std::vector<int> depth(size, -1);
  int max_node = -1;
  for (int r = 0; r < size; ++r) max_node = std::max(max_node, placement[r].node);
  const int slots = max_node + 2;  // node -1 (unknown) has slot 0
  std::vector<int> into_node(static_cast<size_t>(kChannels) * slots, 0), touched;
  levels.clear();
  int level = -1;
  auto close_level = [&] {
    if (touched.empty()) return;
    if (static_cast<int>(levels.size()) <= level) levels.resize(level + 1, PeersPerChannel{});
    for (int i : touched) {
      levels[level][i / slots] = std::max(levels[level][i / slots], into_node[i]);
      into_node[i] = 0;
    }
    touched.clear();
  };
  std::deque<int> queue{tree.root};
  depth[tree.root] = 0;
  while (!queue.empty()) {
    const int r = queue.front();
    queue.pop_front();
    if (depth[r] != level) {
      close_level();
      level = depth[r];
    }
    for (int child : tree.children[r]) {
      depth[child] = depth[r] + 1;
      const int i = static_cast<int>(placement.channel(r, child)) * slots + placement[child].node + 1;
      if (into_node[i]++ == 0) touched.push_back(i);
      queue.push_back(child);
    }
  }
  close_level();
  return depth;
}

TreePlan plan_for_tree(const Tree &tree, const Placement &placement) {
  TreePlan plan;
  const int size = tree.size();
  plan.size = size;
  const std::vector<int> depth = tree_levels(tree, placement, plan.levels);
  std::vector<int> flat_tree_of(size, -1), sender_index(size, -1);
  std::vector<int> last_senders;  // senders none of whose children send
  std::deque<int> queue{tree.root};
  while (!queue.empty()) {  // breadth first: a parent before its children
    int r = queue.front();
    queue.pop_front();
    if (tree.children[r].empty()) continue;
    PeersPerChannel peers{}, leaves{};
    bool children_send = false;
    for (int child : tree.children[r]) {
      const int c = static_cast<int>(placement.channel(r, child));
      ++peers[c];
      if (tree.children[child].empty()) ++leaves[c];
      queue.push_back(child);
      children_send |= !tree.children[child].empty();
    }
    const PeersPerChannel &level = plan.levels[depth[r]];
    const int up = r == tree.root ? -1 : static_cast<int>(placement.channel(r, tree.parent[r]));
    int id = 0;
    auto same = [](const PeersPerChannel &x, const PeersPerChannel &y) {  // inline, not memcmp
      for (int c = 0; c < kChannels; ++c)
        if (x[c] != y[c]) return false;
      return true;
    };
    while (id < static_cast<int>(plan.flat_trees.size()) &&
           !(same(plan.flat_trees[id], peers) && same(plan.flat_tree_level[id], level) &&
             plan.flat_tree_up_channel[id] == up))
      ++id;
    if (id == static_cast<int>(plan.flat_trees.size())) {
      plan.flat_trees.push_back(peers);
      plan.flat_tree_level.push_back(level);
      plan.flat_tree_up_channel.push_back(up);
    }
    flat_tree_of[r] = id;
    if (!children_send) last_senders.push_back(r);
    sender_index[r] = static_cast<int>(plan.sender_flat_tree.size());
    plan.sender_flat_tree.push_back(id);
    plan.sender_parent.push_back(r == tree.root ? -1 : sender_index[tree.parent[r]]);
    plan.sender_up_channel.push_back(up);
    plan.sender_leaves.push_back(leaves);
  }
  // Distinct paths only: thousands of leaves' parents share a handful of them (a binary tree of
  // 16384 ranks has 8192 last senders and 14 paths), so each is kept once, found by its hash.
  std::vector<int> counts(plan.flat_trees.size());
  std::unordered_map<uint64_t, std::vector<int>> seen;  // hash -> indices into plan.paths
  std::vector<std::pair<int, int>> path;
  for (int r : last_senders) {
    std::fill(counts.begin(), counts.end(), 0);
    for (int u = r; u >= 0; u = tree.parent[u]) ++counts[flat_tree_of[u]];
    path.clear();
    uint64_t hash = 1469598103934665603ull;  // FNV-1a over (id, count)
    for (size_t id = 0; id < counts.size(); ++id)
      if (counts[id]) {
        path.emplace_back(static_cast<int>(id), counts[id]);
        hash = (hash ^ (id << 32 | static_cast<uint32_t>(counts[id]))) * 1099511628211ull;
      }
    std::vector<int> &same_hash = seen[hash];
    bool known = false;
    for (int i : same_hash) known = known || plan.paths[i] == path;
    if (!known) {
      same_hash.push_back(static_cast<int>(plan.paths.size()));
      plan.paths.push_back(path);
    }
  }
  std::sort(plan.paths.begin(), plan.paths.end());  // a canonical order, as before
  return plan;
}

TreePlan linear_plan(const Placement &placement, int root) {
  TreePlan plan = plan_for_tree(flat_tree(placement.size(), root), placement);
  plan.linear = true;
  return plan;
}

TreePlan in_order_binary_plan(const Placement &placement, int root) {
  const int size = placement.size();
  TreePlan plan = plan_for_tree(build_in_order_bintree(size), placement);
  if (root != size - 1) plan.final_send_channel = static_cast<int>(placement.channel(size - 1, root));
  return plan;
}

// Open MPI's generic tree bcast: a rank posts segment k to all its children at once when it has
// received it and the sends of segment k-1 are complete (receives run one segment ahead). With
// T_u the flat tree of rank u, start_u(k) = max(arrive_u(k), start_u(k-1) + T_u) and
// arrive_child(k) = start_u(k) + T_u, whose solution is start_u(k) = A_u + k * M_u, where A_u sums
// and M_u maxes T over u's strict ancestors and u (docs/model.md). Rank u finishes at
// A_u + (n-1) M_u + T_u, which only grows down a path, so the latest finish is at the end of a
// path: sum of T along it plus (n-1) times its largest T. The generic reduce is the same
// recurrence run from the leaves (a rank combines segment k from all children once it has sent
// segment k-1), so the same formula holds with fan-in flat trees.
double schedule_us(const TreePlan &plan, std::span<const double> flat_us, size_t segments) {
  const double later_segments = static_cast<double>(segments - 1);
  double total = 0;
  for (const auto &path : plan.paths) {
    double sum = 0, max = 0;
    for (auto [id, count] : path) {
      sum += count * flat_us[id];
      max = std::max(max, flat_us[id]);
    }
    total = std::max(total, sum + later_segments * max);
  }
  return total;
}

// Each rank's own time, averaged (Metric::rank_mean), with the schedule's recurrence per rank.
// Bcast: a rank is done when its last segment has arrived (a leaf: the end of its parent's last
// flat tree) or its last flat tree has ended. Reduce: a leaf is done once its segments are sent
// (one point-to-point message each, sent one after the other; above the eager limit, when its
// parent has received it); an inner rank once it has combined its subtree and sent the result up;
// the root at the end. Per rank the reduce recurrence is solved bottom-up with the largest sum and
// the largest flat tree below it, which is exact for one segment and an upper bound otherwise.
static double rank_mean(const CalibrationTable &table, const TreePlan &plan, std::span<const double> flat_us,
                        size_t segments, double segment_bytes, bool reduce) {
  const size_t senders = plan.sender_flat_tree.size();
  const double later = static_cast<double>(segments - 1);
  thread_local std::vector<std::pair<double, double>> acc;  // (sum, max) per sender
  double total = 0;
  if (!reduce) {
    acc.resize(senders);
    for (size_t i = 0; i < senders; ++i) {
      const double t = flat_us[plan.sender_flat_tree[i]];
      const int parent = plan.sender_parent[i];
      acc[i] = parent < 0 ? std::pair{t, t} : std::pair{acc[parent].first + t, std::max(acc[parent].second, t)};
      int leaves = 0;
      for (int n : plan.sender_leaves[i]) leaves += n;
      total += (1 + leaves) * (acc[i].first + later * acc[i].second);
    }
    return total / plan.size;
  }
  acc.assign(senders, {0.0, 0.0});  // largest (sum, max) among each sender's sending children
  for (size_t k = senders; k-- > 0;) {
    const double t = flat_us[plan.sender_flat_tree[k]];
    const double sum = t + acc[k].first, max = std::max(t, acc[k].second);
    double done = sum + later * max;
    if (plan.sender_up_channel[k] >= 0) done += p2p_us(table.channels[plan.sender_up_channel[k]], segment_bytes);
    const int parent = plan.sender_parent[k];
    if (parent >= 0) acc[parent] = {std::max(acc[parent].first, sum), std::max(acc[parent].second, max)};
    total += done;
    int leaves = 0;
    for (int c = 0; c < kChannels; ++c) leaves += plan.sender_leaves[k][c];
    if (leaves == 0) continue;
    if (segment_bytes > kSharedMemoryEagerLimitBytes) {
      // Rendezvous: a leaf's send completes only when this rank has received it. It receives
      // its n children one after another, each taking t/n of its flat tree, leaves first (Open
      // MPI's trees list children by growing subtree), so its L leaves are done on average
      // (L+1)/2 shares into the round of the last segment; with one segment that round starts
      // at once, before any subtree has answered.
      int children = 0;
      for (int n : plan.flat_trees[plan.sender_flat_tree[k]]) children += n;
      const double last_round = segments > 1 ? sum - t + later * max : 0;
      total += leaves * (last_round + t * (leaves + 1) / (2.0 * children));
      continue;
    }
    for (int c = 0; c < kChannels; ++c)
      if (plan.sender_leaves[k][c])
        total += plan.sender_leaves[k][c] * static_cast<double>(segments) * p2p_us(table.channels[c], segment_bytes);
  }
  return total / plan.size;
}

double tree_schedule_us(const Evaluation &e, const TreePlan &plan, std::span<const double> flat_us, size_t segments) {
  if (plan.flat_trees.empty()) return 0;
  return (e.tree_schedule ? e.tree_schedule : schedule_us)(plan, flat_us, segments);
}

// A flat tree is not alone: the other senders of its tree level (with S segments, of the S
// busiest consecutive levels, which a pipeline keeps busy at once) move data into the same node
// at the same time. With contention curves in the table, the flat tree lasts at least what that
// many concurrent transfers of the segment take (busy_round_us); without them, 0.
// `pipelined[c]`: with S > 1, the transfers of the S widest levels on channel c (the same for
// every flat tree); -1 with one segment, where each flat tree's own level counts.
static double level_contention_us(const CalibrationTable &table, const TreePlan &plan, size_t id,
                                  const PeersPerChannel &pipelined, double segment_bytes) {
  double bound = 0;
  for (int c = 0; c < kChannels; ++c) {
    const ChannelTable &channel = table.channels[c];
    if (channel.concurrent.empty()) continue;
    const int transfers = pipelined[c] >= 0 ? pipelined[c] : plan.flat_tree_level[id][c];
    if (transfers >= 2)
      bound = std::max(bound, busy_round_us(channel, BusyRound::concurrent, 2 * transfers, segment_bytes));
  }
  return bound;
}

// The transfers of the S widest levels per channel (S = segments > 1), or -1 per channel.
static PeersPerChannel pipelined_transfers(const CalibrationTable &table, const TreePlan &plan, size_t segments) {
  PeersPerChannel out;
  out.fill(-1);
  if (segments <= 1) return out;
  thread_local std::vector<int> widths;
  for (int c = 0; c < kChannels; ++c) {
    if (table.channels[c].concurrent.empty()) continue;
    widths.clear();
    for (const PeersPerChannel &level : plan.levels) widths.push_back(level[c]);
    const size_t busy = std::min(segments, widths.size());
    std::partial_sort(widths.begin(), widths.begin() + static_cast<long>(busy), widths.end(), std::greater<>());
    out[c] = 0;
    for (size_t i = 0; i < busy; ++i) out[c] += widths[i];
  }
  return out;
}

double evaluate_tree(const Evaluation &e, const TreePlan &plan) {
  if (plan.flat_trees.empty()) return 0;  // a single rank sends nothing
  const CalibrationTable &table = e.table;
  const CallShape &call = e.call;
  const Segmentation seg = segmentation(e.candidate.segsize, call.type_size, call.count);
  const double segment_bytes = static_cast<double>(seg.segcount * call.type_size);
  const bool reduce = call.op == Op::reduce;
  const FlatTreeKind kind = reduce ? FlatTreeKind::fanin : FlatTreeKind::fanout;

  // Fresh temporaries of Open MPI's generic reduce (coll_base_reduce.c), written per call: on
  // every rank with children, an accumulator of the whole message (the root uses its receive
  // buffer instead, corrected below) and one or two segment buffers for what arrives, reused
  // across segments. Charged per segment: the accumulator's share plus the segment buffers spread
  // over the segments. The linear reduce's root has one buffer of its own (below).
  // Ranks below the root hold two or more temporaries at once: the two-buffer rate. The root may
  // hold one alone, charged at the one-buffer rate (glibc keeps such a block where it gives back
  // two freed together, so on the 2-core VM one costs ~0 and two 1 ns/B). Neither where the call
  // allocates less than the table's threshold at once (CalibrationTable::fresh_memory_from_bytes).
  const double fresh =
      reduce && !plan.linear ? table.fresh_us_per_byte(static_cast<double>(call.bytes()) + 2 * segment_bytes) : 0;
  thread_local std::vector<double> flat_us;
  flat_us.resize(plan.flat_trees.size());
  const PeersPerChannel pipelined = pipelined_transfers(table, plan, seg.segments);
  for (size_t id = 0; id < plan.flat_trees.size(); ++id) {
    const PeersPerChannel &peers = plan.flat_trees[id];
    double t = multi_channel_flat_tree_us(table, kind, peers, segment_bytes);
    if (reduce) {  // one local reduction of the segment per child
      int children = 0;
      for (int n : peers) children += n;
      t += children * segment_bytes * table.reduce_us_per_byte;
      const double segment_buffers = seg.segments > 1 || children > 1 ? 2 : 1;
      t += fresh * segment_bytes * (1 + segment_buffers / static_cast<double>(seg.segments));
    }
    flat_us[id] = std::max(t, level_contention_us(table, plan, id, pipelined, segment_bytes));
    // A sender below the root passes on what it received (or combined): the relay cost, per
    // segment (0 without relay points in the table).
    if (const int up = plan.flat_tree_up_channel[id]; up >= 0)
      flat_us[id] += relay_us(table.channels[up], segment_bytes);
  }
  const double final_send = plan.final_send_channel < 0
                                ? 0
                                : p2p_us(table.channels[plan.final_send_channel], static_cast<double>(call.bytes()));
  // The root's own fresh memory. Generic reduce: the root accumulates into its receive buffer,
  // so take back the accumulator share of its flat tree, which every path counts once (the
  // (segments - 1) x slowest term then belongs to an inner rank, except when the root alone has
  // children: segmented, that overcharges it); in-order binary's tree root P-1 has a fresh one. Linear reduce: the root
  // receives all but rank P-1's data into one fresh buffer (P > 2).
  double root_fresh = 0;
  if (plan.final_send_channel < 0 && fresh > 0 && !plan.sender_flat_tree.empty()) {
    // Its flat tree was charged fresh x segment x (1 + buffers / segments); it has only the buffers.
    int children = 0;
    for (int n : plan.flat_trees[plan.sender_flat_tree.front()]) children += n;
    const double buffers = seg.segments > 1 || children > 1 ? 2 : 1;
    const double rate = buffers > 1 ? table.fresh_us_per_byte(buffers * segment_bytes)
                                    : table.fresh_one_buffer_us_per_byte(segment_bytes);
    root_fresh =
        segment_bytes * (rate * buffers - fresh * (seg.segments + buffers)) / static_cast<double>(seg.segments);
  }
  if (reduce && plan.linear && plan.size > 2)
    root_fresh =
        table.fresh_one_buffer_us_per_byte(static_cast<double>(call.bytes())) * static_cast<double>(call.bytes());
  // Another tree schedule only predicts completion.
  if (call.metric == Metric::rank_mean && !e.tree_schedule)
    // The final hop of in-order binary keeps two ranks (P-1 and the root) that much longer.
    return rank_mean(table, plan, flat_us, seg.segments, segment_bytes, reduce) +
           (2 * final_send + root_fresh) / plan.size;
  return tree_schedule_us(e, plan, flat_us, seg.segments) + final_send + root_fresh;
}

}  // namespace modeltuned
