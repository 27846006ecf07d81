// Where each rank of a communicator sits, and the channel a pair of ranks talks through.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

namespace modeltuned {

// Channels of the seed report (section 3), ordered by increasing point-to-point latency at 1 B.
enum class Channel : uint8_t { cache = 0, core = 1, socket = 2, node = 3 };
inline constexpr int kChannels = 4;
inline constexpr std::string_view kChannelNames[kChannels] = {"cache", "core", "socket", "node"};
inline std::string_view channel_name(Channel c) { return kChannelNames[static_cast<int>(c)]; }
// Returns -1 when the name is not a channel.
int channel_from_name(std::string_view name);

// hwloc logical indices of the objects a rank is bound inside; -1 when the binding spans more
// than one object of that kind (for example a rank bound to a whole socket has no l3 or core).
struct RankPlace {
  int32_t node = -1;  // same value <=> same host
  int32_t package = -1;
  int32_t numa = -1;
  int32_t l3 = -1;
  int32_t core = -1;
  bool operator==(const RankPlace &) const = default;
};

// Channel between two placed ranks. Unknown levels are treated pessimistically: two ranks on
// one node whose packages are unknown talk through "socket"; same package but unknown or
// different L3 through "core".
Channel channel_between(const RankPlace &a, const RankPlace &b);

class Placement {
 public:
  Placement() = default;
  explicit Placement(std::vector<RankPlace> ranks) : ranks_(std::move(ranks)) {}
  int size() const { return static_cast<int>(ranks_.size()); }
  const RankPlace &operator[](int rank) const { return ranks_[rank]; }
  Channel channel(int a, int b) const { return channel_between(ranks_[a], ranks_[b]); }
  // Bit i set when some pair of ranks uses channel i.
  unsigned channels_used() const;
  // The communicator's shape, as the table's checks key it (margin.hpp): the widest channel any
  // two ranks use (levels nest, so rank 0's widest is everyone's), and the most common channel
  // between consecutive ranks (map-by core: cache; by socket: socket; by node: node), the wider
  // on a tie. Both `cache` for fewer than two ranks.
  Channel widest_channel() const;
  Channel neighbor_channel() const;
  const std::vector<RankPlace> &ranks() const { return ranks_; }

 private:
  std::vector<RankPlace> ranks_;
};

}  // namespace modeltuned
