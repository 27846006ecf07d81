// Per-channel costs from a calibration table: point-to-point (report eq. 5), flat tree through
// the parallelization factor gamma (eq. 4, 7) and flat trees whose receivers use several
// channels (eq. 8-11).
#pragma once
#include <array>

#include "model/calibration/table.hpp"

namespace modeltuned {

enum class FlatTreeKind { fanout, fanin };

// Point-to-point time of `bytes` through `channel`, microseconds.
double p2p_us(const ChannelTable &channel, double bytes);

// gamma(P, m) = T_flat(P, m) / T_p2p(m) (eq. 7), interpolated in log(m) between measured sizes,
// clamped to the measured size range and to at least 1 (eq. 1).
double gamma_factor(const ChannelTable &channel, FlatTreeKind kind, int p, double bytes);

// Rounds in which many ranks of a channel move data at once share the node's memory system
// (calibration version 2, `concurrent` and `exchange`): `concurrent`, ranks/2 one-way transfers;
// `exchange`, every rank sends one message and receives one.
enum class BusyRound { concurrent, exchange };

// One message of `bytes` in a round with `ranks` busy ranks of this channel: the measured curve
// at that group size, as a ratio to the point-to-point time (like gamma), at least a
// point-to-point message; without the curve (version 1 tables), the point-to-point time.
double busy_round_us(const ChannelTable &channel, BusyRound kind, int ranks, double bytes);

// What a rank that received a message of `bytes` through `channel` adds to send it on (the
// table's relay points, interpolated in log(bytes), held at the end values outside them);
// 0 without relay points (tables before version 4).
double relay_us(const ChannelTable &channel, double bytes);

// One-channel flat tree of p ranks (root + p-1 peers): gamma * T_p2p (eq. 4).
double flat_tree_us(const ChannelTable &channel, FlatTreeKind kind, int p, double bytes);

// Open MPI's shared-memory eager limit (btl_vader_eager_limit's default). Above it a message
// moves by rendezvous: a peer on the node copies it itself (single copy) while the NIC moves
// those on other nodes, so the root no longer pushes every message through its own CPU.
inline constexpr double kSharedMemoryEagerLimitBytes = 4096;

// Flat tree whose peers use several channels: peers_per_channel[c] peers through channel c.
// Eq. 11: peers on cheaper channels are folded into the most expensive channel at the ratio
// Q = T_p2p(c_max) / T_p2p(c) (eq. 10). "Most expensive" is decided at this message size,
// since the data show the channel order changing above a few KiB. *Departure:* above the
// shared-memory eager limit the peers on this node and those on other nodes use different
// resources (memory system, NIC) and proceed side by side: the flat tree lasts as long as the
// slower of the two groups, each folded by eq. 11 (docs/model.md; on ORFEO it halves the linear
// bcast's median error under map-by node). Returns 0 for no peers.
double multi_channel_flat_tree_us(const CalibrationTable &table, FlatTreeKind kind,
                                  const std::array<int, kChannels> &peers_per_channel, double bytes);

}  // namespace modeltuned
