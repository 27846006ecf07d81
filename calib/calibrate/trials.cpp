#include "calib/calibrate/trials.hpp"
#include "calib/trial_journal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

namespace modeltuned::calibrate {
namespace {

// The exit status of a rank whose trial hung: mpirun then ends the job.
constexpr int kHungStatus = 75;

// What a rank says when a trial crashes it: written by the signal handler, so formatted before.
char g_crash_line[512];
struct sigaction g_previous[3], g_previous_later[3];
constexpr int kCrashSignals[3] = {SIGSEGV, SIGBUS, SIGABRT};
// The journal, for the handler; the later call under way (Trials::during), or null.
char g_journal[4096];
const Trials::LaterCall *volatile g_later = nullptr;

void write_all(int fd, const std::string &text) { (void)!::write(fd, text.data(), text.size()); }

// Only async-signal-safe calls: a later call's crash appends its line to the journal (the kernel
// keeps it when the process dies) before the rank says so.
void on_crash(int signal) {
  if (const Trials::LaterCall *later = g_later) {
    const int fd = ::open(g_journal, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd >= 0) {
      write_all(fd, later->line);
      ::close(fd);
    }
    write_all(STDERR_FILENO, later->said);
  } else {
    (void)!::write(STDERR_FILENO, g_crash_line, std::strlen(g_crash_line));
  }
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Trials::Trials(std::string journal, double timeout_s, int rank)
    : journal_(std::move(journal)), timeout_s_(timeout_s), rank_(rank) {
  if (const char *fault = std::getenv("MODELTUNED_CALIBRATE_FAULT")) fault_ = fault;
  fmt::format_to_n(g_journal, sizeof g_journal - 1, "{}{}", journal_, '\0');
  g_journal[sizeof g_journal - 1] = '\0';
  if (rank_ == 0) failures_ = read_trial_journal(journal_);
  watchdog_ = std::thread([this] { watch(); });
}

Trials::~Trials() {
  stop_ = true;
  watchdog_.join();
}

// Rank 0: one line, on disk before the call that may end the process.
void Trials::append(const std::string &line) {
  if (rank_ != 0) return;
  const int fd = ::open(journal_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;  // outputs_usable checked the directory; the trial still runs
  const std::string text = line + "\n";
  if (::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size())) (void)::fsync(fd);
  ::close(fd);
}

void Trials::begin(const std::string &op, const std::string &algorithm, uint64_t bytes, MPI_Comm group) {
  int ranks = 0;
  MPI_Comm_size(group, &ranks);
  current_ = fmt::format("{} {} {} {}", op, algorithm, bytes, ranks);
  described_ = fmt::format("coll/{}'s {} of {} B on {} ranks", algorithm, op, bytes, ranks);
  append("start " + current_);
  deadline_ms_ = now_ms() + static_cast<int64_t>(timeout_s_ * 1000);
  MPI_Barrier(group);
  fmt::format_to_n(g_crash_line, sizeof g_crash_line - 1,
                   "modeltuned-calibrate: rank {}: {} crashed the job. Run the same command again: the "
                   "calibration goes on without it from that size up (journal {})\n{}",
                   rank_, described_, journal_, '\0');
  g_crash_line[sizeof g_crash_line - 1] = '\0';
  struct sigaction crash = {};
  crash.sa_handler = on_crash;
  for (int i = 0; i < 3; ++i) sigaction(kCrashSignals[i], &crash, &g_previous[i]);
  if (!fault_.empty() && fault_ == fmt::format("{}:{}:{}:crash", op, algorithm, bytes)) std::raise(SIGSEGV);
  if (!fault_.empty() && fault_ == fmt::format("{}:{}:{}:hang", op, algorithm, bytes))
    for (;;) pause();  // the watchdog ends it
}

void Trials::end() {
  deadline_ms_ = 0;
  for (int i = 0; i < 3; ++i) sigaction(kCrashSignals[i], &g_previous[i], nullptr);
  append("done " + current_);
}

Trials::LaterCall Trials::later_call(const std::string &op, const std::string &algorithm, uint64_t bytes,
                                     int ranks) const {
  LaterCall call;
  call.line = fmt::format("start {} {} {} {}\n", op, algorithm, bytes, ranks);
  call.said = fmt::format(
      "modeltuned-calibrate: rank {}: coll/{}'s {} of {} B on {} ranks crashed the job after its first call. Run the "
      "same command again: the calibration goes on without it from that size up (journal {})\n",
      rank_, algorithm, op, bytes, ranks, journal_);
  call.inject_crash = !fault_.empty() && fault_ == fmt::format("{}:{}:{}:crash-later", op, algorithm, bytes);
  return call;
}

void Trials::watch_later_calls() {
  struct sigaction crash = {};
  crash.sa_handler = on_crash;
  for (int i = 0; i < 3; ++i) sigaction(kCrashSignals[i], &crash, &g_previous_later[i]);
}

void Trials::unwatch_later_calls() {
  g_later = nullptr;
  for (int i = 0; i < 3; ++i) sigaction(kCrashSignals[i], &g_previous_later[i], nullptr);
}

void Trials::during(const LaterCall *call) { g_later = call; }

void Trials::finished() {
  if (rank_ == 0) (void)std::remove(journal_.c_str());
}

// Polls the deadline; a trial past it says which, journals it as hung (rank 0) and ends the rank.
void Trials::watch() {
  while (!stop_) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const int64_t deadline = deadline_ms_;
    // The other ranks later than rank 0, so that rank 0 journals the hang before mpirun ends it.
    if (deadline == 0 || now_ms() < deadline + (rank_ == 0 ? 0 : 2000)) continue;
    append("hung " + current_);
    fmt::print(stderr,
               "modeltuned-calibrate: rank {}: {} did not end in {} s (--trial-timeout): the job ends here. Run the "
               "same command again: the calibration goes on without it from that size up (journal {})\n",
               rank_, described_, timeout_s_, journal_);
    std::fflush(stderr);
    std::_Exit(kHungStatus);
  }
}

}  // namespace modeltuned::calibrate
