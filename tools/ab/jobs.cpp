#include "tools/ab/jobs.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <optional>
#include <sstream>

#include <fmt/format.h>

namespace modeltuned::ab {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// While a job runs, the signals that end it or the tool arrive through a file descriptor the
// wait polls, so the child's end is seen at once and an interrupt never leaves the job behind.
class SignalWatch {
 public:
  SignalWatch() {
    sigemptyset(&set_);
    for (int s : {SIGCHLD, SIGINT, SIGTERM, SIGHUP}) sigaddset(&set_, s);
    sigprocmask(SIG_BLOCK, &set_, &old_);
    fd_ = signalfd(-1, &set_, SFD_CLOEXEC | SFD_NONBLOCK);
    if (fd_ < 0) throw std::runtime_error(fmt::format("signalfd: {}", std::strerror(errno)));
  }
  ~SignalWatch() {
    close(fd_);
    sigprocmask(SIG_SETMASK, &old_, nullptr);
  }
  SignalWatch(const SignalWatch &) = delete;
  SignalWatch &operator=(const SignalWatch &) = delete;
  int fd() const { return fd_; }
  const sigset_t &old_mask() const { return old_; }
  // The signals that arrived since the last call (SIGCHLD included).
  std::vector<int> take() {
    std::vector<int> got;
    signalfd_siginfo info;
    while (read(fd_, &info, sizeof info) == static_cast<ssize_t>(sizeof info)) got.push_back(int(info.ssi_signo));
    return got;
  }

 private:
  sigset_t set_, old_;
  int fd_ = -1;
};

// In the child: its own process group, stdin from /dev/null, the pipes as stdout and stderr, the
// caller's signal mask; then the program. Only async-signal-safe calls after fork but execvpe.
[[noreturn]] void exec_child(char *const *argv, char *const *envp, int out_fd, int err_fd, const sigset_t &mask) {
  setpgid(0, 0);
  const int null_fd = open("/dev/null", O_RDONLY);
  if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);
  dup2(out_fd, STDOUT_FILENO);
  dup2(err_fd, STDERR_FILENO);
  sigprocmask(SIG_SETMASK, &mask, nullptr);
  execvpe(argv[0], argv, envp);
  const char *why = std::strerror(errno);
  const char *parts[] = {"modeltuned ab: cannot run ", argv[0], ": ", why, "\n"};
  for (const char *p : parts)
    if (write(STDERR_FILENO, p, std::strlen(p)) < 0) break;
  _exit(127);
}

std::vector<char *> c_strings(const std::vector<std::string> &words) {
  std::vector<char *> out;
  for (const auto &w : words) out.push_back(const_cast<char *>(w.c_str()));
  out.push_back(nullptr);
  return out;
}

