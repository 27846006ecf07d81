// Validation protocols and the rows scored beside the component (see protocol.hpp).
#include "tools/validate/protocol.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "model/select/margin.hpp"

namespace modeltuned::tools::validate {

bool Protocol::fits(int p) const {
  if (check_sizes.empty()) return p <= kOutOfSampleFitMaxP;
  return std::find(check_sizes.begin(), check_sizes.end(), p) != check_sizes.end();
}

bool Protocol::scores(int p) const {
  if (check_sizes.empty()) return p >= kOutOfSampleMinP;
  const int smallest = *std::min_element(check_sizes.begin(), check_sizes.end());
  return !fits(p) && 2 * p >= smallest && p <= allocation;
}

std::string Protocol::sizes_text() const {
  std::string text;
  for (int s : check_sizes) text += fmt::format("{}{}", text.empty() ? "" : ";", s);
  return text;
}

Protocol held_out_protocol() { return {"held-out", {}, 0}; }

Protocol calibrated_on(int ranks) {
  // The data set measured every fourth communicator size (2, 6, 10, ..., 254) with every op and
  // mapping: each size the calibrator would measure is taken at the nearest of those (the larger
  // on a tie), once.
  std::vector<int> sizes;
  for (int s : check_group_sizes(ranks)) {
    const int nearest = 2 + s / 4 * 4;
    if (std::find(sizes.begin(), sizes.end(), nearest) == sizes.end()) sizes.push_back(nearest);
  }
  return {fmt::format("calibrated-on-{}", ranks), sizes, ranks};
}

namespace {

// The case of (op, mapping, p, bytes), or nullptr.
const Case *find_case(const std::vector<Case> &cases, Op op, int mapping, int p, double bytes) {
  for (const Case &c : cases)
    if (c.base.op == static_cast<int>(op) && c.base.mapping == mapping && c.base.p == p && c.base.bytes == bytes)
      return &c;
  return nullptr;
}

int nearest_size(const std::vector<int> &sizes, int p) {
  int nearest = sizes.front();
  for (int s : sizes) {
    const double d = std::abs(std::log(double(s) / p)), best = std::abs(std::log(double(nearest) / p));
    if (d < best - 1e-12 || (std::abs(d - best) <= 1e-12 && s > nearest)) nearest = s;
  }
  return nearest;
}

// The fastest measured algorithm of a case, ties to the lower tuned number (the default first).
int fastest(const Case &c) {
  int best = 0;
  double best_us = INFINITY;
  for (const auto &[alg, us] : c.measured)
    if (us < best_us) best = alg, best_us = us;
  return best;
}

template <typename Pick>
SelectionRow select_by(const std::vector<Case> &cases, const Protocol &protocol, Op op, int mapping,
                       const std::string &name, Pick pick) {
  SelectionRow row;
  row.model = name;
  row.op = op;
  row.mapping = mapping;
  for (const Case &c : cases) {
    if (c.base.op != static_cast<int>(op) || c.base.mapping != mapping || !c.measured.count(0)) continue;
    if (!protocol.scores(c.base.p)) continue;
    const int chosen = pick(c);
    const int best = fastest(c);
    row.decisions.push_back(
        {c.base.p, c.base.bytes, chosen, best, c.measured.at(chosen), c.measured.at(best), c.measured.at(0)});
  }
  score(row);
  return row;
}

}  // namespace

SelectionRow select_nearest(const std::vector<Case> &cases, const Protocol &protocol, Op op, int mapping) {
  return select_by(cases, protocol, op, mapping, "nearest", [&](const Case &c) {
    const Case *at = find_case(cases, op, mapping, nearest_size(protocol.check_sizes, c.base.p), c.base.bytes);
    const int alg = at ? fastest(*at) : 0;
    return c.measured.count(alg) ? alg : 0;
  });
}

SelectionRow select_oracle(const std::vector<Case> &cases, const Protocol &protocol, Op op, int mapping) {
  return select_by(cases, protocol, op, mapping, "oracle", fastest);
}

double calibration_seconds(const Measured &measured_max, const Protocol &protocol, int mapping, int rounds) {
  double us = 0;
  for (int p : protocol.check_sizes)
    for (Op op : {Op::bcast, Op::reduce}) {
      const auto at = [&](int alg, double bytes) {
        const auto it = measured_max.find(Key{static_cast<int>(op), alg, mapping, p, bytes});
        return it == measured_max.end() ? NAN : it->second;
      };
      const auto barrier = measured_max.find(Key{static_cast<int>(Op::bcast), 0, mapping, p, 1});
      const double barrier_us = barrier == measured_max.end() ? 0 : 2 * barrier->second;
      for (double band = 1; band <= (1 << 20); band *= 4)
        for (double bytes : {band, 2 * band}) {
          if (op == Op::reduce && bytes < 4) continue;
          for (int alg : measured_algorithms(op)) {
            const double t = at(alg, bytes);
            if (std::isnan(t)) continue;
            us += (alg == 0 ? 2 : 1) * (t + barrier_us) * (rounds + 1);
          }
        }
    }
  return us / 1e6;
}

}  // namespace modeltuned::tools::validate
