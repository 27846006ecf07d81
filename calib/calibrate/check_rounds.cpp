#include "calib/calibrate/check_rounds.hpp"

#include <time.h>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <tuple>

#include "common/mpi_t.hpp"
#include "model/registry/registry.hpp"

namespace modeltuned::calibrate {
namespace {

using mpi_t::cvar_write;

double now_s() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

// One timed call of an entry on its forced communicator, a barrier before it; k-nomial radixes are
// set through tuned's variable as the entry needs, and set back when the caller goes. The barrier
// is the same for every entry, the one a job's calls follow (barrier_before): each component's
// barrier leaves the ranks in step its own way, and a call measured after one ran differently
// after another (coll/xhc's bcasts of 2-256 B took 0.57-0.72x the default's time in checks after
// xhc's barrier, 0.15-0.29 us in jobs after tuned's against the default's 0.12-0.24).
class EntryCaller {
 public:
  EntryCaller(const std::vector<Config> &configs, CheckComms &comms, uint64_t max_bytes)
      : configs_(configs),
        comms_(comms),
        send_(max_bytes, 0),
        recv_(max_bytes, 0),
        radix_(comms.radix0),
        before_(configs.size(), comms.control) {}
  ~EntryCaller() {
    if (radix_ != comms_.radix0) (void)cvar_write(comms_.radix_variable.c_str(), &comms_.radix0);
  }
  EntryCaller(const EntryCaller &) = delete;
  EntryCaller &operator=(const EntryCaller &) = delete;

  std::pair<double, double> operator()(const Entry &e) {
    const Config &c = configs_[e.config];
    if (takes_radix(c) && radix_ != c.fanout) {
      radix_ = c.fanout;
      (void)cvar_write(comms_.radix_variable.c_str(), &radix_);
    }
    const MPI_Comm comm = comms_.forced[e.config];
    MPI_Barrier(before_[e.config]);
    const double t0 = now_s();
    const int bytes = static_cast<int>(e.bytes);
    switch (c.op) {  // no default: a collective added to Op must be measured here
      case Op::bcast:
        MPI_Bcast(send_.data(), bytes, MPI_BYTE, 0, comm);
        break;
      case Op::reduce:
        MPI_Reduce(send_.data(), recv_.data(), bytes / 4, MPI_INT, MPI_SUM, 0, comm);
        break;
      case Op::allreduce:
        MPI_Allreduce(send_.data(), recv_.data(), bytes / 4, MPI_INT, MPI_SUM, comm);
        break;
      case Op::barrier:
        MPI_Barrier(comm);
        break;
      case Op::allgather:
        MPI_Allgather(send_.data(), bytes, MPI_BYTE, recv_.data(), bytes, MPI_BYTE, comm);
        break;
      case Op::alltoall:
        MPI_Alltoall(send_.data(), bytes, MPI_BYTE, recv_.data(), bytes, MPI_BYTE, comm);
        break;
    }
    return std::pair(t0, now_s());
  }
  // `barrier`, where `component` runs it ("" for tuned's): an entry of that component gets it on its
  // own communicator, as in a job both run on the component's private one; every other on `barrier`.
  void precede_with(MPI_Comm barrier, std::string_view component) {
    for (size_t i = 0; i < configs_.size(); ++i) {
      const bool same = !component.empty() && component_of(configs_[i]) == component;
      before_[i] = same ? comms_.forced[i] : barrier;
    }
  }

