#include "model/cost/channel_cost.hpp"

#include <algorithm>
#include <cmath>

namespace modeltuned {

double p2p_us(const ChannelTable &channel, double bytes) {
  for (const auto &piece : channel.p2p)
    if (bytes <= piece.upto_bytes) return piece.alpha_us + piece.beta_us_per_byte * bytes;
  const auto &last = channel.p2p.back();  // validation guarantees an unbounded last piece
  return last.alpha_us + last.beta_us_per_byte * bytes;
}

static const std::vector<FlatTreeFit> &fits_for(const ChannelTable &channel, FlatTreeKind kind) {
  return kind == FlatTreeKind::fanin && !channel.fanin.empty() ? channel.fanin : channel.fanout;
}

double FlatTreeFit::time_us(int p) const {
  if (knots.empty()) return alpha_us + beta_us * (p - 1);
  if (p <= knots.front().first) return knots.front().second;
  if (p >= knots.back().first) return knots.back().second + beta_us * (p - knots.back().first);
  auto hi = std::lower_bound(knots.begin(), knots.end(), p, [](const auto &k, int v) { return k.first < v; });
  auto lo = hi - 1;
  const double t = static_cast<double>(p - lo->first) / (hi->first - lo->first);
  return lo->second + t * (hi->second - lo->second);
}

static double gamma_at_fit(const ChannelTable &channel, const FlatTreeFit &fit, int p) {
  return fit.time_us(p) / p2p_us(channel, fit.bytes);
}

// T(P, m) / T_p2p(m) of a curve family, interpolated in log(m) between its measured sizes and
// clamped to them and to at least 1.
static double ratio_to_p2p(const ChannelTable &channel, const std::vector<FlatTreeFit> &fits, int p, double bytes) {
  double g;
  // gamma is a ratio, so it extrapolates beyond the measured sizes better than times do: clamp.
  if (bytes <= fits.front().bytes) {
    g = gamma_at_fit(channel, fits.front(), p);
  } else if (bytes >= fits.back().bytes) {
    g = gamma_at_fit(channel, fits.back(), p);
  } else {
    auto hi =
        std::upper_bound(fits.begin(), fits.end(), bytes, [](double b, const FlatTreeFit &f) { return b < f.bytes; });
    auto lo = hi - 1;
    double t = (std::log(bytes) - std::log(lo->bytes)) / (std::log(hi->bytes) - std::log(lo->bytes));
    g = (1 - t) * gamma_at_fit(channel, *lo, p) + t * gamma_at_fit(channel, *hi, p);
  }
  return std::max(1.0, g);
}

double gamma_factor(const ChannelTable &channel, FlatTreeKind kind, int p, double bytes) {
  if (p <= 2) return 1.0;  // one peer: a point-to-point message by definition
  return ratio_to_p2p(channel, fits_for(channel, kind), p, bytes);
}

double busy_round_us(const ChannelTable &channel, BusyRound kind, int ranks, double bytes) {
  const auto &fits = kind == BusyRound::concurrent ? channel.concurrent : channel.exchange;
  const double p2p = p2p_us(channel, bytes);
  // Below the smallest measured size nothing is known (a curve derived from fan-outs only starts
  // at the eager limit): no charge.
  if (fits.empty() || ranks < 2 || bytes < fits.front().bytes) return p2p;
  // Beyond the measured group sizes the curve's own slope continues (FlatTreeFit::time_us).
  return ratio_to_p2p(channel, fits, ranks, bytes) * p2p;
}

double relay_us(const ChannelTable &channel, double bytes) {
  const auto &points = channel.relay;
  if (points.empty()) return 0.0;
  if (bytes <= points.front().first) return points.front().second;
  if (bytes >= points.back().first) return points.back().second;
  auto hi =
      std::upper_bound(points.begin(), points.end(), bytes, [](double b, const auto &pt) { return b < pt.first; });
  auto lo = hi - 1;
  const double t = (std::log(bytes) - std::log(lo->first)) / (std::log(hi->first) - std::log(lo->first));
  return (1 - t) * lo->second + t * hi->second;
}

double flat_tree_us(const ChannelTable &channel, FlatTreeKind kind, int p, double bytes) {
  if (p <= 1) return 0.0;
  return gamma_factor(channel, kind, p, bytes) * p2p_us(channel, bytes);
}

static double folded_flat_tree_us(const CalibrationTable &table, FlatTreeKind kind,
                                  const std::array<int, kChannels> &peers_per_channel, double bytes);

double multi_channel_flat_tree_us(const CalibrationTable &table, FlatTreeKind kind,
                                  const std::array<int, kChannels> &peers_per_channel, double bytes) {
  const int node = static_cast<int>(Channel::node);
  int local = 0;
  for (int c = 0; c < node; ++c) local += peers_per_channel[c];
  if (bytes > kSharedMemoryEagerLimitBytes && local > 0 && peers_per_channel[node] > 0) {
    std::array<int, kChannels> on_node = peers_per_channel, off_node{};
    on_node[node] = 0;
    off_node[node] = peers_per_channel[node];
    return std::max(folded_flat_tree_us(table, kind, on_node, bytes),
                    folded_flat_tree_us(table, kind, off_node, bytes));
  }
  return folded_flat_tree_us(table, kind, peers_per_channel, bytes);
}

static double folded_flat_tree_us(const CalibrationTable &table, FlatTreeKind kind,
                                  const std::array<int, kChannels> &peers_per_channel, double bytes) {
  int slowest = -1;
  double slowest_us = 0;
  double p2p[kChannels] = {};
  for (int c = 0; c < kChannels; ++c) {
    if (peers_per_channel[c] == 0) continue;
    if (!table.channels[c].present) return std::numeric_limits<double>::infinity();
    p2p[c] = p2p_us(table.channels[c], bytes);
    if (slowest < 0 || p2p[c] > slowest_us) {
      slowest = c;
      slowest_us = p2p[c];
    }
  }
  if (slowest < 0) return 0.0;
  // Eq. 11: Q_{max,j} = T_max / T_j cheaper messages cost as much as one on the slowest channel.
  int effective_peers = peers_per_channel[slowest];
  for (int c = 0; c < kChannels; ++c)
    if (c != slowest && peers_per_channel[c] > 0)
      effective_peers += static_cast<int>(std::floor(peers_per_channel[c] * p2p[c] / slowest_us));
  return flat_tree_us(table.channels[slowest], kind, effective_peers + 1, bytes);
}

}  // namespace modeltuned
