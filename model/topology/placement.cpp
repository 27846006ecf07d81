#include "model/topology/placement.hpp"

#include <algorithm>
#include <tuple>

namespace modeltuned {

int channel_from_name(std::string_view name) {
  for (int c = 0; c < kChannels; ++c)
    if (kChannelNames[c] == name) return c;
  return -1;
}

Channel channel_between(const RankPlace &a, const RankPlace &b) {
  if (a.node != b.node || a.node < 0) return Channel::node;
  if (a.package < 0 || b.package < 0 || a.package != b.package) return Channel::socket;
  if (a.l3 >= 0 && a.l3 == b.l3) return Channel::cache;
  return Channel::core;
}

Channel Placement::widest_channel() const {
  Channel widest = Channel::cache;
  for (size_t r = 1; r < ranks_.size(); ++r) widest = std::max(widest, channel_between(ranks_[0], ranks_[r]));
  return widest;
}

Channel Placement::neighbor_channel() const {
  int count[kChannels] = {};
  for (size_t r = 1; r < ranks_.size(); ++r) ++count[static_cast<int>(channel_between(ranks_[r - 1], ranks_[r]))];
  int most = 0;
  for (int c = 1; c < kChannels; ++c)
    if (count[c] >= count[most]) most = c;
  return static_cast<Channel>(most);
}

unsigned Placement::channels_used() const {
  // channel_between depends only on the first of node, package, L3 where two places differ (or
  // are unknown). Sorted in that order, any pair sharing a prefix and differing next has a
  // consecutive pair that does the same, so consecutive pairs give every channel: O(P log P).
  std::vector<RankPlace> sorted = ranks_;
  auto key = [](const RankPlace &r) { return std::tuple(r.node, r.package, r.l3, r.numa, r.core); };
  std::sort(sorted.begin(), sorted.end(), [&](const RankPlace &a, const RankPlace &b) { return key(a) < key(b); });
  unsigned mask = 0;
  for (size_t i = 1; i < sorted.size(); ++i)
    // Two ranks on the same place (oversubscribed, or bound to the same object) share it.
    mask |= 1u << static_cast<int>(channel_between(sorted[i - 1], sorted[i]));
  return mask;
}

}  // namespace modeltuned
