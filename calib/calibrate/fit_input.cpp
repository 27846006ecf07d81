#include "fit_input.hpp"

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
    // ps[kind][bytes] = the group sizes measured
    std::map<FlatTreeKind, std::map<double, std::set<int>>> ps;
    for (const auto &s : measured.flat)
      if (s.channel == channel) ps[s.kind][s.bytes].insert(s.p);
    if (p2p_sizes.empty() && ps.empty()) continue;

    // Flat-tree fits are lines in P: a message size needs two group sizes.
    std::map<FlatTreeKind, std::set<double>> usable;
    for (const auto &[kind, by_bytes] : ps) {
      size_t dropped = 0;
      for (const auto &[bytes, p_values] : by_bytes) {
        if (p_values.size() >= 2) usable[kind].insert(bytes);
        else ++dropped;
      }
      if (dropped && !usable[kind].empty())
        input.notes.push_back(fmt::format("channel {}: {} of {} {} message sizes left out, measured at one P only "
                                          "(the budget ran out first)",
                                          name, dropped, by_bytes.size(),
                                          kind == FlatTreeKind::fanout ? "fan-out" : "fan-in"));
    }

    std::string reason;
    if (p2p_sizes.size() < 2)
      reason = "fewer than 2 point-to-point message sizes were measured; give a larger --budget";
    else if (usable[FlatTreeKind::fanout].empty())
      reason = offered_max_p[c] <= 2
                   ? "rank 0 has a single peer on it, so flat trees exist only at P = 2 and the fit over P "
                     "needs P >= 3: run with more ranks on this channel"
                   : "flat trees were not measured at two group sizes before the time ran out; give a larger --budget";
    if (!reason.empty()) {
      input.notes.push_back(fmt::format("channel {} left out of the table: {}", name, reason));
      continue;
    }
    if (!ps[FlatTreeKind::fanin].empty() && usable[FlatTreeKind::fanin].empty())
      input.notes.push_back(fmt::format("channel {}: fan-in left out (no size measured at two P); the table "
                                        "uses the fan-out fits for it", name));
    for (const auto &s : measured.p2p)
      if (s.channel == channel) input.samples.p2p.push_back(s);
    for (const auto &s : measured.flat)
      if (s.channel == channel && usable[s.kind].count(s.bytes)) input.samples.flat.push_back(s);
  }
  return input;
}

}  // namespace modeltuned::calibrate
