#include <algorithm>
#include "model/topology/placement.hpp"

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
  // Channels are determined by levels, so comparing each rank with one representative per
  // distinct place is enough; P is small enough that the quadratic scan is not worth avoiding
  // only once per communicator, but keep it linear-ish by deduplicating places first.
  std::vector<RankPlace> distinct;
  for (const auto &r : ranks_) {
    bool seen = false;
    for (const auto &d : distinct)
      if (d == r) { seen = true; break; }
    if (!seen) distinct.push_back(r);
  }
  unsigned mask = 0;
  for (size_t i = 0; i < distinct.size(); ++i)
    for (size_t j = i + 1; j < distinct.size(); ++j)
      mask |= 1u << static_cast<int>(channel_between(distinct[i], distinct[j]));
  // Two ranks on the same place (oversubscribed, or bound to the same object) share it.
  if (distinct.size() < ranks_.size()) {
    for (const auto &d : distinct) {
      int n = 0;
      for (const auto &r : ranks_) n += (r == d);
      if (n > 1) mask |= 1u << static_cast<int>(channel_between(d, d));
    }
  }
  return mask;
}

}  // namespace modeltuned