 private:
  const std::vector<Config> &configs_;
  CheckComms &comms_;
  std::vector<char> send_, recv_;
  int radix_;
  std::vector<MPI_Comm> before_;  // per configuration, where the barrier before its calls runs
};

// Warm-up: trees, connections, first touch. Another component's first call at a size is a trial,
// and its later calls are watched too: what a crash in one journals, per entry (Trials::during).
std::vector<std::optional<Trials::LaterCall>> warm_up(const std::vector<Config> &configs,
                                                      const std::vector<Entry> &entries, EntryCaller &call,
                                                      MPI_Comm control, Trials *trials) {
  int size = 0;
  MPI_Comm_size(control, &size);
  std::vector<std::optional<Trials::LaterCall>> later(entries.size());
  for (size_t k = 0; k < entries.size(); ++k) {
    const Config &c = configs[entries[k].config];
    const AlgorithmSpec *spec = spec_of(c);
    const bool trial = trials && spec && !spec->component.empty();
    const std::string op(op_name(c.op)), algorithm(trial ? spec->name : "");
    if (trial) trials->begin(op, algorithm, entries[k].bytes, control);
    (void)call(entries[k]);
    if (trial) trials->end();
    if (trial) later[k] = trials->later_call(op, algorithm, entries[k].bytes, size);
  }
  return later;
}

// The barrier a job's calls most likely follow: modeltuned's own pick for MPI_Barrier, which these
// checks decide too (a benchmark's barrier between its calls, an application's between phases).
// Of the group's barrier entries, the one with the lowest median over kBarrierRounds rounds of its
// time / the default's in the same round, where that median is at most kBarrierWin; else the
// default's (-1). Rank 0's own times decide, after the warm-up (each component's first call a trial).
constexpr int kBarrierRounds = 20;
constexpr double kBarrierWin = 0.9;
int barrier_before(const std::vector<Config> &configs, const std::vector<Entry> &entries, EntryCaller &call,
                   const std::vector<std::optional<Trials::LaterCall>> &later, MPI_Comm control) {
  std::vector<size_t> barriers;
  size_t default_at = SIZE_MAX;
  for (size_t k = 0; k < entries.size(); ++k) {
    if (configs[entries[k].config].op != Op::barrier) continue;
    if (configs[entries[k].config].algorithm == 0) default_at = barriers.size();
    barriers.push_back(k);
  }
  if (default_at == SIZE_MAX || barriers.size() < 2) return -1;  // every rank shares the plan
  std::vector<std::vector<double>> ratios(barriers.size());
  std::vector<double> mean(barriers.size());
  for (int r = 0; r < kBarrierRounds; ++r) {
    for (size_t i = 0; i < barriers.size(); ++i) {
      const size_t b = (i + r) % barriers.size(), k = barriers[b];
      const int n = repeats_of(entries[k].bytes);
      if (later[k]) Trials::during(&*later[k]);
      for (int j = 0; j < n; ++j) (void)call(entries[k]);
      double sum = 0;
      for (int j = 0; j < n; ++j) {
        const auto [t0, t1] = call(entries[k]);
        sum += t1 - t0;
      }
      Trials::during(nullptr);
      mean[b] = sum / n;
    }
    for (size_t b = 0; b < barriers.size(); ++b) ratios[b].push_back(mean[b] / std::max(mean[default_at], 1e-12));
  }
  int chosen = -1;
  double best = kBarrierWin;
  for (size_t b = 0; b < barriers.size(); ++b) {
    std::nth_element(ratios[b].begin(), ratios[b].begin() + kBarrierRounds / 2, ratios[b].end());
    if (b != default_at && ratios[b][kBarrierRounds / 2] <= best) {
      best = ratios[b][kBarrierRounds / 2];
      chosen = static_cast<int>(barriers[b]);
    }
  }
  MPI_Bcast(&chosen, 1, MPI_INT, 0, control);
  return chosen;
}

// What barrier_before chose, as the table's provenance names it.
std::string barrier_name(const std::vector<Config> &configs, const std::vector<Entry> &entries, int chosen) {
  const AlgorithmSpec *spec = chosen < 0 ? nullptr : spec_of(configs[entries[chosen].config]);
  return spec ? std::string(spec->name) : "default";
}

}  // namespace

int repeats_of(uint64_t bytes) { return bytes < kFewerCallsFrom ? 8 : bytes < kFewestCallsFrom ? 4 : 2; }

// The order of a round's entries: those of one op and size side by side (a group), the groups and
// the entries within each in a new random order every round. The VM's slow and fast spells last
// tens of milliseconds (a check's medians of one entry split 0.2 and 0.75 us across rounds); a
// paired check, another component's calls against the default's, compares entries measured
// microseconds apart then, not anywhere in a round of seconds. Each entry keeps its calls in a
// row, as loops of the benchmark find their own state warm.
class RoundOrder {
 public:
  RoundOrder(const std::vector<Config> &configs, const std::vector<Entry> &entries, uint64_t seed)
      : rng_(seed ^ 0xC0FFEEull) {
    std::map<std::pair<int, uint64_t>, size_t> group_of;
    for (size_t k = 0; k < entries.size(); ++k) {
      const auto [at, added] =
          group_of.emplace(std::pair(int(configs[entries[k].config].op), entries[k].bytes), groups_.size());
      if (added) groups_.emplace_back();
      groups_[at->second].push_back(k);
    }
  }
  const std::vector<size_t> &next() {
    std::shuffle(groups_.begin(), groups_.end(), rng_);
    order_.clear();
    for (std::vector<size_t> &group : groups_) {
      std::shuffle(group.begin(), group.end(), rng_);
      order_.insert(order_.end(), group.begin(), group.end());
    }
    return order_;
  }

