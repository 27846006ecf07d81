// Calibration table: canonical JSON writing and the checksum over it.
// Format and rules: docs/calibration-format.md.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "model/calibration/table.hpp"

namespace modeltuned {
namespace {

using json = nlohmann::json;

json bytes_value(double bytes) {
  if (bytes == std::floor(bytes) && bytes >= 0 && bytes < 9007199254740992.0) return static_cast<std::uint64_t>(bytes);
  return bytes;
}

json flat_to_json(const std::vector<FlatTreeFit> &fits) {
  json list = json::array();
  for (const auto &f : fits) {
    json fit = {{"bytes", bytes_value(f.bytes)}, {"alpha_us", f.alpha_us}, {"beta_us", f.beta_us}, {"max_p", f.max_p}};
    if (!f.knots.empty()) {
      json curve = json::array();
      for (auto [p, us] : f.knots) curve.push_back({p, us});
      fit["curve"] = curve;
    }
    list.push_back(fit);
  }
  return list;
}

json to_json(const CalibrationTable &table) {
  json channels = json::object();
  for (int c = 0; c < kChannels; ++c) {
    const ChannelTable &ch = table.channels[c];
    if (!ch.present) continue;
    json p2p = json::array();
    for (const auto &p : ch.p2p) {
      json piece = {{"alpha_us", p.alpha_us}, {"beta_us_per_byte", p.beta_us_per_byte}};
      if (std::isfinite(p.upto_bytes)) piece["upto_bytes"] = bytes_value(p.upto_bytes);
      if (p.noise_rel_mad != 0) piece["noise_rel_mad"] = p.noise_rel_mad;
      if (p.noise_rel_p95 != 0) piece["noise_rel_p95"] = p.noise_rel_p95;
      p2p.push_back(piece);
    }
    json channel = {{"p2p", p2p}, {"fanout", flat_to_json(ch.fanout)}};
    if (!ch.fanin.empty()) channel["fanin"] = flat_to_json(ch.fanin);
    if (!ch.concurrent.empty()) channel["concurrent"] = flat_to_json(ch.concurrent);
    if (!ch.exchange.empty()) channel["exchange"] = flat_to_json(ch.exchange);
    if (!ch.relay.empty()) {
      json relay = json::array();
      for (auto [bytes, us] : ch.relay) relay.push_back({{"bytes", bytes_value(bytes)}, {"us", us}});
      channel["relay"] = relay;
    }
    channels[std::string(kChannelNames[c])] = channel;
  }
  // The oldest version that holds what the table has, so a table without the newer fields is the
  // same file, with the same checksum, as before them.
  bool contention = !table.checks.empty(), ranks = false, relay = false, allreduce = false;
  const bool fresh_from = !table.fresh_memory_source.empty() && table.fresh_memory_from_bytes > 0;
  for (const ChannelTable &ch : table.channels) {
    contention |= !ch.concurrent.empty() || !ch.exchange.empty();
    relay |= !ch.relay.empty();
  }
  for (const CheckResidual &r : table.checks) {
    ranks |= r.has_ranks();
    allreduce |= r.op == "allreduce";
  }
  json doc = {{"format", kCalibrationFormatName},
              {"version", fresh_from   ? 6
                          : allreduce  ? 5
                          : relay      ? 4
                          : ranks      ? 3
                          : contention ? 2
                                       : kOldestCalibrationVersion},
              {"provenance", table.provenance},
              {"channels", channels},
              {"reduce", {{"us_per_byte", table.reduce_us_per_byte}, {"source", table.reduce_source}}}};
  if (!table.fresh_memory_source.empty())
    doc["memory"] = {{"fresh_us_per_byte", table.fresh_memory_us_per_byte}, {"source", table.fresh_memory_source}};
  if (!table.fresh_memory_source.empty() && table.fresh_memory_one_buffer_us_per_byte >= 0)
    doc["memory"]["one_buffer_us_per_byte"] = table.fresh_memory_one_buffer_us_per_byte;
  if (fresh_from) doc["memory"]["from_bytes"] = bytes_value(table.fresh_memory_from_bytes);
  if (!table.checks.empty()) {
    json residuals = json::array();
    for (const CheckResidual &r : table.checks) {
      json entry = {{"op", r.op},
                    {"algorithm", r.algorithm},
                    {"segsize", r.segsize},
                    {"fanout", r.fanout},
                    {"objective", r.objective},
                    {"neighbors", r.neighbors},
                    {"widest", r.widest},
                    {"from_bytes", bytes_value(r.from_bytes)},
                    {"below_bytes", bytes_value(r.below_bytes)},
                    {"log_lo", r.log_lo},
                    {"log_hi", r.log_hi},
                    {"samples", r.samples}};
      if (r.has_ranks()) {
        entry["from_ranks"] = r.from_ranks;
        entry["below_ranks"] = r.below_ranks;
      }
      residuals.push_back(std::move(entry));
    }
    doc["checks"] = {{"source", table.checks_source}, {"residuals", residuals}};
  }
  return doc;
}

uint64_t fnv1a64(std::string_view bytes) {
  uint64_t hash = 14695981039346656037ull;
  for (unsigned char b : bytes) {
    hash ^= b;
    hash *= 1099511628211ull;
  }
  return hash;
}

}  // namespace

std::string to_json_text(const CalibrationTable &table) {
  // nlohmann objects keep keys sorted and print doubles in shortest round-trip form, so this
  // text depends only on the values.
  return to_json(table).dump(2) + "\n";
}

void save_calibration(const CalibrationTable &table, const std::string &path) {
  const std::string text = to_json_text(table);
  std::FILE *file = std::fopen(path.c_str(), "wb");
  if (!file) throw CalibrationError("cannot write " + path + ": " + std::strerror(errno));
  const bool ok = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  const int write_errno = errno;
  if (std::fclose(file) != 0 || !ok)
    throw CalibrationError("cannot write " + path + ": " + std::strerror(ok ? errno : write_errno));
}

void update_checksum(CalibrationTable &table) { table.checksum = fnv1a64(to_json_text(table)); }

}  // namespace modeltuned
