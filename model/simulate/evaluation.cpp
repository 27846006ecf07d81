#include "model/simulate/evaluation.hpp"

#include <algorithm>
#include <limits>

#include "model/cost/channel_cost.hpp"

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

ChannelMask round_mask(const Placement &placement, const Round &round) {
  ChannelMask m = 0;
  for (const Transfer &t : round) m |= 1u << static_cast<int>(placement.channel(t.from, t.to));
  return m;
}

double step_us(const CalibrationTable &table, ChannelMask mask, double bytes) {
  double worst = 0;
  for (int c = 0; c < kChannels; ++c) {
    if (!(mask & (1u << c))) continue;
    if (!table.channels[c].present) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, p2p_us(table.channels[c], bytes));
  }
  return worst;
}

double busy_step_us(const CalibrationTable &table, ChannelMask mask, double bytes, BusyRound kind, int ranks) {
  double worst = 0;
  for (int c = 0; c < kChannels; ++c) {
    if (!(mask & (1u << c))) continue;
    if (!table.channels[c].present) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, busy_round_us(table.channels[c], kind, ranks, bytes));
  }
  return worst;
}

double relay_step_us(const CalibrationTable &table, ChannelMask mask, double bytes) {
  double worst = 0;
  for (int c = 0; c < kChannels; ++c)
    if ((mask & (1u << c)) && table.channels[c].present) worst = std::max(worst, relay_us(table.channels[c], bytes));
  return worst;
}

}  // namespace modeltuned
