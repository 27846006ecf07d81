#include "calib/calibrate/checks.hpp"
#include "calib/calibrate/check_comms.hpp"
#include "calib/calibrate/check_rounds.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <tuple>

#include <fmt/format.h>

#include "calib/calibrate/measurements.hpp"
#include "model/collectives/family.hpp"
#include "model/registry/registry.hpp"
#include "model/select/margin.hpp"
#include "model/select/ompi_fixed.hpp"
#include "model/select/selector.hpp"
#include "common/mpi_t.hpp"
#include "common/stats.hpp"

namespace modeltuned::calibrate {

namespace {

using mpi_t::cvar_read_int;
using mpi_t::cvar_read_string;
using mpi_t::cvar_write;

// Default, where the deadline allows. 100 rounds were tried on the 2-core VM (2026-12-08): coll/sm's
// bcast of 8 KiB still had the interval of its median paired ratio at 0.47-1.01 (40 rounds:
// 0.47-1.19) where its median time was 0.44x the default's; the paired ratios there split between
// two speeds, which more rounds do not narrow.
constexpr int kMaxRounds = 40;
constexpr Metric kMetricOf[kCheckMetrics] = {Metric::completion, Metric::rank_mean};
constexpr const char *kObjectiveName[kCheckMetrics] = {"completion", "rank_mean"};

std::string config_name(const Config &c) {
  if (c.algorithm == kHanDefault) return std::string(kHanDefaultCheck);
  if (c.algorithm == 0) return "default";
  const AlgorithmSpec *spec = find_algorithm(c.op, c.algorithm);
  return spec ? std::string(spec->name) : fmt::format("algorithm {}", c.algorithm);
}

// Whether a configuration can be measured forced through tuned as the model predicts it: not one
// that runs the communicator's own collectives (allreduce's nonoverlapping, allgather's linear):
// tuned's rule runs them there, the component's own decisions in the model.
// Another component's algorithm is measured where Open MPI loaded that component (its priority
// variable exists), on a communicator where it sits on top.
bool measurable_forced(const Candidate &c) {
  const AlgorithmSpec *spec = find_algorithm(c.op, c.algorithm);
  if (!spec || spec->composed != Composition::none) return false;
  return spec->component.empty() || cvar_read_int(fmt::format("coll_{}_priority", spec->component).c_str()).has_value();
}

// Per objective the best few overall, and the best of every other algorithm: where the model
// ranks the algorithms wrongly, the one that is really faster still gets measured.
std::vector<Candidate> best_predicted(const std::optional<Decision> (&d)[kCheckMetrics],
                                      const Candidate &runs_by_default) {
  std::vector<Candidate> chosen;
  for (int m = 0; m < kCheckMetrics; ++m) {
    int taken = 0;
    std::vector<int> algorithms_seen;
    for (const Prediction &p : d[m]->predictions) {
      if (p.candidate == runs_by_default || !measurable_forced(p.candidate)) continue;
      const bool new_algorithm =
          std::find(algorithms_seen.begin(), algorithms_seen.end(), p.candidate.algorithm) == algorithms_seen.end();
      if (taken >= kCheckedCandidates && !new_algorithm) continue;
      ++taken;
      if (new_algorithm) algorithms_seen.push_back(p.candidate.algorithm);
      if (std::find(chosen.begin(), chosen.end(), p.candidate) == chosen.end()) chosen.push_back(p.candidate);
    }
  }
  return chosen;
}

// Every algorithm the model predicts for the call, as tuned runs it forced (forced_candidate).
std::vector<Candidate> forced_defaults(const Decision &d, const Candidate &runs_by_default) {
  std::vector<Candidate> chosen;
  for (const Prediction &p : d.predictions) {
    if (p.candidate == runs_by_default || !measurable_forced(p.candidate) ||
        p.candidate != forced_candidate(p.candidate.op, p.candidate.algorithm))
      continue;
    if (std::find(chosen.begin(), chosen.end(), p.candidate) == chosen.end()) chosen.push_back(p.candidate);
  }
  return chosen;
}

// Rank 0: what to measure. Per op and size: the default, what it runs forced, and the `candidates`
// that are not what the default runs anyway.
void plan_checks(const CalibrationTable &table, const Placement &placement, OmpiVersion ompi,
                 CheckedCandidates candidates, uint64_t max_bytes, std::vector<Config> &configs,
                 std::vector<Entry> &entries) {
  Selector selector(table, placement, allowed_everywhere(), nullptr, ompi);
  std::map<std::tuple<int, int, uint32_t, int>, int> index;
  auto config_index = [&](const Config &c) {
    auto [it, added] = index.emplace(c.key(), static_cast<int>(configs.size()));
    if (added) configs.push_back(c);
    return it->second;
  };
  for (const CollectiveFamily *family : collective_families())
    for (uint64_t bytes : check_sizes(family->op, max_bytes)) {
      const Op op = family->op;
      // An allgather's or alltoall's size is one block: what a rank receives must fit in max_bytes.
      if ((op == Op::allgather || op == Op::alltoall) && bytes * static_cast<uint64_t>(placement.size()) > max_bytes)
        continue;
      CallShape call;
      call.op = op;
      call.type_size = checked_element_bytes(op);  // MPI_BYTE; MPI_INT with MPI_SUM
      call.count = bytes / call.type_size;
      std::optional<Decision> d[kCheckMetrics];
      for (int m = 0; m < kCheckMetrics; ++m) {
        call.metric = kMetricOf[m];
        d[m] = selector.decide(call);
      }
      if (!d[0] || !d[1] || !d[0]->ompi_default || !d[1]->ompi_default) continue;
      auto predicted = [&](const Candidate &c, int m) -> double {
        for (const Prediction &p : d[m]->predictions)
          if (p.candidate == c) return p.us;
        return 0;
      };
      const Candidate runs_by_default = d[0]->ompi_default->candidate;
      Entry def{config_index(Config{op, 0, 0, 0}), bytes, {d[0]->ompi_default->us, d[1]->ompi_default->us}};
      entries.push_back(def);
      // What the default runs, forced as well: the same code measured twice. How far the two
      // measurements differ is the measurement's own noise, which the default's range takes in
      // (default_range_in, model/select/margin.hpp).
      if (measurable_forced(runs_by_default))
        entries.push_back(
            Entry{config_index(Config{op, runs_by_default.algorithm, runs_by_default.segsize, runs_by_default.fanout}),
                  bytes,
                  {def.predicted_us[0], def.predicted_us[1]}});
      const std::vector<Candidate> chosen = candidates == CheckedCandidates::model
                                                ? best_predicted(d, runs_by_default)
                                                : forced_defaults(*d[0], runs_by_default);
      for (const Candidate &c : chosen) {
        Entry e{config_index(Config{op, c.algorithm, c.segsize, c.fanout}), bytes, {predicted(c, 0), predicted(c, 1)}};
        if (e.predicted_us[0] > 0 && e.predicted_us[1] > 0) entries.push_back(e);
      }
    }
}

// Broadcasts rank 0's plan (configurations and entries, without predictions) over `group`.
void share_plan(std::vector<Config> &configs, std::vector<Entry> &entries, MPI_Comm group) {
  int counts[2] = {static_cast<int>(configs.size()), static_cast<int>(entries.size())};
  MPI_Bcast(counts, 2, MPI_INT, 0, group);
  std::vector<int64_t> flat(4 * counts[0] + 2 * counts[1]);
  if (!configs.empty() || !entries.empty()) {
    size_t k = 0;
    for (const Config &c : configs)
      for (int64_t v : {int64_t(op_index(c.op)), int64_t(c.algorithm), int64_t(c.segsize), int64_t(c.fanout)})
        flat[k++] = v;
    for (const Entry &e : entries)
      for (int64_t v : {int64_t(e.config), int64_t(e.bytes)}) flat[k++] = v;
  }
  MPI_Bcast(flat.data(), static_cast<int>(flat.size()), MPI_INT64_T, 0, group);
  if (configs.empty() && entries.empty()) {
    size_t k = 0;
    for (int i = 0; i < counts[0]; ++i, k += 4)
      configs.push_back({static_cast<Op>(flat[k]), int(flat[k + 1]), uint32_t(flat[k + 2]), int(flat[k + 3])});
    for (int i = 0; i < counts[1]; ++i, k += 2) entries.push_back({int(flat[k]), uint64_t(flat[k + 1]), {0, 0}});
  }
}

struct Band {
  double from, below;
};
Band band_of(uint64_t bytes) {
  if (bytes == 0) return {0, 1};  // a barrier's one call
  double from = 1;
  while (from * 4 <= double(bytes)) from *= 4;
  return {from, from * 4};
}

// The checks' configurations, in the progress line and the table's checks source.
std::string what_is_checked(CheckedCandidates candidates) {
  if (candidates == CheckedCandidates::algorithms)
    return "Open MPI's default and every algorithm with tuned's forced parameters (no model ranking)";
  return fmt::format("Open MPI's default, the model's {} best candidates and the best of every algorithm",
                     kCheckedCandidates);
}

}  // namespace

std::vector<uint64_t> check_sizes(Op op, uint64_t max_bytes) {
  if (!collective_family(op).moves_data) return {0};
  std::vector<uint64_t> out;
  for (uint64_t band = 1; band <= max_bytes; band *= 4)
    for (uint64_t bytes : {band, 2 * band})
      if (bytes <= max_bytes && (!reduces(op) || bytes % 4 == 0)) out.push_back(bytes);
  return out;
}

namespace {

// Per op, configuration, objective, size band, communicator shape and group size: the smallest and
// largest ln(measured / predicted) over the sizes that measured it.
struct Range {
  double lo = INFINITY, hi = -INFINITY;
  int samples = 0;
};
// ..., group ranks, and whether the range is paired with the default (relative_to_default): then
// `from` is the one size measured, its range [from, 2 from).
using RangeKey = std::tuple<int, int, uint32_t, int, int, double, std::string, std::string, int, bool>;

struct GroupRun {
  bool han_default = false;  // Open MPI's default on the group is han's hierarchical algorithm
  OmpiVersion ompi = OmpiVersion::v4_1;
  int ranks = 0, rounds = 0, configurations = 0;
  double seconds = 0;
  std::string neighbors, widest, problem, barrier_before;
};

// Per call, on rank 0 (microseconds): completion, first start to last end when every rank reads
// one clock (one node), else the slowest rank's own time; and the rank mean, each rank's own time
// averaged over the group.
struct CallObjectives {
  std::vector<double> completion_us, rank_mean_us;
};
CallObjectives reduce_times(const CallTimes &t, const Placement &placement, MPI_Comm control, int size) {
  bool one_node = true;
  for (const RankPlace &r : placement.ranks()) one_node = one_node && r.node == placement.ranks().front().node;
  const size_t total = t.start.size();
  std::vector<double> own(total), first(total), last(total), slowest(total), own_sum(total);
  for (size_t i = 0; i < total; ++i) own[i] = t.end[i] - t.start[i];
  MPI_Reduce(t.start.data(), first.data(), int(total), MPI_DOUBLE, MPI_MIN, 0, control);
  MPI_Reduce(t.end.data(), last.data(), int(total), MPI_DOUBLE, MPI_MAX, 0, control);
  MPI_Reduce(own.data(), slowest.data(), int(total), MPI_DOUBLE, MPI_MAX, 0, control);
  MPI_Reduce(own.data(), own_sum.data(), int(total), MPI_DOUBLE, MPI_SUM, 0, control);
  CallObjectives o;
  for (size_t i = 0; i < total; ++i) {
    o.completion_us.push_back(1e6 * (one_node ? last[i] - first[i] : slowest[i]));
    o.rank_mean_us.push_back(1e6 * own_sum[i] / size);
  }
  return o;
}

// Per round and entry (entry k of round r at r * n + k), the mean of its timed calls.
CallObjectives entry_means(const CallObjectives &calls, const RoundLayout &layout, int rounds) {
  const size_t n = layout.offset.size();
  CallObjectives o;
  for (int r = 0; r < rounds; ++r)
    for (size_t k = 0; k < n; ++k) {
      double completion = 0, rank_mean = 0;
      for (size_t j = 0; j < layout.repeats[k]; ++j) {
        const size_t i = r * layout.calls + layout.offset[k] + j;
        completion += calls.completion_us[i];
        rank_mean += calls.rank_mean_us[i];
      }
      o.completion_us.push_back(completion / layout.repeats[k]);
      o.rank_mean_us.push_back(rank_mean / layout.repeats[k]);
    }
  return o;
}

// Entry k's paired range per objective: the 95 % interval of the median over rounds of ln(its time /
// the time of the default's entry `d` in the same round), at its one size [bytes, 2 bytes).
void record_paired(const Config &c, const Entry &e, size_t k, size_t d, size_t n, const CallObjectives &o, int rounds,
                   const GroupRun &run, std::map<RangeKey, Range> &ranges) {
  for (int m = 0; m < kCheckMetrics; ++m) {
    const std::vector<double> &times = m == 0 ? o.completion_us : o.rank_mean_us;
    std::vector<double> ratios;
    for (int r = 0; r < rounds; ++r)
      if (times[r * n + k] > 0 && times[r * n + d] > 0) ratios.push_back(std::log(times[r * n + k] / times[r * n + d]));
    if (ratios.empty()) continue;
    const MedianCi ci = median_ci(ratios);
    Range &range = ranges[{int(c.op), c.algorithm, c.segsize, c.fanout, m, double(e.bytes), run.neighbors, run.widest,
                           run.ranks, true}];
    range.lo = std::clamp(ci.low.value_or(*std::min_element(ratios.begin(), ratios.end())), -10.0, 10.0);
    range.hi = std::clamp(ci.high.value_or(*std::max_element(ratios.begin(), ratios.end())), -10.0, 10.0);
    range.samples = static_cast<int>(ratios.size());
  }
}

// The 95 % interval of the median (min..max below 6 rounds) over the prediction, per entry and
// objective, into the ranges of its (configuration, objective, size band, shape, ranks), or, for
// another component's measured-only algorithm, its paired range (record_paired); and every median,
// interval and prediction into `measured`.
void record_ranges(const std::vector<Config> &configs, const std::vector<Entry> &entries, const CallObjectives &o,
                   int rounds, const GroupRun &run, std::map<RangeKey, Range> &ranges, nlohmann::json &measured) {
  const size_t n = entries.size();
  std::map<std::pair<int, uint64_t>, size_t> default_at;  // (op, bytes) -> the default's entry
  for (size_t k = 0; k < n; ++k)
    if (configs[entries[k].config].algorithm == 0)
      default_at[{int(configs[entries[k].config].op), entries[k].bytes}] = k;
  for (size_t k = 0; k < n; ++k) {
    const Entry &e = entries[k];
    Config c = configs[e.config];
    if (c.algorithm == 0 && run.han_default && han_has(collective_family(c.op), run.ompi)) c.algorithm = kHanDefault;
    std::vector<double> us[kCheckMetrics];
    for (int r = 0; r < rounds; ++r) {
      us[0].push_back(o.completion_us[r * n + k]);
      us[1].push_back(o.rank_mean_us[r * n + k]);
    }
    nlohmann::json row = {{"ranks", run.ranks},          {"op", op_name(c.op)},  {"bytes", e.bytes},
                          {"algorithm", config_name(c)}, {"segsize", c.segsize}, {"fanout", c.fanout}};
    const AlgorithmSpec *spec = find_algorithm(c.op, c.algorithm);
    const auto paired = default_at.find({int(c.op), e.bytes});
    const bool relative = spec && measured_only(*spec) && paired != default_at.end();
    if (relative) record_paired(c, e, k, paired->second, n, o, rounds, run, ranges);
    for (int m = 0; m < kCheckMetrics; ++m) {
      const MedianCi ci = median_ci(us[m]);
      const double low = ci.low.value_or(*std::min_element(us[m].begin(), us[m].end()));
      const double high = ci.high.value_or(*std::max_element(us[m].begin(), us[m].end()));
      row[kObjectiveName[m]] = {
          {"predicted_us", e.predicted_us[m]}, {"median_us", ci.median}, {"low_us", low}, {"high_us", high}};
      // A measured-only algorithm's prediction is the default's: only its paired range says anything.
      if (relative || !(e.predicted_us[m] > 0) || !(low > 0)) continue;
      Range &range = ranges[{int(c.op), c.algorithm, c.segsize, c.fanout, m, band_of(e.bytes).from, run.neighbors,
                             run.widest, run.ranks, false}];
      range.lo = std::min(range.lo, std::clamp(std::log(low / e.predicted_us[m]), -10.0, 10.0));
      range.hi = std::max(range.hi, std::clamp(std::log(high / e.predicted_us[m]), -10.0, 10.0));
      range.samples += rounds;
    }
    measured.push_back(std::move(row));
  }
}

// Measures on `group` (the first ranks of MPI_COMM_WORLD; `placement` is theirs): the plan of its
// rank 0, rounds until `deadline`; rank 0 adds the ranges and the measured rows.
GroupRun measure_group(MPI_Comm group, const CalibrationTable *table, const Placement &placement, OmpiVersion ompi,
                       CheckedCandidates candidates, uint64_t max_bytes, int max_rounds, double deadline, uint64_t seed,
                       Progress &progress, Trials *trials, std::map<RangeKey, Range> &ranges,
                       nlohmann::json &measured) {
  GroupRun result;
  int rank = 0, size = 1;
  MPI_Comm_rank(group, &rank);
  MPI_Comm_size(group, &size);
  result.ranks = size;
  result.neighbors = channel_name(placement.neighbor_channel());
  result.widest = channel_name(placement.widest_channel());
  result.han_default = !fallback_runs_tuned_rule(ompi, placement, han_in_job());
  result.ompi = ompi;

  std::vector<Config> configs;
  std::vector<Entry> entries;
  if (rank == 0 && table) plan_checks(*table, placement, ompi, candidates, max_bytes, configs, entries);
  share_plan(configs, entries, group);
  if (entries.empty()) {
    result.problem = fmt::format("the fitted table predicts no configuration for {} ranks", size);
    return result;
  }
  CheckComms comms;
  result.problem = create_check_comms(configs, group, result.han_default, comms);
  if (!result.problem.empty()) return result;

  progress.phase(fmt::format("checks {} ranks", size), deadline,
                 fmt::format("{} per size, {} configurations at {} op x size points, forced through tuned",
                             what_is_checked(candidates), configs.size(), entries.size()));
  const CallTimes times = run_rounds(configs, entries, comms, max_bytes, max_rounds, deadline, seed, progress, trials);
  const CallObjectives objectives =
      entry_means(reduce_times(times, placement, comms.control, size), RoundLayout(entries), times.rounds);
  progress.end_phase();
  result.rounds = times.rounds;
  result.barrier_before = times.barrier_before;
  if (rank != 0) return result;
  record_ranges(configs, entries, objectives, times.rounds, result, ranges, measured);
  result.configurations = static_cast<int>(configs.size());
  result.seconds = MPI_Wtime() - times.began;
  return result;
}

}  // namespace

ChecksResult measure_checks(const CalibrationTable *table, const Placement &placement, OmpiVersion ompi,
                            CheckedCandidates candidates, uint64_t max_bytes, int max_rounds, double deadline,
                            uint64_t seed, Progress &progress, Trials *trials) {
  if (max_rounds <= 0) max_rounds = kMaxRounds;
  ChecksResult result;
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  result.problem = checks_unavailable();
  if (!result.problem.empty()) return result;

  // MPI_COMM_WORLD, then its first ranks every factor sqrt(2) fewer (check_group_sizes): a
  // communicator between two of them is judged by both (the model's error moves with the number of
  // ranks), and a smaller group may have another shape (one L3, one socket) that then gets checks
  // of its own. World gets half the time, the others share the rest.
  const std::vector<int> groups = check_group_sizes(size);
  std::map<RangeKey, Range> ranges;
  nlohmann::json measured = nlohmann::json::array(), runs = nlohmann::json::array();
  for (size_t g = 0; g < groups.size(); ++g) {
    double group_deadline = deadline;
    if (rank == 0) {
      const double now = MPI_Wtime(), left = groups.size() - g;
      const double share = g == 0 && groups.size() > 1 ? 0.5 : 1.0 / left;
      group_deadline = now + std::max(0.0, deadline - now) * share;
    }
    MPI_Bcast(&group_deadline, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Comm group = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, rank < groups[g] ? 0 : MPI_UNDEFINED, rank, &group);
    GroupRun run;
    if (group != MPI_COMM_NULL) {
      const std::vector<RankPlace> first(placement.ranks().begin(), placement.ranks().begin() + groups[g]);
      run = measure_group(group, table, Placement(first), ompi, candidates, max_bytes, max_rounds, group_deadline,
                          seed + g, progress, trials, ranges, measured);
      MPI_Comm_free(&group);
    }
    idle_barrier(MPI_COMM_WORLD);               // the ranks outside the group wait here
    int stop = g == 0 && !run.problem.empty();  // rank 0 is in every group
    MPI_Bcast(&stop, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (stop) {
      result.problem = rank == 0 ? run.problem : "MPI_COMM_WORLD could not be measured";
      return result;
    }
    if (rank == 0) {
      nlohmann::json r = {{"ranks", run.ranks},
                          {"neighbors", run.neighbors},
                          {"widest", run.widest},
                          {"rounds", run.rounds},
                          {"configurations", run.configurations},
                          {"seconds", run.seconds},
                          {"default", run.han_default ? "han" : "tuned_rule"},
                          {"barrier_before_calls", run.barrier_before}};
      if (!run.problem.empty()) r["problem"] = run.problem;
      runs.push_back(std::move(r));
    }
  }
  if (rank != 0) return result;

  for (const auto &[key, range] : ranges) {
    const auto &[op, algorithm, segsize, fanout, m, from, neighbors, widest, ranks, relative] = key;
    const Config c{static_cast<Op>(op), algorithm, segsize, fanout};
    const double below = !relative ? band_of(static_cast<uint64_t>(from)).below : from > 0 ? 2 * from : 1;
    // Each group's own size: a communicator of another size takes the group nearest it (margin.hpp).
    result.residuals.push_back({std::string(op_name(c.op)), config_name(c), segsize, fanout, kObjectiveName[m],
                                neighbors, widest, from, below, range.lo, range.hi, range.samples, ranks, ranks + 1,
                                relative});
  }
  std::string sizes;
  for (int k : groups) sizes += fmt::format("{}{}", sizes.empty() ? "" : ", ", k);
  result.source = fmt::format(
      "modeltuned-calibrate: {} per size and objective, forced through tuned on MPI_COMM_WORLD and its first ranks "
      "({} ranks), rounds in random order with one op and size's entries side by side, each entry the mean of "
      "{} calls in a row after as many untimed ones ({} from {}, {} from {}); range of ln(measured/predicted) "
      "over the 95% interval of the median at 2 sizes per band, per group; other components' measured-only "
      "algorithms: ln(time / the default's) in the same rounds, its median's 95% interval, per size",
      what_is_checked(candidates), sizes, repeats_of(1), repeats_of(kFewerCallsFrom), bytes_label(kFewerCallsFrom),
      repeats_of(kFewestCallsFrom), bytes_label(kFewestCallsFrom));
  result.provenance = {{"groups", runs}, {"measured", measured}};
  return result;
}

}  // namespace modeltuned::calibrate
