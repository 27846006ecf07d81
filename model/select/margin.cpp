#include "model/select/margin.hpp"

#include "model/registry/registry.hpp"

#include <algorithm>
#include <cmath>

namespace modeltuned {

double held_out_uncertainty(const CalibrationTable &table) {
  double worst = 0;
  const auto fit = table.provenance.find("fit");
  if (fit == table.provenance.end() || !fit->is_object()) return 0;
  for (const auto &channel : *fit) {
    if (!channel.is_object()) continue;
    for (const auto &kind : channel) {
      if (!kind.is_object()) continue;
      const auto held_out = kind.find("held_out");
      if (held_out == kind.end() || !held_out->is_object()) continue;
      const auto ape = held_out->find("median_ape");
      if (ape != held_out->end() && ape->is_number() && ape->get<double>() > 0)
        worst = std::max(worst, ape->get<double>() / 100);
    }
  }
  return std::min(worst, kMaxUncertainty);
}

std::vector<int> check_group_sizes(int ranks) {
  std::vector<int> sizes{ranks};
  for (int k = 1; k < kCheckGroups; ++k) {
    const int size = static_cast<int>(ranks / std::pow(kCheckGroupRatio, k) + 1e-9) / 2 * 2;  // 256 / 2 is 128
    if (size < 2) break;
    if (size != sizes.back()) sizes.push_back(size);
  }
  return sizes;
}

double ranks_distance(const CheckResidual &r, int ranks) {
  if (!r.has_ranks()) return -1;
  const double p = ranks;
  if (p >= r.from_ranks && p < r.below_ranks) return 0;
  if (p * kChecksRanksReach < r.from_ranks || p >= kChecksRanksReach * r.below_ranks) return INFINITY;
  return p < r.from_ranks ? std::log(r.from_ranks / p) : std::log(p / (r.below_ranks - 1));
}

bool covers_communicator(const CheckResidual &r, Op op, Channel neighbors, Channel widest, int ranks) {
  return r.op == op_name(op) && r.neighbors == channel_name(neighbors) && r.widest == channel_name(widest) &&
         std::isfinite(ranks_distance(r, ranks));
}

std::vector<const CheckResidual *> checks_for(const CalibrationTable &table, Op op, double bytes, Metric metric,
                                              Channel neighbors, Channel widest, int ranks) {
  const std::string_view objective = metric == Metric::rank_mean ? "rank_mean" : "completion";
  std::vector<const CheckResidual *> out;
  for (const CheckResidual &r : table.checks)
    if (r.objective == objective && bytes >= r.from_bytes && bytes < r.below_bytes &&
        covers_communicator(r, op, neighbors, widest, ranks))
      out.push_back(&r);
  return out;
}

namespace {

// The nearest check of one configuration among `checks` that `holds` accepts.
template <typename Holds>
const CheckResidual *nearest_in(std::span<const CheckResidual *const> checks, std::string_view algorithm,
                                uint32_t segsize, int fanout, int ranks, Holds holds) {
  const CheckResidual *nearest = nullptr;
  double nearest_distance = INFINITY;
  for (const CheckResidual *r : checks) {
    if (r->algorithm != algorithm || r->segsize != segsize || r->fanout != fanout || !holds(*r)) continue;
    // Sized checks first (distance >= 0), nearest first; ties keep the table's order, the same on
    // every rank. A check without sizes (-1) only when no sized one holds.
    const double d = ranks_distance(*r, ranks), key = d < 0 ? 1e300 : d;
    if (!nearest || key < nearest_distance) {
      nearest = r;
      nearest_distance = key;
    }
  }
  return nearest;
}

std::optional<ResidualRange> range_of(const CheckResidual *r) {
  if (!r) return std::nullopt;
  return ResidualRange{r->log_lo, r->log_hi, {r->from_ranks, 0}};
}

// The range of one configuration at `ranks`: where checks of it were measured on both smaller and
// larger communicators (within reach), the union of the nearest on each side, since the model's
// error moves between measured sizes and nothing says how; where only one side has one, or a check
// holds `ranks` itself, that check's range; sizeless checks only when no sized one holds.
template <typename Holds>
std::optional<ResidualRange> bracket_in(std::span<const CheckResidual *const> checks, std::string_view algorithm,
                                        uint32_t segsize, int fanout, int ranks, Holds holds) {
  const CheckResidual *below = nullptr, *above = nullptr;
  double below_d = INFINITY, above_d = INFINITY;
  for (const CheckResidual *r : checks) {
    if (r->algorithm != algorithm || r->segsize != segsize || r->fanout != fanout || !r->has_ranks() || !holds(*r))
      continue;
    const double d = ranks_distance(*r, ranks);
    if (d == 0) return range_of(r);  // measured on this size
    const bool larger = r->from_ranks > ranks;
    const CheckResidual *&side = larger ? above : below;
    double &side_distance = larger ? above_d : below_d;
    if (d < side_distance) {  // ties keep the table's order
      side = r;
      side_distance = d;
    }
  }
  if (!below && !above)  // version 2 checks hold for any size
    return range_of(nearest_in(checks, algorithm, segsize, fanout, ranks, holds));
  if (!below || !above) {  // one side: carried no farther than the span of sizes it pooled
    const CheckResidual *one = below ? below : above;
    if ((below ? below_d : above_d) > std::log(double(one->below_ranks) / one->from_ranks)) return std::nullopt;
    return range_of(one);
  }
  return ResidualRange{std::min(below->log_lo, above->log_lo),
                       std::max(below->log_hi, above->log_hi),
                       {below->from_ranks, above->from_ranks}};
}

}  // namespace

std::optional<ResidualRange> range_in(std::span<const CheckResidual *const> checks, std::string_view algorithm,
                                      uint32_t segsize, int fanout, int ranks) {
  return bracket_in(checks, algorithm, segsize, fanout, ranks,
                    [](const CheckResidual &r) { return !r.relative_to_default; });
}

std::optional<ResidualRange> relative_range_in(std::span<const CheckResidual *const> checks, std::string_view algorithm,
                                               int ranks) {
  return bracket_in(checks, algorithm, 0, 0, ranks, [](const CheckResidual &r) { return r.relative_to_default; });
}

std::optional<ResidualRange> default_range_in(std::span<const CheckResidual *const> checks, Op op,
                                              const Candidate &runs, int ranks, const RunsAt &runs_at) {
  const auto ran_the_same = [&](const CheckResidual &r) {
    if (r.relative_to_default) return false;
    const int at = r.has_ranks() ? std::clamp(ranks, r.from_ranks, r.below_ranks - 1) : ranks;
    bool measured_any = false;
    for (double bytes = 1; bytes < r.below_bytes; bytes *= 2) {
      if (bytes < r.from_bytes) continue;
      measured_any = true;
      if (!(runs_at(at, bytes) == runs)) return false;
    }
    return measured_any || runs_at(at, r.from_bytes) == runs;
  };
  const AlgorithmSpec *spec = find_algorithm(op, runs.algorithm);
  const std::optional<ResidualRange> forced =
      spec ? range_in(checks, spec->name, runs.segsize, runs.fanout, ranks) : std::nullopt;
  const std::optional<ResidualRange> own = bracket_in(checks, "default", 0, 0, ranks, ran_the_same);
  if (own && forced)  // the same code measured twice: the range covers both
    return ResidualRange{std::min(own->lo, forced->lo), std::max(own->hi, forced->hi), own->measured_on};
  return own ? own : forced;
}

int pick_with_checks(std::span<const double> predicted_us, std::span<const std::optional<ResidualRange>> ranges,
                     double default_us, const std::optional<ResidualRange> &default_range) {
  if (!default_range || !(default_us > 0)) return -1;
  const double default_optimistic = std::log(default_us) + default_range->lo;
  int best = -1;
  double best_pessimistic = INFINITY;
  for (size_t i = 0; i < predicted_us.size() && i < ranges.size(); ++i) {
    if (!ranges[i] || !(predicted_us[i] > 0)) continue;
    const double pessimistic = std::log(predicted_us[i]) + ranges[i]->hi;
    if (pessimistic < default_optimistic && pessimistic < best_pessimistic) {
      best = static_cast<int>(i);
      best_pessimistic = pessimistic;
    }
  }
  return best;
}

}  // namespace modeltuned
