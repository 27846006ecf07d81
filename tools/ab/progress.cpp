#include "tools/ab/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <fmt/format.h>

namespace modeltuned::ab {

Progress::Progress(bool enabled, int total_jobs)
    : enabled_(enabled), bar_(enabled && isatty(STDERR_FILENO)), total_(total_jobs), began_(Clock::now()) {}

double Progress::elapsed(Clock::time_point since) const {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

// The mean job so far for every job not finished, less what the running one has had.
double Progress::remaining_s() const {
  if (finished_ == 0) return std::nan("");
  const double mean = finished_s_ / finished_;
  return std::max(0.0, mean * (total_ - finished_) - (label_.empty() ? 0 : elapsed(job_began_)));
}

void Progress::start(const std::string &label) {
  if (!enabled_) return;
  label_ = label;
  job_began_ = Clock::now();
  if (bar_) draw();
}

void Progress::tick() {
  if (bar_ && !label_.empty() && elapsed(last_draw_) > 0.25) draw();
}

void Progress::done(double wall_s) {
  if (!enabled_) return;
  ++finished_;
  finished_s_ += wall_s;
  if (!bar_) {
    const double left = remaining_s();
    fmt::print(stderr, "modeltuned ab: {}: {:.3g} s (job {}/{}{})\n", label_, wall_s, finished_, total_,
               finished_ < total_ ? fmt::format(", about {:.0f} s left", left) : "");
  }
  label_.clear();
}

void Progress::note(const std::string &message) {
  clear();
  fmt::print(stderr, "{}\n", message);
  if (bar_ && !label_.empty()) draw();
}

void Progress::clear() {
  if (!visible_) return;
  fmt::print(stderr, "\r{:99}\r", "");
  std::fflush(stderr);
  visible_ = false;
}

void Progress::draw() {
  last_draw_ = Clock::now();
  constexpr int kWidth = 20;
  const int filled = total_ ? finished_ * kWidth / total_ : 0;
  const double left = remaining_s();
  const std::string estimate = std::isnan(left) ? "" : fmt::format(", about {:.0f} s left", left);
  fmt::print(stderr, "\r[{}{}] {:<24} {:6.1f} s{:<22}", std::string(filled, '#'), std::string(kWidth - filled, '.'),
             label_, elapsed(began_), estimate);
  std::fflush(stderr);
  visible_ = true;
}

}  // namespace modeltuned::ab
