// The experiments of a calibration run. Every function is collective over MPI_COMM_WORLD
// (ranks that do not take part wait in a barrier or in rank 0's command broadcast); rank 0 draws
// the plans, times, and records samples; deadlines are MPI_Wtime() values that cut a phase
// between two measurements.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "calib/calibrate/progress.hpp"
#include "calib/calibrate/rank_placement.hpp"
#include "calib/calibrate/sample_store.hpp"

namespace modeltuned::calibrate {

struct MeasureSettings {
  uint64_t max_bytes = 4 << 20;  // largest point-to-point message
  int reps = 0;                  // repetitions of every measurement; 0: as many as fit (3-20)
};

// Rough one-way latency of a channel, linear between two warm-up points: only used to plan how
// many measurements fit in a phase, never for the table.
struct LatencyEstimate {
  double small_bytes = 1, small_us = 1, large_bytes = 1, large_us = 1;
  double at(double bytes) const;
};

struct ReduceLocalResult {
  double double_us_per_byte = 0, int_us_per_byte = 0;
  std::string double_method;  // how double_us_per_byte was fitted (calib::fit_per_byte_cost)
  int samples = 0;
  // Temporaries through this process's allocator (fresh_memory below): the cost per fresh byte
  // of each pattern from the size its step starts at, and the table's: the costlier pattern's
  // cost and size. fresh_samples == 0: not measured.
  double fresh_one_buffer_us_per_byte = 0, fresh_two_buffers_us_per_byte = 0;
  double fresh_us_per_byte = 0, fresh_from_bytes = 0;
  int fresh_samples = 0;
  nlohmann::json to_json() const;
};

class Calibrator {
 public:
  // `store` is non-null on rank 0 only; `rng` is only used on rank 0.
  Calibrator(MeasureSettings settings, SampleStore *store, Progress &progress, uint64_t seed);
  ~Calibrator();

  // MPI_Reduce_local(MPI_SUM) on rank 0 over 4 KiB - 4 MiB buffers of MPI_DOUBLE and MPI_INT;
  // cost per byte from calib::fit_per_byte_cost, never negative. Meaningful on rank 0 only.
  // Also what per-call temporaries cost through the allocator (fresh_memory below).
  ReduceLocalResult reduce_local(double deadline);
  // Ping-pong between rank 0 and the channel's first peer; the estimate is valid on rank 0.
  LatencyEstimate ping_pong(const ChannelPeers &channel, double deadline);
  // Linear fan-out (bcast) and fan-in (reduce without the operation) from rank 0 to its first
  // P-1 peers on the channel, and on the same groups the contention runs: P/2 concurrent one-way
  // pairs, and P ranks exchanging with a partner (P even: an odd group's last rank sits out);
  // with two peers or more, the relay ring through channel.relay.
  // `estimate` (rank 0) sizes the plan.
  void flat_trees(const ChannelPeers &channel, const LatencyEstimate &estimate, double deadline);

 private:
  LatencyEstimate ping_pong_root(Channel channel, int peer, double deadline);
  void ping_pong_peer();
  void fresh_memory(double deadline, ReduceLocalResult &result);
  // What one group run does; the values are also the commands rank 0 broadcasts (0: stop).
  enum class GroupRun : int64_t { fanout = 1, fanin, concurrent, exchange, relay };
  double run_flat(MPI_Comm comm, GroupRun kind, int bytes);
  // One relay run on a 3-rank communicator (docs/calibration.md, "Relay"): rank 0 gets the ring's
  // time and the sum of its three hops as half round trips, microseconds.
  struct RelayTimes {
    double ring_us = 0, hops_us = 0;
  };
  RelayTimes run_relay(MPI_Comm comm, int bytes);
  struct FlatPlan {
    int cap = 0;                 // largest message
    std::vector<int> sizes;      // messages measured
    std::vector<size_t> groups;  // indices of the group sizes measured
    // Of those, the groups the contention runs use: one per even P (the smallest group giving it).
    std::vector<size_t> pair_groups;
    std::vector<int> relay_sizes;  // of `sizes`, those the relay ring runs (none without a ring)
    int reps = 0;
  };
  FlatPlan plan_flat_trees(const std::vector<int> &all_ps, const LatencyEstimate &estimate, bool relay,
                           double deadline) const;
  void serve_flat_trees(MPI_Comm channel_comm, const std::vector<MPI_Comm> &comms);
  void note_plan(const ChannelPeers &channel, const FlatPlan &plan, const std::vector<int> &all_ps, bool relay);
  void record(Channel channel, GroupRun kind, int p, int bytes, int rep, double us, const RelayTimes &relay);
  void drive_flat_trees(const ChannelPeers &channel, const LatencyEstimate &estimate, double deadline,
                        const std::vector<int> &all_ps, MPI_Comm channel_comm, const std::vector<MPI_Comm> &comms);

  MeasureSettings settings_;
  SampleStore *store_;
  Progress &progress_;
  std::mt19937_64 rng_;
  int rank_ = 0, size_ = 1;
  std::vector<char> buffer_;           // max_bytes, touched once so first-touch does not pollute timings
  std::vector<char> exchange_buffer_;  // MPI_Sendrecv's receive side (flat-tree sizes), touched too
  std::vector<MPI_Request> requests_;
};

// How ranks that take no part in a measurement wait for it. poll (default): inside MPI
// (MPI_Wait), as every rank of a real collective does, so the measured pair sees the same
// competition for cores as a collective would (on an oversubscribed node Open MPI's
// mpi_yield_when_idle makes the pollers yield). sleep: MPI_Test every 0.1 ms, leaving the cores
// to the measured ranks (the lower bound; the model then underpredicts oversubscribed runs).
enum class IdleMode { poll, sleep };
void set_idle_mode(IdleMode mode);
// Waits the way the idle mode says.
void idle_wait(MPI_Request &request);
void idle_barrier(MPI_Comm comm);
// Always sleeps between tests: for waits outside measurements (rank 0 fitting the table).
void quiet_wait(MPI_Request &request);

// Flat-tree sizes P measured for a channel offering up to max_p: all of 2..max_p when there are
// at most `count` of them, else `count` values spread evenly, always with 2 and max_p.
std::vector<int> flat_tree_sizes(int max_p, int count);

}  // namespace modeltuned::calibrate
