// The model's unit tests' machine: every rank in one cache, whose costs are simple enough to
// work predictions out by hand.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "model/calibration/table.hpp"
#include "model/topology/placement.hpp"

namespace modeltuned::test {

// One channel (cache): T_p2p = 0.5 + 1e-3 m us, no contention curves or relay costs, and a
// reduction cost of 1e-3 us per byte.
inline CalibrationTable one_channel_table() {
  CalibrationTable t;
  ChannelTable &ch = t.channels[static_cast<int>(Channel::cache)];
  ch.present = true;
  ch.p2p = {HockneyPiece{std::numeric_limits<double>::infinity(), 0.5, 1e-3}};
  for (double m : {1.0, 1024.0, 1048576.0})
    ch.fanout.push_back(FlatTreeFit{m, 0.5 * (0.5 + 1e-3 * m), 0.5 * (0.5 + 1e-3 * m), 64, {}});
  t.reduce_us_per_byte = 1e-3;
  return t;
}

// The same costs on every channel: for placements that span several (ORFEO's, in explain's tests).
inline CalibrationTable every_channel_table() {
  const CalibrationTable one = one_channel_table();
  CalibrationTable all = one;
  for (int c = 0; c < kChannels; ++c) all.channels[c] = one.channels[static_cast<int>(Channel::cache)];
  return all;
}

// The one-channel machine's point-to-point time.
inline double one_channel_p2p(double bytes) { return 0.5 + 1e-3 * bytes; }

// `p` ranks, all in that cache.
inline Placement one_cache(int p) { return Placement(std::vector<RankPlace>(p, RankPlace{0, 0, 0, 0, -1})); }

inline bool near(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b)); }

}  // namespace modeltuned::test
