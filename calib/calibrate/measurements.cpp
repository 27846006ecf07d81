#include "calib/calibrate/measurements.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <stdexcept>

#include <unistd.h>

#include <fmt/format.h>

#include "common/stats.hpp"

namespace modeltuned::calibrate {
namespace {

constexpr int kControlTag = 7001;
constexpr int kDataTag = 7002;
// A ping-pong batch (one control message, then its round trips) is kept short so the deadline
// check and the CSV flush after it happen often.
constexpr double kBatchSeconds = 0.05;
constexpr int kBatchMax = 256;
// Round trips of the first pass that run even past the deadline: enough sizes for a fit.
constexpr long kMinPingPongSizes = 8;

int log2_ceil(int p) { return p <= 1 ? 0 : static_cast<int>(std::ceil(std::log2(p))); }

constexpr int64_t kStop = 0;  // the command that ends a flat-tree phase (others: GroupRun)

// The ranks of a contention run in a group of P: P/2 pairs, so an odd group's last rank sits out.
int pair_ranks(int group_size) { return group_size / 2 * 2; }

// The largest flat-tree message (plan_flat_trees) and so the receive buffer MPI_Sendrecv needs.
size_t flat_cap(uint64_t max_bytes) { return std::min<uint64_t>(max_bytes, 1 << 20); }

// The relay ring runs messages up to this size: its cost is a per-message turnaround, which only
// matters where latency does; above it the model holds the last measured value.
constexpr int kRelayMaxBytes = 64 << 10;

}  // namespace

void quiet_wait(MPI_Request &request) {
  const timespec pause = {0, 100'000};
  for (int done = 0;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    nanosleep(&pause, nullptr);
  }
}

namespace {
IdleMode g_idle_mode = IdleMode::poll;
}

void set_idle_mode(IdleMode mode) { g_idle_mode = mode; }

void idle_wait(MPI_Request &request) {
  if (g_idle_mode == IdleMode::sleep)
    quiet_wait(request);
  else
    MPI_Wait(&request, MPI_STATUS_IGNORE);
}

void idle_barrier(MPI_Comm comm) {
  MPI_Request request;
  MPI_Ibarrier(comm, &request);
  idle_wait(request);
}

double LatencyEstimate::at(double bytes) const {
  if (large_bytes <= small_bytes) return large_us;
  const double per_byte = std::max(0.0, (large_us - small_us) / (large_bytes - small_bytes));
  return small_us + per_byte * (bytes - small_bytes);
}

std::vector<int> flat_tree_sizes(int max_p, int count) {
  std::vector<int> ps;
  if (max_p - 1 <= count) {
    for (int p = 2; p <= max_p; ++p) ps.push_back(p);
    return ps;
  }
  for (int i = 0; i < count; ++i) {
    const int p = 2 + static_cast<int>(std::lround(double(i) * (max_p - 2) / (count - 1)));
    if (ps.empty() || ps.back() != p) ps.push_back(p);
  }
  return ps;
}

Calibrator::Calibrator(MeasureSettings settings, SampleStore *store, Progress &progress, uint64_t seed)
    : settings_(settings), store_(store), progress_(progress), rng_(seed) {
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  buffer_.assign(settings_.max_bytes, 0);
  std::memset(buffer_.data(), 0x5a, buffer_.size());
  exchange_buffer_.assign(flat_cap(settings_.max_bytes), 0);
  std::memset(exchange_buffer_.data(), 0x5a, exchange_buffer_.size());
  requests_.resize(size_);
}

Calibrator::~Calibrator() = default;

LatencyEstimate Calibrator::ping_pong(const ChannelPeers &channel, double deadline) {
  const int peer = channel.peers.front();
  LatencyEstimate estimate;
  if (rank_ == 0)
    estimate = ping_pong_root(channel.channel, peer, deadline);
  else if (rank_ == peer)
    ping_pong_peer();
  idle_barrier(MPI_COMM_WORLD);
  return estimate;
}

void Calibrator::ping_pong_peer() {
  std::vector<int> batch;
  for (;;) {
    MPI_Status status;
    int count = 0;
    MPI_Probe(0, kControlTag, MPI_COMM_WORLD, &status);
    MPI_Get_count(&status, MPI_INT, &count);
    batch.resize(std::max(count, 1));
    MPI_Recv(batch.data(), count, MPI_INT, 0, kControlTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (count == 0) return;
    for (int i = 0; i < count; ++i) {
      MPI_Recv(buffer_.data(), batch[i], MPI_BYTE, 0, kDataTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buffer_.data(), batch[i], MPI_BYTE, 0, kDataTag, MPI_COMM_WORLD);
    }
  }
}

LatencyEstimate Calibrator::ping_pong_root(Channel channel, int peer, double deadline) {
  // Returns one-way latencies (half round trips) in microseconds.
  auto run_batch = [&](const std::vector<int> &batch) {
    MPI_Send(batch.data(), static_cast<int>(batch.size()), MPI_INT, peer, kControlTag, MPI_COMM_WORLD);
    std::vector<double> one_way(batch.size());
    for (size_t i = 0; i < batch.size(); ++i) {
      const double start = MPI_Wtime();
      MPI_Send(buffer_.data(), batch[i], MPI_BYTE, peer, kDataTag, MPI_COMM_WORLD);
      MPI_Recv(buffer_.data(), batch[i], MPI_BYTE, peer, kDataTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      one_way[i] = (MPI_Wtime() - start) * 1e6 / 2;
    }
    return one_way;
  };

  // Warm-up (connection setup, eager/rendezvous buffers, page faults), also a first estimate.
  const int largest = static_cast<int>(settings_.max_bytes);
  std::vector<int> warmup(30, 1);
  warmup.insert(warmup.end(), 3, largest);
  const std::vector<double> warm = run_batch(warmup);
  LatencyEstimate estimate;
  estimate.small_us = upper_median({warm.begin() + 10, warm.begin() + 30});
  estimate.large_bytes = largest;
  estimate.large_us = upper_median({warm.begin() + 30, warm.end()});

  // Plan: log-uniform sizes (Legrand: sizes spread evenly in log scale, measured in random order
  // so that slow periods of the machine do not line up with a size range).
  const double available = std::max(0.0, deadline - MPI_Wtime());
  const double mean_bytes = largest > 1 ? (largest - 1) / std::log(double(largest)) : 1;
  const double mean_round_trip_s = (2 * estimate.at(mean_bytes) + 1) * 1e-6;
  const double fitting = 0.9 * available / mean_round_trip_s;
  const int reps = settings_.reps > 0 ? settings_.reps : std::clamp(static_cast<int>(fitting / 100), 3, 20);
  const int count = std::clamp(static_cast<int>(fitting / reps), 8, 400);
  std::uniform_real_distribution<double> log_size(0, std::log(double(largest)));
  std::vector<int> sizes(count);
  for (int &s : sizes) s = std::clamp(static_cast<int>(std::lround(std::exp(log_size(rng_)))), 1, largest);
  sizes[0] = 1, sizes[1] = largest;  // the ends, so that a cut run still spans the range

  progress_.note(fmt::format("  {} channel: ping-pong rank 0 <-> {}: {} sizes 1 B - {} B x {} reps",
                             channel_name(channel), peer, count, largest, reps));
  const long total = static_cast<long>(count) * reps;
  long done = 0;
  bool out_of_time = false;
  for (int rep = 0; rep < reps && !out_of_time; ++rep) {
    std::shuffle(sizes.begin(), sizes.end(), rng_);
    // The least a fit needs, measured even past the deadline (a machine too loaded to keep the
    // budget still gets a table): both ends and a few sizes between, first.
    if (rep == 0) std::partition(sizes.begin(), sizes.end(), [&](int s) { return s == 1 || s == largest; });
    for (size_t first = 0; first < sizes.size() && !out_of_time;) {
      std::vector<int> batch;
      double expected_s = 0;
      while (first < sizes.size() && batch.size() < kBatchMax && expected_s < kBatchSeconds) {
        batch.push_back(sizes[first++]);
        expected_s += 2 * estimate.at(batch.back()) * 1e-6;
      }
      const std::vector<double> one_way = run_batch(batch);
      for (size_t i = 0; i < batch.size(); ++i) store_->add_p2p(channel, batch[i], rep, one_way[i]);
      store_->flush();
      done += static_cast<long>(batch.size());
      progress_.update(double(done) / total);
      out_of_time = MPI_Wtime() >= deadline && (rep > 0 || done >= std::min<long>(count, kMinPingPongSizes));
    }
  }
  run_batch({});  // tells the peer to stop
  if (out_of_time)
    progress_.note(fmt::format("  {} channel: ping-pong cut by the time budget after {} of {} round trips",
                               channel_name(channel), done, total));
  return estimate;
}

double Calibrator::run_flat(MPI_Comm comm, GroupRun kind, int bytes) {
  int rank = 0, p = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &p);
  const int pairs = pair_ranks(p) / 2;
  MPI_Barrier(comm);
  const double start = MPI_Wtime();
  // Open MPI's linear algorithms (coll/base basic_linear): bcast posts non-blocking sends to all
  // and waits; reduce receives from each peer in turn, highest rank first.
  switch (kind) {
    case GroupRun::fanout:
      if (rank == 0) {
        for (int peer = 1; peer < p; ++peer)
          MPI_Isend(buffer_.data(), bytes, MPI_BYTE, peer, kDataTag, comm, &requests_[peer - 1]);
        MPI_Waitall(p - 1, requests_.data(), MPI_STATUSES_IGNORE);
      } else {
        MPI_Recv(buffer_.data(), bytes, MPI_BYTE, 0, kDataTag, comm, MPI_STATUS_IGNORE);
      }
      break;
    case GroupRun::fanin:
      if (rank == 0) {
        for (int peer = p - 1; peer >= 1; --peer)
          MPI_Recv(buffer_.data(), bytes, MPI_BYTE, peer, kDataTag, comm, MPI_STATUS_IGNORE);
      } else {
        MPI_Send(buffer_.data(), bytes, MPI_BYTE, 0, kDataTag, comm);
      }
      break;
    // Contention: disjoint pairs, all at once, so the transfers share the memory system as the
    // steps of a tree or of recursive doubling do.
    case GroupRun::concurrent:
      if (rank < pairs)
        MPI_Send(buffer_.data(), bytes, MPI_BYTE, rank + pairs, kDataTag, comm);
      else if (rank < 2 * pairs)
        MPI_Recv(buffer_.data(), bytes, MPI_BYTE, rank - pairs, kDataTag, comm, MPI_STATUS_IGNORE);
      break;
    case GroupRun::exchange:  // one round of recursive doubling: partners i and i^1
      if (rank < 2 * pairs)
        MPI_Sendrecv(buffer_.data(), bytes, MPI_BYTE, rank ^ 1, kDataTag, exchange_buffer_.data(), bytes, MPI_BYTE,
                     rank ^ 1, kDataTag, comm, MPI_STATUS_IGNORE);
      break;
    case GroupRun::relay:  // run_relay's
      break;
  }
  // The slowest participant defines the operation's time (a receiver may finish after the root).
  const double elapsed = MPI_Wtime() - start;
  double slowest = 0;
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
  return slowest * 1e6;
}

// The ring's forwarding ranks do what a rank inside Open MPI's tree bcast does with a segment
// (coll_base_bcast.c, generic): a non-blocking receive, waited for, then a non-blocking send,
// waited for. The baseline is the same ring's three hops timed as ping-pongs the way the table's
// point-to-point samples are (blocking, half a round trip each), in the same run, so drift of the
// machine cancels: the relay cost is (ring - hops) / 2 per forwarding rank (calib/fit_table.cpp).
Calibrator::RelayTimes Calibrator::run_relay(MPI_Comm comm, int bytes) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  RelayTimes times;
  MPI_Request request;
  MPI_Barrier(comm);
  if (rank == 0) {
    const double start = MPI_Wtime();
    MPI_Isend(buffer_.data(), bytes, MPI_BYTE, 1, kDataTag, comm, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_Irecv(buffer_.data(), bytes, MPI_BYTE, 2, kDataTag, comm, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    times.ring_us = (MPI_Wtime() - start) * 1e6;
  } else {
    MPI_Irecv(buffer_.data(), bytes, MPI_BYTE, rank - 1, kDataTag, comm, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_Isend(buffer_.data(), bytes, MPI_BYTE, (rank + 1) % 3, kDataTag, comm, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  // Hops 0-1, 1-2, 2-0 as ping-pongs, one after the other; the first rank of each times it.
  double one_way[3] = {0, 0, 0};
  const int hops[3][2] = {{0, 1}, {1, 2}, {0, 2}};
  for (int h = 0; h < 3; ++h) {
    MPI_Barrier(comm);
    const auto [first, second] = hops[h];
    if (rank == first) {
      const double start = MPI_Wtime();
      MPI_Send(buffer_.data(), bytes, MPI_BYTE, second, kDataTag, comm);
      MPI_Recv(buffer_.data(), bytes, MPI_BYTE, second, kDataTag, comm, MPI_STATUS_IGNORE);
      one_way[h] = (MPI_Wtime() - start) * 1e6 / 2;
    } else if (rank == second) {
      MPI_Recv(buffer_.data(), bytes, MPI_BYTE, first, kDataTag, comm, MPI_STATUS_IGNORE);
      MPI_Send(buffer_.data(), bytes, MPI_BYTE, first, kDataTag, comm);
    }
  }
  double summed[3] = {0, 0, 0};
  MPI_Reduce(one_way, summed, 3, MPI_DOUBLE, MPI_SUM, 0, comm);
  times.hops_us = summed[0] + summed[1] + summed[2];
  return times;
}

// Peers of rank 0: run the group runs rank 0 commands until it says stop.
void Calibrator::serve_flat_trees(MPI_Comm channel_comm, const std::vector<MPI_Comm> &comms) {
  int64_t command[3];
  for (;;) {
    MPI_Bcast(command, 3, MPI_INT64_T, 0, channel_comm);
    if (command[0] == kStop) break;
    MPI_Comm comm = comms[command[1]];
    if (comm == MPI_COMM_NULL) continue;
    if (static_cast<GroupRun>(command[0]) == GroupRun::relay)
      run_relay(comm, static_cast<int>(command[2]));
    else
      run_flat(comm, static_cast<GroupRun>(command[0]), static_cast<int>(command[2]));
  }
}

// Sizes 1 B .. 1 MiB (or --max-bytes), powers of two, as the ORFEO nbft data, and every group;
// then the plan shrinks to the time available: thin sizes, then group sizes, then repetitions.
Calibrator::FlatPlan Calibrator::plan_flat_trees(const std::vector<int> &all_ps, const LatencyEstimate &estimate,
                                                 bool relay, double deadline) const {
  FlatPlan plan;
  plan.cap = static_cast<int>(flat_cap(settings_.max_bytes));
  for (int m = 1; m < plan.cap; m *= 2) plan.sizes.push_back(m);
  plan.sizes.push_back(plan.cap);
  auto choose_relay_sizes = [&] {
    plan.relay_sizes.clear();
    if (relay)
      for (int m : plan.sizes)
        if (m <= kRelayMaxBytes) plan.relay_sizes.push_back(m);
  };
  plan.groups.resize(all_ps.size());
  for (size_t i = 0; i < plan.groups.size(); ++i) plan.groups[i] = i;
  auto choose_pair_groups = [&] {
    plan.pair_groups.clear();
    int last_p = 0;
    for (size_t g : plan.groups)  // ascending P: the first group of each even P
      if (pair_ranks(all_ps[g]) != last_p) {
        plan.pair_groups.push_back(g);
        last_p = pair_ranks(all_ps[g]);
      }
  };

  // Estimates: barrier and time reduction as a few small messages per tree level; the transfers
  // at their serialized bound (fan-out and fan-in: P-1 messages; concurrent: P/2; exchange: P).
  auto round_seconds = [&] {
    double us = 0;
    for (size_t g : plan.groups)
      for (int m : plan.sizes) {
        const int p = all_ps[g];
        us += 2 * ((3 * log2_ceil(p) + 2) * estimate.small_us + (p - 1) * estimate.at(m));
      }
    for (size_t g : plan.pair_groups)
      for (int m : plan.sizes) {
        const int p = pair_ranks(all_ps[g]);
        us += 2 * (3 * log2_ceil(all_ps[g]) + 2) * estimate.small_us + (p / 2 + p) * estimate.at(m);
      }
    for (int m : plan.relay_sizes)  // four barriers of 3 ranks, the reduction, 3 + 6 hops
      us += 14 * estimate.small_us + 9 * estimate.at(m);
    return us * 1e-6;
  };
  auto thin = [](auto &v) {  // keep every other element and the last one
    if (v.size() <= 3) return false;
    auto last = v.back();
    size_t kept = 0;
    for (size_t i = 0; i < v.size(); i += 2) v[kept++] = v[i];
    v.resize(kept);
    if (v.back() != last) v.push_back(last);
    return true;
  };
  choose_pair_groups();
  choose_relay_sizes();
  const double warmup_seconds = round_seconds() * 2 / plan.sizes.size();
  const double available = 0.9 * std::max(0.0, deadline - MPI_Wtime()) - warmup_seconds;
  for (;;) {
    const int fitting = static_cast<int>(available / round_seconds());
    plan.reps = settings_.reps > 0 ? settings_.reps : std::clamp(fitting, 3, 20);
    if (plan.reps <= fitting) break;
    if (plan.sizes.size() > 8 ? thin(plan.sizes) : thin(plan.groups)) {
      choose_pair_groups();
      choose_relay_sizes();
      continue;
    }
    if (!thin(plan.sizes)) break;  // nothing left to thin: the deadline will cut the run
    choose_relay_sizes();
  }
  return plan;
}

// Rank 0: commands every group run of the plan, in random order per repetition, and stores the
// times; then tells the peers to stop.
// What the channel's flat-tree phase will measure, as notes under its progress line.
void Calibrator::note_plan(const ChannelPeers &channel, const FlatPlan &plan, const std::vector<int> &all_ps,
                           bool relay) {
  std::string ps_text, pair_ps_text;
  for (size_t g : plan.groups) ps_text += fmt::format("{}{}", ps_text.empty() ? "" : ",", all_ps[g]);
  for (size_t g : plan.pair_groups)
    pair_ps_text += fmt::format("{}{}", pair_ps_text.empty() ? "" : ",", pair_ranks(all_ps[g]));
  progress_.note(
      fmt::format("  {} channel: fan-out/fan-in, P = {}; concurrent pairs/exchange, P = {}; "
                  "{} sizes 1 B - {} B x {} reps",
                  channel_name(channel.channel), ps_text, pair_ps_text, plan.sizes.size(), plan.cap, plan.reps));
  if (relay)
    progress_.note(fmt::format("  {} channel: relay ring 0 -> {} -> {} -> 0, {} sizes 1 B - {} B",
                               channel_name(channel.channel), channel.relay[0], channel.relay[1],
                               plan.relay_sizes.size(), plan.relay_sizes.empty() ? 0 : plan.relay_sizes.back()));
}

// One group run's time into the samples, under the kind it belongs to (`p`: the group's ranks).
void Calibrator::record(Channel channel, GroupRun kind, int p, int bytes, int rep, double us, const RelayTimes &relay) {
  switch (kind) {
    case GroupRun::fanout:
    case GroupRun::fanin:
      store_->add_flat(channel, kind == GroupRun::fanout ? FlatTreeKind::fanout : FlatTreeKind::fanin, p, bytes, rep,
                       us);
      break;
    case GroupRun::concurrent:
    case GroupRun::exchange:
      store_->add_contention(
          channel, kind == GroupRun::concurrent ? calib::ContentionKind::concurrent : calib::ContentionKind::exchange,
          pair_ranks(p), bytes, rep, us);
      break;
    case GroupRun::relay:
      store_->add_relay(channel, bytes, rep, relay.ring_us, relay.hops_us);
      break;
  }
}

void Calibrator::drive_flat_trees(const ChannelPeers &channel, const LatencyEstimate &estimate, double deadline,
                                  const std::vector<int> &all_ps, MPI_Comm channel_comm,
                                  const std::vector<MPI_Comm> &comms) {
  // The relay ring's communicator follows the groups' (flat_trees).
  const size_t relay_comm = all_ps.size();
  const bool relay = comms.size() > relay_comm;
  RelayTimes relay_times;
  auto run = [&](size_t comm_index, GroupRun kind, int bytes) {
    int64_t command[3] = {static_cast<int64_t>(kind), static_cast<int64_t>(comm_index), bytes};
    MPI_Bcast(command, 3, MPI_INT64_T, 0, channel_comm);
    if (kind != GroupRun::relay) return run_flat(comms[comm_index], kind, bytes);
    relay_times = run_relay(comms[comm_index], bytes);
    return relay_times.ring_us;
  };
  const FlatPlan plan = plan_flat_trees(all_ps, estimate, relay, deadline);

  struct Experiment {
    GroupRun kind;
    size_t group;
    int bytes;
  };
  std::vector<Experiment> experiments;
  for (GroupRun kind : {GroupRun::fanout, GroupRun::fanin})
    for (size_t g : plan.groups)
      for (int m : plan.sizes) experiments.push_back({kind, g, m});
  for (GroupRun kind : {GroupRun::concurrent, GroupRun::exchange})
    for (size_t g : plan.pair_groups)
      for (int m : plan.sizes) experiments.push_back({kind, g, m});
  for (int m : plan.relay_sizes) experiments.push_back({GroupRun::relay, relay_comm, m});
  note_plan(channel, plan, all_ps, relay);

  // Warm-up of every group and kind at both extreme sizes (the contention runs also open
  // connections between peers that the trees never use).
  for (const Experiment &e : experiments)
    if ((e.bytes == 1 || e.bytes == plan.cap) && MPI_Wtime() < deadline) run(e.group, e.kind, e.bytes);

  const long total = static_cast<long>(experiments.size()) * plan.reps;
  long done = 0;
  double last_flush = MPI_Wtime();
  bool out_of_time = false;
  // The least a fit needs, measured first and even past the deadline (a machine too loaded to keep
  // the budget still gets a table): the flat trees at both ends of the sizes.
  const auto least = [&](const Experiment &e) {
    return (e.kind == GroupRun::fanout || e.kind == GroupRun::fanin) && (e.bytes == 1 || e.bytes == plan.cap);
  };
  for (int rep = 0; rep < plan.reps && !out_of_time; ++rep) {
    std::shuffle(experiments.begin(), experiments.end(), rng_);
    if (rep == 0) std::stable_partition(experiments.begin(), experiments.end(), least);
    for (const Experiment &e : experiments) {
      if (!(rep == 0 && least(e)) && (out_of_time = MPI_Wtime() >= deadline)) break;
      const double us = run(e.group, e.kind, e.bytes);
      record(channel.channel, e.kind, e.kind == GroupRun::relay ? 3 : all_ps[e.group], e.bytes, rep, us, relay_times);
      ++done;
      if (MPI_Wtime() - last_flush > 0.25) {
        store_->flush();
        last_flush = MPI_Wtime();
        progress_.update(double(done) / total);
      }
    }
  }
  store_->flush();
  int64_t stop[3] = {kStop, 0, 0};
  MPI_Bcast(stop, 3, MPI_INT64_T, 0, channel_comm);
  if (out_of_time)
    progress_.note(
        fmt::format("  {} channel: flat trees and contention runs cut by the time budget after {} of "
                    "{} runs",
                    channel_name(channel.channel), done, total));
}

void Calibrator::flat_trees(const ChannelPeers &channel, const LatencyEstimate &estimate, double deadline) {
  constexpr int kMaxGroupSizes = 12;
  const std::vector<int> all_ps = flat_tree_sizes(channel.max_p(), kMaxGroupSizes);
  // One communicator per group size: rank 0 and its first P-1 peers on the channel, rank 0 first.
  std::vector<MPI_Comm> comms(all_ps.size(), MPI_COMM_NULL);
  for (size_t i = 0; i < all_ps.size(); ++i) {
    const auto members_end = channel.peers.begin() + (all_ps[i] - 1);
    const bool member = rank_ == 0 || std::find(channel.peers.begin(), members_end, rank_) != members_end;
    MPI_Comm_split(MPI_COMM_WORLD, member ? 0 : MPI_UNDEFINED, rank_, &comms[i]);
  }

  // Commands go to the channel's ranks only (the largest group); the others wait in the final
  // barrier as the idle mode says (--idle).
  MPI_Comm channel_comm = comms.back();
  // The relay ring: rank 0 and the channel's two relay peers, in ring order.
  if (channel.relay[0] >= 0) {
    const int order = rank_ == 0 ? 0 : rank_ == channel.relay[0] ? 1 : rank_ == channel.relay[1] ? 2 : -1;
    comms.push_back(MPI_COMM_NULL);
    MPI_Comm_split(MPI_COMM_WORLD, order >= 0 ? 0 : MPI_UNDEFINED, order, &comms.back());
  }
  if (rank_ != 0 && channel_comm != MPI_COMM_NULL)
    serve_flat_trees(channel_comm, comms);
  else if (rank_ == 0)
    drive_flat_trees(channel, estimate, deadline, all_ps, channel_comm, comms);
  for (MPI_Comm &comm : comms)
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  idle_barrier(MPI_COMM_WORLD);
}

}  // namespace modeltuned::calibrate
