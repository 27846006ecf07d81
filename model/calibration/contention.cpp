#include "model/calibration/contention.hpp"

#include <string>

namespace modeltuned {

int derive_concurrent_from_fanout(CalibrationTable &table, double min_bytes) {
  int derived = 0;
  nlohmann::json record = nlohmann::json::array();
  for (int c = 0; c < kChannels; ++c) {
    ChannelTable &channel = table.channels[c];
    if (c == static_cast<int>(Channel::node) || !channel.present || !channel.concurrent.empty()) continue;
    for (const FlatTreeFit &fanout : channel.fanout) {
      if (fanout.bytes < min_bytes || fanout.max_p < 3) continue;
      FlatTreeFit f;
      f.bytes = fanout.bytes;
      // T(P) = alpha + beta * P/2 = (alpha + beta/2) + (beta/2) * (P - 1)
      f.alpha_us = fanout.alpha_us + fanout.beta_us / 2;
      f.beta_us = fanout.beta_us / 2;
      f.max_p = 2 * (fanout.max_p - 1);
      for (auto [p, us] : fanout.knots) f.knots.emplace_back(2 * (p - 1), us);
      channel.concurrent.push_back(f);
    }
    if (!channel.concurrent.empty()) {
      ++derived;
      record.push_back(std::string(kChannelNames[c]));
    }
  }
  if (derived) {
    table.provenance["contention"] = {
        {"concurrent",
         "derived from the fan-out fits at and above " + std::to_string(static_cast<long long>(min_bytes)) +
             " bytes (model/calibration/contention.hpp): k concurrent transfers = a fan-out to k receivers"},
        {"channels", record}};
    update_checksum(table);
  }
  return derived;
}

}  // namespace modeltuned
