#include "calib/calibrate/progress.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>
#include <mpi.h>

namespace modeltuned::calibrate {

bool stderr_reaches_terminal() {
  if (isatty(STDERR_FILENO)) return true;
  if (!std::getenv("OMPI_COMM_WORLD_RANK")) return false;
  // Launched by mpirun (or an orted on a remote node, whose stderr is not a terminal): look at
  // the launcher's stderr.
  const std::string parent_stderr = fmt::format("/proc/{}/fd/2", getppid());
  const int fd = open(parent_stderr.c_str(), O_WRONLY | O_NOCTTY);
  if (fd < 0) return false;
  const bool tty = isatty(fd);
  close(fd);
  return tty;
}

Progress::Progress(bool enabled, double start, double budget_s)
    : enabled_(enabled), bar_(enabled && stderr_reaches_terminal()), start_(start), budget_s_(budget_s) {}

void Progress::phase(const std::string &name, double deadline, const std::string &detail) {
  if (!enabled_) return;
  end_phase();
  phase_ = name;
  phase_start_ = MPI_Wtime();
  phase_deadline_ = deadline;
  last_draw_ = -1;
  last_fraction_ = 0;
  if (bar_) {
    if (!detail.empty()) note(fmt::format("{}: {}", name, detail));
    draw(phase_start_, 0);
  } else {
    fmt::print(stderr, "[{:6.1f}s/{:.0f}s] {}{}{} (until {:.1f}s)\n", phase_start_ - start_, budget_s_, name,
               detail.empty() ? "" : ": ", detail, deadline - start_);
  }
}

void Progress::update(double fraction) {
  if (!enabled_ || !bar_) return;
  const double now = MPI_Wtime();
  if (now - last_draw_ < 0.2) return;
  draw(now, fraction);
}

void Progress::end_phase() {
  if (!enabled_ || phase_.empty()) return;
  if (bar_) {
    draw(MPI_Wtime(), 1.0);
    std::fputc('\n', stderr);
    bar_visible_ = false;
  }
  phase_.clear();
}

void Progress::note(const std::string &message) {
  if (!enabled_) return;
  clear_bar();
  fmt::print(stderr, "{}\n", message);
  if (bar_ && !phase_.empty()) draw(MPI_Wtime(), last_fraction_);
}

void Progress::draw(double now, double fraction) {
  fraction = std::clamp(fraction, 0.0, 1.0);
  last_draw_ = now;
  last_fraction_ = fraction;
  const double elapsed = now - phase_start_;
  // Extrapolate from the pace so far, but never past the phase deadline, which cuts the phase.
  double eta = phase_deadline_ - now;
  if (fraction > 0.02) eta = std::min(eta, elapsed * (1 - fraction) / fraction);
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(std::lround(fraction * kWidth));
  fmt::print(stderr, "\r{:<16.16} [{}{}] {:3.0f}%  ETA {:4.0f}s  total {:5.1f}/{:.0f}s ", phase_,
             std::string(filled, '#'), std::string(kWidth - filled, '.'), fraction * 100, std::max(0.0, eta),
             now - start_, budget_s_);
  std::fflush(stderr);
  bar_visible_ = true;
}

void Progress::clear_bar() {
  if (!bar_visible_) return;
  fmt::print(stderr, "\r{:100}\r", "");
  bar_visible_ = false;
}

}  // namespace modeltuned::calibrate
