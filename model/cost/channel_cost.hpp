// Per-channel costs from a calibration table: point-to-point (report eq. 5), flat tree through
// the parallelization factor gamma (eq. 4, 7) and flat trees whose receivers use several
// channels (eq. 8-11).
#pragma once
#include <array>

#include "calibration/table.hpp"

namespace modeltuned {

enum class FlatTreeKind { fanout, fanin };

// Point-to-point time of `bytes` through `channel`, microseconds.
double p2p_us(const ChannelTable &channel, double bytes);

// gamma(P, m) = T_flat(P, m) / T_p2p(m) (eq. 7), interpolated in log(m) between measured sizes,
// clamped to the measured size range and to at least 1 (eq. 1).
double gamma_factor(const ChannelTable &channel, FlatTreeKind kind, int p, double bytes);

// One-channel flat tree of p ranks (root + p-1 peers): gamma * T_p2p (eq. 4).
double flat_tree_us(const ChannelTable &channel, FlatTreeKind kind, int p, double bytes);

// Flat tree whose peers use several channels: peers_per_channel[c] peers through channel c.
// Eq. 11: peers on cheaper channels are folded into the most expensive channel at the ratio
// Q = T_p2p(c_max) / T_p2p(c) (eq. 10). "Most expensive" is decided at this message size,
// since the data show the channel order changing above a few KiB. Returns 0 for no peers.
double multi_channel_flat_tree_us(const CalibrationTable &table, FlatTreeKind kind,
                                  const std::array<int, kChannels> &peers_per_channel,
                                  double bytes);

}  // namespace modeltuned
