// Calibration table: canonical JSON writing and the checksum over it.
// Format and rules: docs/calibration-format.md.
#include <algorithm>
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

// The channels a table has, each with its curves.
json channels_to_json(const CalibrationTable &table) {
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
  return channels;
}

// "memory.from_bytes" is written (version 6).
bool has_fresh_from(const CalibrationTable &table) {
  return !table.fresh_memory_source.empty() && table.fresh_memory_from_bytes > 0;
}

// The oldest version that holds what the table has, so a table without the newer fields is the
// same file, with the same checksum, as before them.
int oldest_version(const CalibrationTable &table) {
  int version = kOldestCalibrationVersion;
  auto needs = [&version](bool has, int since) {
    if (has) version = std::max(version, since);
  };
  needs(!table.checks.empty(), 2);
  needs(has_fresh_from(table), 6);
  needs(!table.unusable.empty(), 10);
  for (const ChannelTable &ch : table.channels) {
    needs(!ch.concurrent.empty() || !ch.exchange.empty(), 2);
    needs(!ch.relay.empty(), 4);
  }
  for (const CheckResidual &r : table.checks) {
    needs(r.has_ranks(), 3);
    needs(true, checks_version(r.op));
    needs(r.relative_to_default, 11);
  }
  return version;
}

// The table's checks: their source and residuals.
json checks_to_json(const CalibrationTable &table) {
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
    if (r.relative_to_default) entry["relative_to"] = "default";
    residuals.push_back(std::move(entry));
  }
  json out = {{"source", table.checks_source}, {"residuals", residuals}};
  if (!table.unusable.empty()) {
    json &unusable = out["unusable"] = json::array();
    for (const UnusableCandidate &u : table.unusable)
      unusable.push_back({{"op", u.op},
                          {"algorithm", u.algorithm},
                          {"from_bytes", bytes_value(u.from_bytes)},
                          {"why", u.why},
                          {"ranks", u.ranks}});
  }
  return out;
}

json to_json(const CalibrationTable &table) {
  json doc = {{"format", kCalibrationFormatName},
              {"version", oldest_version(table)},
              {"provenance", table.provenance},
              {"channels", channels_to_json(table)},
              {"reduce", {{"us_per_byte", table.reduce_us_per_byte}, {"source", table.reduce_source}}}};
  if (!table.fresh_memory_source.empty())
    doc["memory"] = {{"fresh_us_per_byte", table.fresh_memory_us_per_byte}, {"source", table.fresh_memory_source}};
  if (!table.fresh_memory_source.empty() && table.fresh_memory_one_buffer_us_per_byte >= 0)
    doc["memory"]["one_buffer_us_per_byte"] = table.fresh_memory_one_buffer_us_per_byte;
  if (has_fresh_from(table)) doc["memory"]["from_bytes"] = bytes_value(table.fresh_memory_from_bytes);
  if (!table.checks.empty() || !table.unusable.empty()) doc["checks"] = checks_to_json(table);
  return doc;
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

namespace {

// FNV-1a over the table's values, field by field, each container preceded by its length: what the
// canonical text holds, without writing it (the text took half of loading a table, and every
// rank loads it in MPI_Init).
class ContentHash {
 public:
  uint64_t value() const { return hash_; }
  void bytes(const void *data, size_t n) {
    const auto *b = static_cast<const unsigned char *>(data);
    for (size_t i = 0; i < n; ++i) hash_ = (hash_ ^ b[i]) * 1099511628211ull;
  }
  void number(double v) { bytes(&v, sizeof v); }
  void number(int64_t v) { bytes(&v, sizeof v); }
  void text(std::string_view s) {
    number(static_cast<int64_t>(s.size()));
    bytes(s.data(), s.size());
  }
  void curve(const std::vector<FlatTreeFit> &fits) {
    number(static_cast<int64_t>(fits.size()));
    for (const FlatTreeFit &f : fits) {
      for (double v : {f.bytes, f.alpha_us, f.beta_us}) number(v);
      number(static_cast<int64_t>(f.max_p));
      number(static_cast<int64_t>(f.knots.size()));
      for (const auto &[p, us] : f.knots) {
        number(static_cast<int64_t>(p));
        number(us);
      }
    }
  }
  void channel(const ChannelTable &c) {
    number(static_cast<int64_t>(c.present));
    number(static_cast<int64_t>(c.p2p.size()));
    for (const HockneyPiece &p : c.p2p)
      for (double v : {p.upto_bytes, p.alpha_us, p.beta_us_per_byte, p.noise_rel_mad, p.noise_rel_p95}) number(v);
    for (const auto *fits : {&c.fanout, &c.fanin, &c.concurrent, &c.exchange}) curve(*fits);
    number(static_cast<int64_t>(c.relay.size()));
    for (const auto &[bytes, us] : c.relay) {
      number(bytes);
      number(us);
    }
  }
  void check(const CheckResidual &r) {
    for (const std::string *s : {&r.op, &r.algorithm, &r.objective, &r.neighbors, &r.widest}) text(*s);
    for (int64_t v :
         {int64_t{r.segsize}, int64_t{r.fanout}, int64_t{r.samples}, int64_t{r.from_ranks}, int64_t{r.below_ranks}})
      number(v);
    for (double v : {r.from_bytes, r.below_bytes, r.log_lo, r.log_hi}) number(v);
    if (r.relative_to_default) text("relative_to default");  // none: the checksum of version 10
  }
  // A JSON value by its kind and content, as its text shows them: objects keep their keys sorted,
  // and an integer is one kind whether held signed (set in memory) or unsigned (parsed).
  void document(const nlohmann::json &j) {
    const bool integer = j.is_number_integer();
    number(static_cast<int64_t>(integer ? nlohmann::json::value_t::number_integer : j.type()));
    if (j.is_object() || j.is_array()) {
      number(static_cast<int64_t>(j.size()));
      for (auto it = j.begin(); it != j.end(); ++it) {
        if (j.is_object()) text(it.key());
        document(*it);
      }
    } else if (j.is_string()) {
      text(j.get_ref<const std::string &>());
    } else if (j.is_number_float()) {
      number(j.get<double>());
    } else if (integer) {
      number(j.is_number_unsigned() ? static_cast<int64_t>(j.get<uint64_t>()) : j.get<int64_t>());
    } else if (j.is_boolean()) {
      number(static_cast<int64_t>(j.get<bool>()));
    }
  }

 private:
  uint64_t hash_ = 14695981039346656037ull;
};

}  // namespace

void update_checksum(CalibrationTable &table) {
  ContentHash h;
  for (const ChannelTable &c : table.channels) h.channel(c);
  h.number(static_cast<int64_t>(table.checks.size()));
  for (const CheckResidual &r : table.checks) h.check(r);
  // Only where there are some: a table without them keeps the checksum it had before version 10.
  if (!table.unusable.empty()) h.number(static_cast<int64_t>(table.unusable.size()));
  for (const UnusableCandidate &u : table.unusable) {
    for (const std::string *s : {&u.op, &u.algorithm, &u.why}) h.text(*s);
    h.number(u.from_bytes);
    h.number(static_cast<int64_t>(u.ranks));
  }
  for (const std::string *s : {&table.checks_source, &table.reduce_source, &table.fresh_memory_source}) h.text(*s);
  for (double v : {table.reduce_us_per_byte, table.fresh_memory_us_per_byte, table.fresh_memory_one_buffer_us_per_byte,
                   table.fresh_memory_from_bytes})
    h.number(v);
  h.document(table.provenance);
  table.checksum = h.value();
}

}  // namespace modeltuned
