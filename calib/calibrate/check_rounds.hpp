// The checks' timed rounds (docs/calibration.md, "Checks"): every entry (a configuration at a
// size) called on its forced communicator, a barrier before each call, round after round in a
// shuffled order; checks.cpp plans the entries and turns the times into the table's ranges.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <mpi.h>

#include "calib/calibrate/check_comms.hpp"
#include "calib/calibrate/progress.hpp"
#include "calib/calibrate/trials.hpp"

namespace modeltuned::calibrate {

inline constexpr int kCheckMetrics = 2;  // completion, rank_mean
inline constexpr int kMinRounds = 3;     // below 6 the median has no 95 % interval: the range is min..max
// repeats_of: 8 calls below kFewerCallsFrom, 4 below kFewestCallsFrom, 2 from there up.
inline constexpr uint64_t kFewerCallsFrom = 256 * 1024;
inline constexpr uint64_t kFewestCallsFrom = 1024 * 1024;

// A configuration (an index into the plan's configurations) at a size; rank 0 knows the model's
// prediction of it per objective.
struct Entry {
  int config = 0;
  uint64_t bytes = 0;
  double predicted_us[kCheckMetrics] = {0, 0};  // rank 0
};

// How many timed calls an entry of `bytes` makes in a row per round, each after a barrier and
// after as many untimed ones, as OSU's benchmarks and modeltuned-latency time them: a call among
// hundreds of others finds its buffers, flags and peers cold, one repeated in a loop warm. coll/sm's
// bcast of 8 bytes took 1.3 us alone and 0.36 us in a loop on the 2-core VM (the benchmark's loop
// 0.30 us); tuned's bcast of 64 KiB 14.5-17 us in loops of 2 after 2 untimed calls, 8.2-8.4 us in
// loops of 8, 8.6-9.0 us in the benchmark's loops of 100. Fewer calls for large messages, whose
// cold start is a smaller share and whose calls would take most of the checks' time.
int repeats_of(uint64_t bytes);

// Where each entry's calls sit within a round: entry k's j-th timed call at offset[k] + j.
struct RoundLayout {
  std::vector<size_t> offset, repeats;
  size_t calls = 0;
  explicit RoundLayout(const std::vector<Entry> &entries) {
    for (const Entry &e : entries) {
      offset.push_back(calls);
      repeats.push_back(static_cast<size_t>(repeats_of(e.bytes)));
      calls += repeats.back();
    }
  }
};

// Each rank's start and end of every timed call, round after round: call i of round r at
// r * layout.calls + i.
struct CallTimes {
  std::vector<double> start, end;
  int rounds = 0;
  double began = 0;            // MPI_Wtime() after the warm-up
  std::string barrier_before;  // the barrier before every call: "default", or an algorithm's name
};

// A warm-up, then rounds in an order shuffled per round (the entries of one op and size side by
// side, so that a paired check compares calls made close in time), each entry as many untimed
// calls as timed ones, then its timed calls (repeats_of), a barrier before each, until max_rounds or the deadline (at
// least kMinRounds when the first round fit in it); rank 0 decides. Another component's first call at
// each size runs as one of `trials`, and a crash in its later calls is journaled (nullptr: not).
CallTimes run_rounds(const std::vector<Config> &configs, const std::vector<Entry> &entries, CheckComms &comms,
                     uint64_t max_bytes, int max_rounds, double deadline, uint64_t seed, Progress &progress,
                     Trials *trials);

}  // namespace modeltuned::calibrate
