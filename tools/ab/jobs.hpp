// Running one job of the A/B: fork and execvp (no shell), in its own process group so that a
// timeout or an interrupt ends mpirun and its ranks together; stdout and stderr written to one
// file in the order they come, stdout also kept for the size tables; the wall time measured on
// the steady clock from fork to the parent's wait.
#pragma once
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace modeltuned::ab {

struct JobSpec {
  std::vector<std::string> argv;
  std::vector<std::string> env;  // NAME=VALUE, the whole environment
  double timeout_s = 0;          // 0: none
};

struct JobResult {
  enum class End { exited, signalled, timed_out };
  End end = End::exited;
  int code = 0;  // the exit status, or the signal
  double wall_s = 0;
  std::string stdout_text;
  bool ok() const { return end == End::exited && code == 0; }
  // "0", "exit status 3", "killed by signal 11 (Segmentation fault)", "timed out after 5 s".
  std::string status(double timeout_s) const;
};

// The tool was told to stop (SIGINT, SIGTERM, SIGHUP) while a job ran; the job was killed.
struct Interrupted : std::runtime_error {
  using runtime_error::runtime_error;
};

// Runs `job`, its output into `log`; `tick` is called a few times a second while it runs (may be
// empty). Throws Interrupted, or std::runtime_error when the log cannot be written or fork fails.
JobResult run_job(const JobSpec &job, const std::filesystem::path &log, const std::function<void()> &tick);

// The last `n` lines of a file.
std::vector<std::string> last_lines(const std::filesystem::path &file, size_t n);

// The program's path if `name` (no slash) is an executable on PATH, else "".
std::string find_on_path(const std::string &name);

}  // namespace modeltuned::ab
