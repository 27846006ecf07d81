// Rank 0's progress report on stderr: a one-line bar redrawn in place when stderr reaches a
// terminal (directly or through mpirun), otherwise one line per phase so logs stay readable.
#pragma once
#include <string>

namespace modeltuned::calibrate {

class Progress {
 public:
  // `enabled` is false on every rank but 0; times are MPI_Wtime() values.
  Progress(bool enabled, double start, double budget_s);
  // Starts a phase that must end by `deadline`; `detail` is printed with it in line mode.
  void phase(const std::string &name, double deadline, const std::string &detail = {});
  // fraction of the current phase done, 0..1; redraws at most a few times per second.
  void update(double fraction);
  void end_phase();
  // A message line that does not disturb the bar.
  void note(const std::string &message);

 private:
  void draw(double now, double fraction);
  void clear_bar();

  bool enabled_, bar_;
  double start_, budget_s_;
  std::string phase_;
  double phase_start_ = 0, phase_deadline_ = 0, last_draw_ = -1, last_fraction_ = 0;
  bool bar_visible_ = false;
};

// True when stderr is a terminal, or is a pipe to mpirun whose own stderr is one (Open MPI
// forwards rank output through pipes, so isatty(2) alone is always false under mpirun).
bool stderr_reaches_terminal();

}  // namespace modeltuned::calibrate