// The job's two pipes: everything into the log as it arrives, stdout also into a string.
class Pump {
 public:
  explicit Pump(const std::filesystem::path &log) : log_(std::fopen(log.c_str(), "wb")), path_(log) {
    if (!log_) throw std::runtime_error(fmt::format("cannot write {}: {}", log.string(), std::strerror(errno)));
  }
  ~Pump() {
    for (int fd : fds_)
      if (fd >= 0) close(fd);
    if (log_) std::fclose(log_);
  }
  Pump(const Pump &) = delete;
  Pump &operator=(const Pump &) = delete;
  void attach(int stdout_fd, int stderr_fd) { fds_[0] = stdout_fd, fds_[1] = stderr_fd; }
  bool open() const { return fds_[0] >= 0 || fds_[1] >= 0; }
  // Reads what the descriptors `ready` flags have; closes a pipe at its end.
  void drain(const pollfd *polled) {
    char buffer[65536];
    for (int i = 0; i < 2; ++i) {
      if (fds_[i] < 0 || !(polled[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t got = read(fds_[i], buffer, sizeof buffer);
      if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (got <= 0) {
        close(fds_[i]);
        fds_[i] = -1;
        continue;
      }
      std::fwrite(buffer, 1, size_t(got), log_);
      if (i == 0) stdout_text_.append(buffer, size_t(got));
    }
  }
  int fd(int i) const { return fds_[i]; }
  std::string take_stdout() {
    if (std::fflush(log_) != 0)
      throw std::runtime_error(fmt::format("cannot write {}: {}", path_.string(), std::strerror(errno)));
    return std::move(stdout_text_);
  }

 private:
  std::FILE *log_;
  std::filesystem::path path_;
  int fds_[2] = {-1, -1};
  std::string stdout_text_;
};

pid_t start(const JobSpec &job, Pump &pump, const SignalWatch &signals) {
  int out[2], err[2];
  if (pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error(fmt::format("pipe: {}", std::strerror(errno)));
  if (pipe2(err, O_CLOEXEC) != 0) {
    close(out[0]), close(out[1]);
    throw std::runtime_error(fmt::format("pipe: {}", std::strerror(errno)));
  }
  pump.attach(out[0], err[0]);
  const auto argv = c_strings(job.argv), envp = c_strings(job.env);
  const pid_t pid = fork();
  if (pid == 0) exec_child(argv.data(), envp.data(), out[1], err[1], signals.old_mask());
  close(out[1]), close(err[1]);
  if (pid < 0) throw std::runtime_error(fmt::format("fork: {}", std::strerror(errno)));
  setpgid(pid, pid);  // also here, so that a kill right after fork reaches the group
  return pid;
}

}  // namespace

std::string JobResult::status(double timeout_s) const {
  switch (end) {
    case End::exited:
      return code == 0 ? "0" : fmt::format("exit status {}", code);
    case End::signalled:
      return fmt::format("killed by signal {} ({})", code, strsignal(code));
    case End::timed_out:
      return fmt::format("timed out after {:g} s", timeout_s);
  }
  return "";
}

JobResult run_job(const JobSpec &job, const std::filesystem::path &log, const std::function<void()> &tick) {
  SignalWatch signals;
  Pump pump(log);
  JobResult result;
  const auto began = Clock::now();
  const pid_t pid = start(job, pump, signals);
  bool running = true;
  int interrupted = 0;
  std::optional<Clock::time_point> killed_at;  // when SIGTERM went to the group
  Clock::time_point ended = began;
  int status = 0;
  // Until the child is reaped and its pipes are closed; a descendant that keeps a pipe open past
  // the child's end gets two seconds.
  while (running || (pump.open() && seconds_since(ended) < 2)) {
    if (running && !killed_at && (interrupted || (job.timeout_s > 0 && seconds_since(began) > job.timeout_s))) {
      kill(-pid, SIGTERM);
      killed_at = Clock::now();
    } else if (running && killed_at && seconds_since(*killed_at) > 3) {
      kill(-pid, SIGKILL);
    }
    pollfd polled[3] = {{pump.fd(0), POLLIN, 0}, {pump.fd(1), POLLIN, 0}, {signals.fd(), POLLIN, 0}};
    poll(polled, 3, 250);
    pump.drain(polled);
    for (int s : signals.take())
      if (s != SIGCHLD) interrupted = s;
    if (running && waitpid(pid, &status, WNOHANG) == pid) {
      ended = Clock::now();
      running = false;
    }
    if (running && tick) tick();
  }
  result.wall_s = std::chrono::duration<double>(ended - began).count();
  result.stdout_text = pump.take_stdout();
  if (interrupted) throw Interrupted(fmt::format("interrupted by signal {} ({})", interrupted, strsignal(interrupted)));
  if (killed_at) {
    result.end = JobResult::End::timed_out;
  } else if (WIFSIGNALED(status)) {
    result.end = JobResult::End::signalled;
    result.code = WTERMSIG(status);
  } else {
    result.code = WEXITSTATUS(status);
  }
  return result;
}

std::vector<std::string> last_lines(const std::filesystem::path &file, size_t n) {
  std::ifstream in(file, std::ios::binary);
  std::deque<std::string> kept;
  for (std::string line; std::getline(in, line);) {
    kept.push_back(line);
    if (kept.size() > n) kept.pop_front();
  }
  return {kept.begin(), kept.end()};
}

std::string find_on_path(const std::string &name) {
  const char *path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    struct stat st;
    if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return "";
}

}  // namespace modeltuned::ab
