#include "calib/merge.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace modeltuned::calib {

using json = nlohmann::json;

std::string mpi_version_of(const std::string &library) {
  const size_t at = library.find("Open MPI v");
  if (at == std::string::npos) return {};
  const size_t end = library.find_first_of(", ", at + 10);
  return library.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

namespace {

std::string string_at(const json &provenance, const json::json_pointer &where) {
  return provenance.contains(where) && provenance[where].is_string() ? provenance[where].get<std::string>() : "";
}

// The largest group a channel was measured with: its fan-out curve's last P.
int largest_group(const ChannelTable &ch) {
  int p = 0;
  for (const FlatTreeFit &f : ch.fanout) p = std::max(p, f.max_p);
  return p;
}

// Both inputs must describe the same machine and library where both say what they are.
void require_same(const MergeInput &first, const MergeInput &other, const json::json_pointer &where,
                  const std::string &what, std::string (*normalise)(const std::string &)) {
  const std::string a = normalise(string_at(first.table.provenance, where)),
                    b = normalise(string_at(other.table.provenance, where));
  if (!a.empty() && !b.empty() && a != b)
    throw FitError("--merge: " + first.name + " and " + other.name + " come from different " + what + " ('" + a +
                   "' and '" + b + "'); merge only tables measured on the same kind of node with the same Open MPI");
}

std::string as_is(const std::string &s) { return s; }

// Per channel, the input that measured it with the largest group (ties: the earlier one): into
// `merged`, with where each came from and its fit, placement and sample counts from that input's
// provenance.
struct ChannelOrigins {
  json from = json::object(), fit = json::object(), placement = json::object(), samples = json::object();
};
ChannelOrigins take_channels(const std::vector<MergeInput> &inputs, CalibrationTable &merged) {
  ChannelOrigins o;
  for (int c = 0; c < kChannels; ++c) {
    const MergeInput *best = nullptr;
    for (const MergeInput &in : inputs)
      if (in.table.channels[c].present &&
          (!best || largest_group(in.table.channels[c]) > largest_group(best->table.channels[c])))
        best = &in;
    if (!best) continue;
    const std::string name(kChannelNames[c]);
    merged.channels[c] = best->table.channels[c];
    o.from[name] = best->name;
    const json &p = best->table.provenance;
    if (p.contains("fit") && p["fit"].contains(name)) o.fit[name] = p["fit"][name];
    if (p.contains("/placement/channels"_json_pointer) && p["placement"]["channels"].contains(name))
      o.placement[name] = p["placement"]["channels"][name];
    if (p.contains("samples"))
      for (const auto &[kind, per_channel] : p["samples"].items())
        if (per_channel.is_object() && per_channel.contains(name)) o.samples[kind][name] = per_channel[name];
  }
  if (o.from.empty()) throw FitError("--merge: none of the tables holds a channel");
  return o;
}

// Scalar costs: the first input that measured them (a calibrator run always measures the local
// reduction; OSU-based tables carry an estimate, which a measurement replaces). Returns the inputs
// the reduction and the fresh-memory costs came from.
std::pair<const MergeInput *, const MergeInput *> take_local_costs(const std::vector<MergeInput> &inputs,
                                                                   CalibrationTable &merged) {
  const MergeInput *reduce = &inputs[0];
  for (const MergeInput &in : inputs)
    if (in.table.reduce_source.rfind("measured", 0) == 0 || in.table.provenance.contains("reduce_local")) {
      reduce = &in;
      break;
    }
  merged.reduce_us_per_byte = reduce->table.reduce_us_per_byte;
  merged.reduce_source = reduce->table.reduce_source;
  const MergeInput *memory = &inputs[0];
  for (const MergeInput &in : inputs)
    if (!in.table.fresh_memory_source.empty()) {
      memory = &in;
      break;
    }
  merged.fresh_memory_us_per_byte = memory->table.fresh_memory_us_per_byte;
  merged.fresh_memory_source = memory->table.fresh_memory_source;
  merged.fresh_memory_one_buffer_us_per_byte = memory->table.fresh_memory_one_buffer_us_per_byte;
  merged.fresh_memory_from_bytes = memory->table.fresh_memory_from_bytes;
  if (reduce->table.provenance.contains("reduce_local"))
    merged.provenance["reduce_local"] = reduce->table.provenance["reduce_local"];
  return {reduce, memory};
}

// Checks: an input's hold where the merged table predicts what that input predicted, i.e. every
// channel it has came from it unchanged (and, for reduce and allreduce, the same local costs); ranges of one key
// from several inputs are joined. Returns how many of each input's were kept.
json take_checks(const std::vector<MergeInput> &inputs, CalibrationTable &merged) {
  std::map<std::tuple<std::string, std::string, uint32_t, int, std::string, std::string, std::string, double, int, int,
                      bool>,
           CheckResidual>
      checks;
  json checks_from = json::object();
  std::string checks_source;
  for (const MergeInput &in : inputs) {
    if (in.table.checks.empty()) continue;
    bool channels_same = true;
    for (int c = 0; c < kChannels; ++c)
      channels_same = channels_same && (!in.table.channels[c].present || in.table.channels[c] == merged.channels[c]);
    const bool reduce_same = in.table.reduce_us_per_byte == merged.reduce_us_per_byte &&
                             in.table.fresh_memory_us_per_byte == merged.fresh_memory_us_per_byte &&
                             in.table.fresh_one_buffer_us_per_byte() == merged.fresh_one_buffer_us_per_byte() &&
                             in.table.fresh_memory_from_bytes == merged.fresh_memory_from_bytes;
    int kept = 0;
    for (const CheckResidual &r : in.table.checks) {
      if (!channels_same || (r.op != "bcast" && !reduce_same)) continue;  // reductions cost the local costs
      ++kept;
      auto [it, added] =
          checks.try_emplace(std::tuple(r.op, r.algorithm, r.segsize, r.fanout, r.objective, r.neighbors, r.widest,
                                        r.from_bytes, r.from_ranks, r.below_ranks, r.relative_to_default),
                             r);
      if (!added) {
        it->second.log_lo = std::min(it->second.log_lo, r.log_lo);
        it->second.log_hi = std::max(it->second.log_hi, r.log_hi);
        it->second.samples += r.samples;
      }
    }
    checks_from[in.name] = {{"kept", kept}, {"dropped", static_cast<int>(in.table.checks.size()) - kept}};
    if (kept) checks_source += (checks_source.empty() ? "" : "; ") + in.name + ": " + in.table.checks_source;
  }
  for (auto &[key, r] : checks) merged.checks.push_back(r);
  merged.checks_source = checks_source;
  return checks_from;
}

}  // namespace

CalibrationTable merge_tables(const std::vector<MergeInput> &inputs) {
  if (inputs.size() < 2) throw FitError("--merge needs at least two tables");
  for (size_t i = 1; i < inputs.size(); ++i) {
    require_same(inputs[0], inputs[i], json::json_pointer("/hwloc/signature"), "node topologies", as_is);
    require_same(inputs[0], inputs[i], json::json_pointer("/mpi_library"), "Open MPI versions", mpi_version_of);
  }

  CalibrationTable merged;
  // The first input's description of the machine, then what came from where.
  merged.provenance = inputs[0].table.provenance;
  for (const char *per_run : {"fit", "placement", "samples", "inputs", "refit_of", "merged_from"})
    merged.provenance.erase(per_run);
  json sources = json::array();
  for (const MergeInput &in : inputs) {
    json source = {{"file", in.name}, {"checksum", in.table.checksum}};
    if (in.table.provenance.contains("source")) source["source"] = in.table.provenance["source"];
    if (in.table.provenance.contains("date")) source["date"] = in.table.provenance["date"];
    sources.push_back(source);
  }
  const ChannelOrigins origins = take_channels(inputs, merged);
  const auto [reduce, memory] = take_local_costs(inputs, merged);
  const json checks_from = take_checks(inputs, merged);
  merged.provenance["merged_from"] = {{"tables", sources},
                                      {"channels", origins.from},
                                      {"reduce", reduce->name},
                                      {"fresh_memory", memory->name},
                                      {"checks", checks_from},
                                      {"rule",
                                       "each channel from the table that measured it with the largest group "
                                       "(ties: the earlier table)"}};
  merged.provenance["fit"] = origins.fit;
  if (!origins.placement.empty()) merged.provenance["placement"] = {{"channels", origins.placement}};
  if (!origins.samples.empty()) merged.provenance["samples"] = origins.samples;
  update_checksum(merged);
  // What is written must load: the same validation as any table.
  try {
    return parse_calibration(to_json_text(merged), "merged table");
  } catch (const CalibrationError &e) {
    throw FitError(std::string("--merge: the merged table is not valid: ") + e.what());
  }
}

}  // namespace modeltuned::calib