 private:
  std::mt19937_64 rng_;
  std::vector<std::vector<size_t>> groups_;
  std::vector<size_t> order_;
};

// A warm-up, then rounds in an order shuffled per round (RoundOrder), each entry as many untimed
// calls as timed ones, then its timed calls (repeats_of), a barrier before each, until max_rounds or the deadline (at
// least kMinRounds when the first round fit in it); rank 0 decides.
CallTimes run_rounds(const std::vector<Config> &configs, const std::vector<Entry> &entries, CheckComms &comms,
                     uint64_t max_bytes, int max_rounds, double deadline, uint64_t seed, Progress &progress,
                     Trials *trials) {
  const RoundLayout layout(entries);
  int rank = 0;
  MPI_Comm_rank(comms.control, &rank);
  EntryCaller call(configs, comms, max_bytes);
  const std::vector<std::optional<Trials::LaterCall>> later = warm_up(configs, entries, call, comms.control, trials);
  RoundOrder round_order(configs, entries, seed);
  if (trials) trials->watch_later_calls();
  const int before = barrier_before(configs, entries, call, later, comms.control);
  if (before >= 0) {
    const size_t config = entries[before].config;
    call.precede_with(comms.forced[config], component_of(configs[config]));
  }
  CallTimes t;
  t.barrier_before = barrier_name(configs, entries, before);
  const double began = t.began = MPI_Wtime();
  bool first_fit = true;
  for (int go_on = 1; go_on;) {
    const std::vector<size_t> &order = round_order.next();
    const size_t first = t.start.size();
    t.start.resize(first + layout.calls);
    t.end.resize(first + layout.calls);
    for (size_t k : order) {
      if (later[k]) Trials::during(&*later[k]);
      if (later[k] && later[k]->inject_crash) std::raise(SIGSEGV);
      // Untimed, as many as the timed ones: what ran between left it cold (coll/sm's bcast of
      // 16 KiB took 4.4-11.7 us in 8-call loops after one untimed call, 2.6-3.0 us after 16
      // untimed ones, as in loops of 1000; the default's 3.3-4 us either way).
      for (size_t j = 0; j < layout.repeats[k]; ++j) (void)call(entries[k]);
      for (size_t j = 0; j < layout.repeats[k]; ++j) {
        const size_t i = first + layout.offset[k] + j;
        std::tie(t.start[i], t.end[i]) = call(entries[k]);
      }
      Trials::during(nullptr);
    }
    ++t.rounds;
    if (rank == 0) {
      const double now = MPI_Wtime(), per_round = (now - began) / t.rounds;
      if (t.rounds == 1) first_fit = now <= deadline;
      go_on = t.rounds < max_rounds &&
              (now + per_round <= deadline || (first_fit && t.rounds < std::min(kMinRounds, max_rounds)));
      progress.update(std::min(1.0, (now - began) / std::max(1e-9, deadline - began)));
    }
    MPI_Bcast(&go_on, 1, MPI_INT, 0, comms.control);
  }
  if (trials) trials->unwatch_later_calls();
  return t;
}

}  // namespace modeltuned::calibrate
