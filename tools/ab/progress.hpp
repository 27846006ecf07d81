// Progress of the A/B on stderr: where stderr is a terminal, one line redrawn in place (round k/N,
// the arm, elapsed time, an estimate of what is left from the jobs so far); elsewhere one line per
// job when it ends, so that logs stay readable. Steady clock; no MPI.
#pragma once
#include <chrono>
#include <string>

namespace modeltuned::ab {

class Progress {
 public:
  Progress(bool enabled, int total_jobs);
  ~Progress() { clear(); }
  Progress(const Progress &) = delete;
  Progress &operator=(const Progress &) = delete;
  // A job starts: "round 3/6 baseline", "warm-up 1/1 modeltuned".
  void start(const std::string &label);
  // While it runs (redraws at most a few times a second).
  void tick();
  void done(double wall_s);
  // A line that does not disturb the bar.
  void note(const std::string &message);
  // Removes the bar before the report.
  void clear();

 private:
  using Clock = std::chrono::steady_clock;
  double elapsed(Clock::time_point since) const;
  double remaining_s() const;
  void draw();

  bool enabled_, bar_;
  int total_, finished_ = 0;
  double finished_s_ = 0;
  Clock::time_point began_, job_began_, last_draw_;
  std::string label_;
  bool visible_ = false;
};

}  // namespace modeltuned::ab
