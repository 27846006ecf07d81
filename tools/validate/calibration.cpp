// Fitting validate's calibration tables, the relay cost from the chain bcasts included
// (see calibration.hpp).
#include "tools/validate/calibration.hpp"

#include <algorithm>
#include <map>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/stats.hpp"
#include "model/calibration/contention.hpp"
#include "model/cost/channel_cost.hpp"
#include "model/registry/registry.hpp"
#include "tools/validate/models.hpp"

namespace modeltuned::tools::validate {
namespace {

// The chain bcast's per-forward cost, fitted where it is not scored: forced chains (fan-out 4)
// at 10 <= P <= kOutOfSampleFitMaxP and eager sizes (<= 4 KiB, where a turnaround is not lost in
// the transfer), against the `max` column (the slowest rank: completion, what the calibrator's
// ring measures). Per mapping, its neighbour channel (core: cache, socket: socket, node: node)
// gets one constant: the median over those points of (measured - predicted) / (the relays the
// model charges there), the count found by predicting with a relay of 1 us on that channel. The
// ORFEO files hold no relay measurement (p2p.csv and nbft.csv have no rank that forwards), so
// this is the only way to see what the term buys on them. What was fitted goes into the table's
// provenance (relay.channels), which validate prints.
void fit_relay_from_chains(CalibrationTable &table, const Measured &measured_max) {
  const int chain = find_algorithm(Op::bcast, "chain")->id;
  std::map<int, std::vector<double>> per_hop;  // channel -> (measured - predicted) / relays
  std::map<int, std::vector<std::string>> mappings;
  for (int m = 0; m < kMappingCount; ++m) {
    Measured points;
    for (const auto &[k, us] : measured_max)
      if (k.op == static_cast<int>(Op::bcast) && k.algorithm == chain && k.mapping == m && k.p >= 10 &&
          k.p <= kOutOfSampleFitMaxP && k.bytes <= kSharedMemoryEagerLimitBytes)
        points[k] = us;
    if (points.empty()) continue;
    const int c = static_cast<int>(shape_of(m, kOutOfSampleFitMaxP).first);
    CalibrationTable unit = table;
    unit.channels[c].relay = {{1, 1.0}};
    Predictions without, with;
    predict_p2p(table, points, {{"p", nullptr, Metric::completion}}, without);
    predict_p2p(unit, points, {{"p", nullptr, Metric::completion}}, with);
    for (const auto &[k, us] : points) {
      if (!without["p"].count(k) || !with["p"].count(k)) continue;
      const double relays = with["p"][k] - without["p"][k];
      if (relays > 0.5) per_hop[c].push_back((us - without["p"][k]) / relays);
    }
    mappings[c].push_back(kMappings[m]);
  }
  nlohmann::json report = nlohmann::json::object();
  for (const auto &[c, values] : per_hop) {
    const double us = std::max(0.0, median(values));
    table.channels[c].relay = {{1, us}};
    report[std::string(kChannelNames[c])] = {{"us", us}, {"points", values.size()}, {"mappings", mappings[c]}};
  }
  table.provenance["relay"] = {
      {"source", fmt::format("fitted on ORFEO's forced chain bcasts (max column) at 10 <= P <= {}, <= {} B; "
                             "scored on P >= {} only (modeltuned validate --relay-from-chains)",
                             kOutOfSampleFitMaxP, kSharedMemoryEagerLimitBytes, kOutOfSampleMinP)},
      {"channels", report}};
}

}  // namespace

CalibrationTable fit_validation_table(const calib::Samples &samples, const ValidateOptions &o,
                                      const std::string &source, const Measured &measured_max) {
  CalibrationTable table = calib::fit_table(samples, {o.reduce_us_per_byte,
                                                      "estimate (calib/local.mk ORFEO_REDUCE_SOURCE)",
                                                      {{"source", source}, {"data", o.data_dir}},
                                                      0,
                                                      ""});  // the data set has no fresh-memory measurement
  if (o.contention_from_bytes > 0) derive_concurrent_from_fanout(table, o.contention_from_bytes);
  if (o.relay_from_chains) fit_relay_from_chains(table, measured_max);
  return table;
}

}  // namespace modeltuned::tools::validate
