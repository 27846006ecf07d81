#include "calib/calibrate/fit_input.hpp"

#include <map>
#include <set>

#include <fmt/format.h>

namespace modeltuned::calibrate {

FitInput select_fittable(const calib::Samples &measured, const std::array<int, kChannels> &offered_max_p) {
  FitInput input;
  for (int c = 0; c < kChannels; ++c) {
    const Channel channel = static_cast<Channel>(c);
    const std::string name(channel_name(channel));
    std::set<double> p2p_sizes;
    for (const auto &s : measured.p2p)
      if (s.channel == channel) p2p_sizes.insert(s.bytes);
    // ps[kind][bytes] = the group sizes measured; kinds: fan-out, fan-in, then the contention ones
    constexpr const char *kKindNames[] = {"fan-out", "fan-in", "concurrent", "exchange"};
    constexpr int kFanout = 0, kFirstContention = 2;
    std::map<int, std::map<double, std::set<int>>> ps;
    for (const auto &s : measured.flat)
      if (s.channel == channel) ps[s.kind == FlatTreeKind::fanout ? kFanout : 1][s.bytes].insert(s.p);
    for (const auto &s : measured.contention)
      if (s.channel == channel) ps[kFirstContention + static_cast<int>(s.kind)][s.bytes].insert(s.p);
    if (p2p_sizes.empty() && ps.empty()) continue;

    // A size measured at one P only is fitted as an estimate (calib/fit_table.cpp). Where rank 0
    // has a single peer on the channel the calibrator said so before measuring; where the budget
    // ran out first, say it here, once for all kinds. Contention runs pairs: a second P needs 4.
    std::string short_kinds;
    for (const auto &[kind, by_bytes] : ps) {
      size_t single = 0;
      for (const auto &[bytes, p_values] : by_bytes) single += p_values.size() < 2;
      if (single && offered_max_p[c] >= (kind >= kFirstContention ? 4 : 3))
        short_kinds += fmt::format("{}{} of {} {} sizes", short_kinds.empty() ? "" : " and ", single, by_bytes.size(),
                                   kKindNames[kind]);
    }
    if (!short_kinds.empty())
      input.notes.push_back(
          fmt::format("channel {}: the budget ran out before {} were timed with more than one "
                      "group size; larger groups are estimated from that one; give a larger "
                      "--budget to measure them",
                      name, short_kinds));

    std::string reason;
    if (p2p_sizes.size() < 2)
      reason = "fewer than 2 point-to-point message sizes were measured; give a larger --budget";
    else if (!ps.count(kFanout))
      reason = "no flat tree was measured before the time ran out; give a larger --budget";
    if (!reason.empty()) {
      input.notes.push_back(fmt::format("channel {} left out of the table: {}", name, reason));
      continue;
    }
    for (const auto &s : measured.p2p)
      if (s.channel == channel) input.samples.p2p.push_back(s);
    for (const auto &s : measured.flat)
      if (s.channel == channel) input.samples.flat.push_back(s);
    for (const auto &s : measured.contention)
      if (s.channel == channel) input.samples.contention.push_back(s);
    for (const auto &s : measured.relay)
      if (s.channel == channel) input.samples.relay.push_back(s);
  }
  return input;
}

}  // namespace modeltuned::calibrate
