// Trials (docs/calibration.md, "Candidates that crash or hang"): the first call of another
// component's algorithm at each size the checks measure, journaled beside the output and watched;
// and its later calls, which a crash journals from the signal handler.
// Rank 0 writes "start" to the journal before the call and "done" after it, each flushed to disk;
// a call that crashes the job leaves its "start" alone, and one that hangs past the timeout ends
// the job from a watchdog thread. The next run of the same command reads the journal: those
// algorithms are unusable from that size up (CalibrationTable::unusable), never checked again, and
// never run by a job with the table. A calibration that completes removes its journal.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include <mpi.h>

#include "model/calibration/table.hpp"

namespace modeltuned::calibrate {

class Trials {
 public:
  // `journal`: the file (rank 0 reads and writes it); `timeout_s`: how long one trial may take.
  // Reads MODELTUNED_CALIBRATE_FAULT ("op:algorithm:bytes:crash|hang|crash-later"), which makes
  // that trial fail on every rank, or (crash-later) its first later call: the fault injection of
  // tests/calibrate_faults.sh. Every rank is given rank 0's journal.
  Trials(std::string journal, double timeout_s, int rank);
  ~Trials();
  Trials(const Trials &) = delete;
  Trials &operator=(const Trials &) = delete;

  // Rank 0: what earlier runs of this calibration left started and never done.
  const std::vector<UnusableCandidate> &failures() const { return failures_; }
  // Around the first call of `algorithm` of `op` at `bytes`, on every rank of `group` (collective:
  // the journal's line is on disk before any rank makes the call).
  void begin(const std::string &op, const std::string &algorithm, uint64_t bytes, MPI_Comm group);
  void end();
  // The calibration wrote its table: the journal has served.
  void finished();

  // A later call of another component's algorithm at a size (after its trial): what a crash in it
  // journals and says, made once per entry of the checks.
  struct LaterCall {
    std::string line, said;
    bool inject_crash = false;  // MODELTUNED_CALIBRATE_FAULT's "crash-later" for it
  };
  LaterCall later_call(const std::string &op, const std::string &algorithm, uint64_t bytes, int ranks) const;
  // Around the checks' rounds: a crash of this rank in a call marked by `during` journals that
  // call's algorithm as crashed at its size (written by the crashing rank, whichever it is), so
  // that the next run leaves it out as after a crashed trial. A hang there is not caught: the job's
  // own time limit ends it.
  void watch_later_calls();
  void unwatch_later_calls();
  static void during(const LaterCall *call);  // nullptr: none under way

 private:
  void append(const std::string &line);
  void watch();

  std::string journal_;
  double timeout_s_;
  int rank_;
  std::vector<UnusableCandidate> failures_;
  std::string fault_;                    // "op:algorithm:bytes:kind" to inject, or empty
  std::string current_;                  // the trial under way, as journaled: "op algorithm bytes ranks"
  std::string described_;                // the same in words
  std::atomic<int64_t> deadline_ms_{0};  // steady clock; 0: no trial under way
  std::atomic<bool> stop_{false};
  std::thread watchdog_;
};

}  // namespace modeltuned::calibrate
