#include "model/collectives/bcast/scatter_allgather.hpp"

#include <algorithm>

namespace modeltuned {

static int next_power_of_two(int n) {
  int p = 1;
  while (p < n) p <<= 1;
  return p;
}

static int round_down(int v, int m) { return v / m * m; }

// Channel bit of the transfer between shifted ranks s and t (rank = (shifted + root) mod P).
static auto shifted_channel(const Placement &placement, int root) {
  const int size = placement.size();
  return [&placement, root, size](int s, int t) {
    return 1u << static_cast<int>(placement.channel((s + root) % size, (t + root) % size));
  };
}

// Scatter: in the round of mask m, every shifted rank s that is a multiple of 2m sends the
// blocks of s+m .. s+2m-1 to s+m.
template <class ChannelOf>
static std::vector<ChannelMask> binomial_scatter(int size, ChannelOf channel) {
  std::vector<ChannelMask> rounds;
  for (int m = next_power_of_two(size) / 2; m >= 1; m /= 2) {
    ChannelMask mask = 0;
    for (int s = 0; s + m < size; s += 2 * m) mask |= channel(s, s + m);
    rounds.push_back(mask);
  }
  return rounds;
}

// Open MPI's non-power-of-two step after the doubling round of `mask` (coll_base_bcast.c): a
// rank whose partner subtree is incomplete sends what it received, by recursive halving, to the
// ranks of its subtree that had no partner. Returns the halving steps that send, in order, each
// with its channels and the blocks sent (what the partner subtree held).
template <class ChannelOf>
static std::vector<std::pair<ChannelMask, int>> halving_sends(int size, int mask, ChannelOf channel) {
  std::vector<std::pair<ChannelMask, int>> steps;
  for (int half = mask >> 1; half > 0; half >>= 1) {
    ChannelMask m = 0;
    int blocks = 0;
    for (int v = 0; v < size; ++v) {
      const int partner_root = round_down(v ^ mask, mask);
      if (partner_root + mask <= size) continue;              // the partner subtree was complete
      const int holders = size - round_down(v, mask) - mask;  // ranks of v's subtree with all data
      const int target = v ^ half, tree_root = round_down(v, half << 1);
      if (target > v && v < tree_root + holders && target >= tree_root + holders && target < size) {
        m |= channel(v, target);
        blocks = std::max(blocks, size - partner_root);
      }
    }
    if (m) steps.emplace_back(m, blocks);
  }
  return steps;
}

ScatterAllgatherPlan scatter_allgather_plan(const Placement &placement, int root) {
  const int size = placement.size();
  const auto channel = shifted_channel(placement, root);
  ScatterAllgatherPlan plan;
  plan.size = size;
  plan.scatter = binomial_scatter(size, channel);
  for (int m = 1; m < size; m *= 2) {
    ChannelMask mask = 0;
    for (int s = 0; s < size; ++s)
      if ((s ^ m) < size) mask |= channel(s, s ^ m);
    plan.doubling.push_back(mask);
    plan.doubling_extra.push_back(halving_sends(size, m, channel));
  }
  return plan;
}

ScatterAllgatherRingPlan scatter_allgather_ring_plan(const Placement &placement, int root) {
  const int size = placement.size();
  const auto channel = shifted_channel(placement, root);
  ScatterAllgatherRingPlan plan;
  plan.size = size;
  plan.scatter = binomial_scatter(size, channel);
  for (int s = 0; s < size; ++s) plan.ring |= channel(s, (s + 1) % size);
  return plan;
}

// Elements per rank's block.
static size_t block_of(const CallShape &call, int size) {
  const size_t p = static_cast<size_t>(size);
  return (call.count + p - 1) / p;
}

// Scatter rounds, largest first: the root's transfer moves m blocks (fewer at the tail).
static double scatter_us(const Evaluation &e, const std::vector<ChannelMask> &scatter, size_t block, int size) {
  const size_t count = e.call.count;
  const double ts = static_cast<double>(e.call.type_size);
  double total = 0;
  size_t m = scatter.size() ? size_t{1} << (scatter.size() - 1) : 0;
  for (size_t round = 0; round < scatter.size(); ++round) {
    const ChannelMask mask = scatter[round];
    size_t elements = std::min(m * block, count > m * block ? count - m * block : 0);
    const double bytes = static_cast<double>(elements) * ts;
    const int busy = 2 * ((size + 2 * static_cast<int>(m) - 1) / (2 * static_cast<int>(m)));  // senders and receivers
    total += busy_step_us(e.table, mask, bytes, BusyRound::concurrent, std::min(busy, size));
    // After the first round, the senders other than the root forward what they received.
    if (round > 0) total += relay_step_us(e.table, mask, bytes);
    m /= 2;
  }
  return total;
}

double evaluate_scatter_allgather(const Evaluation &e, const ScatterAllgatherPlan &plan) {
  const size_t block = block_of(e.call, plan.size);
  const double ts = static_cast<double>(e.call.type_size);
  double total = scatter_us(e, plan.scatter, block, plan.size);
  // Recursive doubling: round j exchanges the 2^j blocks gathered so far; for sizes that are not
  // powers of two, the halving sends that follow a round with incomplete partners.
  size_t blocks = 1;
  for (size_t round = 0; round < plan.doubling.size(); ++round) {
    // Every allgather step sends on blocks received in an earlier step: a relay.
    const double bytes = static_cast<double>(blocks * block) * ts;
    total += busy_step_us(e.table, plan.doubling[round], bytes, BusyRound::exchange, plan.size) +
             relay_step_us(e.table, plan.doubling[round], bytes);
    for (auto [mask, sent] : plan.doubling_extra[round]) {
      const double extra_bytes = static_cast<double>(static_cast<size_t>(sent) * block) * ts;
      total += step_us(e.table, mask, extra_bytes) + relay_step_us(e.table, mask, extra_bytes);
    }
    blocks *= 2;
  }
  return total;
}

double evaluate_scatter_allgather_ring(const Evaluation &e, const ScatterAllgatherRingPlan &plan) {
  const size_t block = block_of(e.call, plan.size);
  const double ts = static_cast<double>(e.call.type_size);
  const double p = static_cast<double>(plan.size);
  const double bytes = static_cast<double>(block) * ts;
  return scatter_us(e, plan.scatter, block, plan.size) +
         (p - 1) * (busy_step_us(e.table, plan.ring, bytes, BusyRound::exchange, plan.size) +
                    relay_step_us(e.table, plan.ring, bytes));
}

}  // namespace modeltuned
