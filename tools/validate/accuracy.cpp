// Scoring the models' predictions against the measurements (see accuracy.hpp).
#include "tools/validate/accuracy.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "common/stats.hpp"
#include "tools/validate/metrics.hpp"

namespace modeltuned::tools::validate {
namespace {

struct Fit {
  std::vector<double> measured, predicted;
};

// A spike's neighbours: up to kSpikeReach P values on each side. Three on each side: two spikes
// side by side at the end of a series (map-by socket, bcast chain, P = 250 and 254) still leave a
// majority of ordinary neighbours.
constexpr size_t kSpikeReach = 3;

std::set<Key> measured_spikes(const Measured &measured) {
  std::map<std::tuple<int, int, int, double>, std::vector<std::pair<int, double>>> series;
  for (const auto &[k, us] : measured) series[{k.op, k.algorithm, k.mapping, k.bytes}].push_back({k.p, us});
  std::set<Key> spikes;
  for (auto &[s, points] : series) {
    std::sort(points.begin(), points.end());
    for (size_t i = 0; i < points.size(); ++i) {
      std::vector<double> around;
      for (size_t j = i >= kSpikeReach ? i - kSpikeReach : 0; j < std::min(points.size(), i + kSpikeReach + 1); ++j)
        if (j != i) around.push_back(points[j].second);
      if (around.size() >= 2 && points[i].second > kSpikeFactor * median(around))
        spikes.insert(Key{std::get<0>(s), std::get<1>(s), std::get<2>(s), points[i].first, std::get<3>(s)});
    }
  }
  return spikes;
}

}  // namespace

std::vector<AccuracyRow> accuracy(const Measured &measured, const Predictions &predictions,
                                  const std::vector<std::string> &model_order) {
  const std::set<Key> spikes = measured_spikes(measured);
  std::vector<AccuracyRow> rows;
  for (const auto &name : model_order) {
    const auto pit = predictions.find(name);
    if (pit == predictions.end()) continue;
    for (Op op : {Op::bcast, Op::reduce})
      for (int alg : measured_algorithms(op))
        for (int m = 0; m < kMappingCount; ++m) {
          Fit all, one_byte, one_byte_clean;
          for (const auto &[k, us] : measured) {
            if (k.op != static_cast<int>(op) || k.algorithm != alg || k.mapping != m) continue;
            auto it = pit->second.find(k);
            if (it == pit->second.end()) continue;
            all.measured.push_back(us);
            all.predicted.push_back(it->second);
            if (k.bytes == 1) {
              one_byte.measured.push_back(us);
              one_byte.predicted.push_back(it->second);
              if (!spikes.count(k)) {
                one_byte_clean.measured.push_back(us);
                one_byte_clean.predicted.push_back(it->second);
              }
            }
          }
          if (all.measured.empty()) continue;
          rows.push_back({name, op, alg, m, r_squared(one_byte.measured, one_byte.predicted),
                          r_squared_log(all.measured, all.predicted), mdape(all.measured, all.predicted),
                          all.measured.size(), r_squared(one_byte_clean.measured, one_byte_clean.predicted)});
        }
  }
  return rows;
}

}  // namespace modeltuned::tools::validate
