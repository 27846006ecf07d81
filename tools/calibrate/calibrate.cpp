// `modeltuned calibrate`: runs the user's calibration command (an mpirun of modeltuned-calibrate)
// until it completes. Another component's algorithm that crashes or hangs the calibration's job
// (in its first call at a size, its trial, or a crash in a later one: docs/calibration.md) is
// journaled, and the run after it leaves that algorithm out from that size up. This runs it again
// by itself while each run that fails leaves a failure the journal had not recorded before, and
// stops at anything else. The tool has no MPI:
// the command's output goes straight to the terminal, progress bar included.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "calib/trial_journal.hpp"
#include "common/cli.hpp"
#include "tools/commands.hpp"

namespace modeltuned::tools {
namespace {

constexpr const char *kName = "modeltuned calibrate";

struct CalibrateOptions {
  std::vector<std::string> command;
  bool command_given = false;
  int attempts = 10;
  std::string journal = "modeltuned-calibrate.trials";
};

// A signal that ends the tool's wait (SIGINT, SIGTERM, SIGHUP): no run follows, since the call it
// interrupted did not fail. SIGTERM and SIGHUP, sent to the tool alone (a batch system's), are
// passed on to the command; a Ctrl-C reaches mpirun from the terminal already, and a second one
// would make it kill the ranks before the calibrator writes what it measured.
volatile std::sig_atomic_t g_signal = 0;
volatile pid_t g_child = 0;

void on_signal(int signal) {
  g_signal = signal;
  if (g_child > 0 && signal != SIGINT) kill(g_child, signal);
}

struct RunEnd {
  int status = 0;  // the exit status, or 128 + the signal
  std::string said;
};

// Runs the command with the journal named in its environment and waits for it.
RunEnd run_once(const std::vector<std::string> &command, const std::string &journal) {
  std::vector<char *> argv;
  for (const std::string &word : command) argv.push_back(const_cast<char *>(word.c_str()));
  argv.push_back(nullptr);
  if (setenv(kTrialJournalVariable, journal.c_str(), 1) != 0)
    throw std::runtime_error(fmt::format("setenv: {}", std::strerror(errno)));
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(fmt::format("fork: {}", std::strerror(errno)));
  if (pid == 0) {
    execvp(argv[0], argv.data());
    fmt::print(stderr, "{}: cannot run {}: {}\n", kName, argv[0], std::strerror(errno));
    std::fflush(stderr);
    _exit(127);
  }
  g_child = pid;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  g_child = 0;
  if (WIFSIGNALED(status))
    return {128 + WTERMSIG(status),
            fmt::format("killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)))};
  return {WEXITSTATUS(status), fmt::format("exit status {}", WEXITSTATUS(status))};
}

bool same(const UnusableCandidate &a, const UnusableCandidate &b) {
  return a.op == b.op && a.algorithm == b.algorithm && a.from_bytes == b.from_bytes && a.ranks == b.ranks;
}

std::string failed_trial(const UnusableCandidate &u) {
  return fmt::format("coll/{}'s {} of {} B on {} ranks {}", u.algorithm, u.op, u.from_bytes, u.ranks, u.why);
}
std::string left_out(const UnusableCandidate &u) {
  return fmt::format("coll/{}'s {} from {} B up on {} ranks ({})", u.algorithm, u.op, u.from_bytes, u.ranks, u.why);
}

// The trials in `after` that `before` did not have.
std::vector<UnusableCandidate> new_failures(const std::vector<UnusableCandidate> &before,
                                            const std::vector<UnusableCandidate> &after) {
  std::vector<UnusableCandidate> out;
  for (const UnusableCandidate &u : after)
    if (std::none_of(before.begin(), before.end(), [&](const UnusableCandidate &b) { return same(u, b); }))
      out.push_back(u);
  return out;
}

std::string joined(const std::vector<UnusableCandidate> &failures, std::string (*say)(const UnusableCandidate &)) {
  std::string out;
  for (const UnusableCandidate &u : failures) out += (out.empty() ? "" : "; ") + say(u);
  return out;
}

int run_calibrate(const CalibrateOptions &o) {
  struct sigaction action = {};
  action.sa_handler = on_signal;
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaction(s, &action, nullptr);
  const std::string journal = std::filesystem::absolute(o.journal).string();
  const std::vector<UnusableCandidate> at_start = read_trial_journal(journal);
  for (int run = 1;; ++run) {
    const std::vector<UnusableCandidate> before = read_trial_journal(journal);
    const RunEnd end = run_once(o.command, journal);
    if (g_signal) {
      fmt::print(stderr, "{}: stopped by signal {} ({}); the command ended with {}\n", kName, int(g_signal),
                 strsignal(g_signal), end.said);
      return end.status != 0 ? end.status : 128 + g_signal;
    }
    if (end.status == 0) {  // the calibrator removed its journal
      const std::vector<UnusableCandidate> by_these_runs = new_failures(at_start, before);
      if (!by_these_runs.empty())
        fmt::print(stderr, "{}: the calibration completed in run {}, leaving out {}\n", kName, run,
                   joined(by_these_runs, left_out));
      return 0;
    }
    const std::vector<UnusableCandidate> after = read_trial_journal(journal);
    const std::vector<UnusableCandidate> failed = new_failures(before, after);
    if (failed.empty()) {
      fmt::print(stderr,
                 "{}: run {} ended with {}, not where another component's algorithm crashed or hung (journal {}): not "
                 "running it again\n",
                 kName, run, end.said, journal);
      if (after.empty()) std::filesystem::remove(journal);
      return end.status;
    }
    if (run >= o.attempts) {
      fmt::print(stderr,
                 "{}: run {} ended where {} too; giving up after {} runs (--attempts). The journal {} keeps "
                 "what failed: the same command goes on from there\n",
                 kName, run, joined(failed, failed_trial), run, journal);
      return end.status;
    }
    fmt::print(stderr, "{}: run {} ended where {}: running the calibration again without it (run {} of at most {})\n",
               kName, run, joined(failed, failed_trial), run + 1, o.attempts);
    std::fflush(stderr);
  }
}

}  // namespace

void add_calibrate_command(CLI::App &app, const std::optional<std::vector<std::string>> &command) {
  auto o = std::make_shared<CalibrateOptions>();
  o->command_given = command.has_value();
  if (command) o->command = *command;
  CLI::App *cmd = app.add_subcommand(
      "calibrate",
      "modeltuned calibrate [OPTIONS] -- COMMAND [ARGS...]: run a calibration command (mpirun ... "
      "modeltuned-calibrate ...) until it completes. A run that another component's algorithm ends by crashing or "
      "hanging is run again, without that algorithm from that size up, as long as each such run ends in a failure "
      "the journal had not recorded; anything else ends the tool with the command's status. Rank 0 of the "
      "calibration finds the journal through the environment variable MODELTUNED_CALIBRATE_JOURNAL: mpirun passes "
      "it to the ranks on its own node; add -x MODELTUNED_CALIBRATE_JOURNAL where rank 0 runs on another one");
  cmd->add_option("--attempts", o->attempts, "the most runs of the command")
      ->check(cli::whole_number(1, 1000))
      ->capture_default_str();
  cmd->add_option("--journal", o->journal,
                  "the trials' journal (removed when the calibration completes; kept when the runs give up, so that "
                  "the same command goes on from there)")
      ->capture_default_str();
  cmd->callback([o] {
    if (!o->command_given || o->command.empty()) {
      fmt::print(stderr,
                 "{}: give the calibration command after --, e.g. modeltuned calibrate -- mpirun -np 16 "
                 "--bind-to core modeltuned-calibrate -o table.json (see {} --help)\n",
                 kName, kName);
      std::exit(cli::kUsageError);
    }
    try {
      std::exit(run_calibrate(*o));
    } catch (const std::exception &e) {
      fmt::print(stderr, "{}: {}\n", kName, e.what());
      std::exit(1);
    }
  });
}

}  // namespace modeltuned::tools
