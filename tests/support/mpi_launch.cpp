#include "tests/support/mpi_launch.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

// Last: check.h defines a `fail` macro that breaks the standard streams.
#include <check.h>

extern char **environ;

namespace modeltuned::test {

static std::string setting(const char *env_name, const char *built_in) {
  const char *v = std::getenv(env_name);
  return v && *v ? v : built_in;
}

std::string builddir() { return setting("MODELTUNED_TEST_BUILDDIR", MODELTUNED_TEST_BUILDDIR); }
std::string srcdir() { return setting("MODELTUNED_TEST_SRCDIR", MODELTUNED_TEST_SRCDIR); }
std::string mpirun() { return setting("MODELTUNED_TEST_MPIRUN", MODELTUNED_TEST_MPIRUN); }
std::string lstopo() { return setting("MODELTUNED_TEST_LSTOPO", MODELTUNED_TEST_LSTOPO); }
// The shipped ORFEO table without its checks: the checks cover only the data set's own
// communicator shapes, so in the small placements of these tests the component would keep Open
// MPI's default for every call (docs/model.md#margin) and the tests would not see it decide. The
// checks rule itself is unit-tested (check_model, check_calibration). make check writes it into
// the build tree before any test runs (tests/support/write_test_table.cpp).
std::string table_path() {
  if (const char *v = std::getenv("MODELTUNED_TEST_TABLE"); v && *v) return v;
  return builddir() + "/tests/orfeo-epyc-unchecked.json";
}
std::string component_path() {
  return builddir() + "/mca-components:" + setting("MODELTUNED_TEST_OMPI_MCA_DIR", MODELTUNED_TEST_OMPI_MCA_DIR);
}

std::string ompi_series() { return setting("MODELTUNED_TEST_OMPI_SERIES", MODELTUNED_TEST_OMPI_SERIES); }
static bool prrte() { return ompi_series() != "4.1"; }

std::vector<std::string> emulated_topology_args(const std::string &xml, int np) {
  // Half the ranks on each package from 16 on; fewer fill package 0's first L3 and NUMA node core by
  // core. (5.0's PRRTE starts as many ranks as a ppr mapping names, whatever -np says.)
  const std::string ppr = np >= 16 ? "ppr:" + std::to_string(np / 2) + ":socket" : "core";
  // 4.1: ORTE and the ranks read the file (hwloc_base_topo_file); rtc ^hwloc keeps the binding
  // to emulated cores in the mapping only. 5.0: PRRTE reads it (prte hwloc_use_topo_file) and
  // passes it to the ranks through PMIx; its --report-bindings says nothing when rtc is off, so
  // the job map (--display map) reports the binding. 6.0's PRRTE 5 has no rtc and binds each rank
  // as it starts it: if-supported leaves a rank on a core this machine lacks unbound instead of
  // failing the job (a "not bound" notice), and the ranks still see the mapping's places.
  if (!prrte())
    return {"--mca", "hwloc_base_topo_file", xml, "--mca",     "rtc",  "^hwloc",
            "--mca", "mpi_yield_when_idle",  "1", "--bind-to", "core", "--map-by",
            ppr,     "--report-bindings"};
  return {"--prtemca",
          "hwloc_use_topo_file",
          xml,
          "--prtemca",
          "rtc",
          "^hwloc",
          "--mca",
          "mpi_yield_when_idle",
          "1",
          "--bind-to",
          "core:if-supported",
          "--map-by",
          ppr,
          "--display",
          "map"};
}

std::string bound_to_package_marker(int package) {
  return prrte() ? "Bound: package[" + std::to_string(package) + "]" : "bound to SK" + std::to_string(package) + ":";
}

int run_timeout_seconds(int default_seconds) {
  const char *v = std::getenv("MODELTUNED_TEST_RUN_TIMEOUT");
  return v && *v ? std::atoi(v) : default_seconds;
}

Scratch::Scratch(const char *prefix) {
  std::string templ = std::string("/tmp/") + prefix + "-XXXXXX";
  ck_assert_msg(mkdtemp(templ.data()) != nullptr, "mkdtemp failed: %s", strerror(errno));
  dir = templ;
}

Scratch::~Scratch() {
  std::error_code ec;
  fs::permissions(dir, fs::perms::owner_all, fs::perm_options::add, ec);
  fs::remove_all(dir, ec);
}

std::string read_text(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const fs::path &p, const std::string &text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
  ck_assert_msg(out.good(), "cannot write %s", p.c_str());
}

std::vector<std::string> split_lines(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

namespace {

// A directory of its own for one mpirun's session directory (Open MPI's TMPDIR): two mpiruns
// creating the shared /tmp/ompi.<host>.<uid> at once race on it ("mkdir ... File exists"), and
// jobs of other users of the machine must not see ours. Short, under /tmp or TMPDIR, because
// PMIx's socket paths inside it are limited to 108 characters.
fs::path session_tmpdir() {
  const char *base = std::getenv("TMPDIR");
  std::string pattern = std::string(base && *base ? base : "/tmp") + "/mt-mpi.XXXXXX";
  ck_assert_msg(mkdtemp(pattern.data()) != nullptr, "cannot create a session directory: %s", strerror(errno));
  return pattern;
}

}  // namespace

LaunchResult launch_mpi(const fs::path &scratch, const Launch &launch) {
  const fs::path outdir = scratch / "rank-output", launcher_file = scratch / "mpirun-output.txt",
                 config_home = scratch / "config-home", session = session_tmpdir();
  fs::remove_all(outdir);
  fs::create_directories(config_home);

  std::vector<std::string> argv = launch.wrapper;
  argv.push_back(mpirun());
  if (geteuid() == 0) argv.push_back("--allow-run-as-root");
  argv.insert(argv.end(), {"--oversubscribe", "-np", std::to_string(launch.np)});
  if (!prrte()) {
    argv.insert(argv.end(), {"--output-filename", outdir.string() + ":nocopy", "-x",
                             "OMPI_MCA_mca_base_component_path=" + component_path()});
  } else {
    // PRRTE does not forward -x OMPI_MCA_* to the ranks; --mca does (its PMIx also reads the path,
    // hence show_load_errors 0 in the child's environment below). Only shared memory between the
    // ranks of one node: the TCP BTL warns about interfaces it cannot pair, on stderr.
    // Emulated nodes (a wrapper) talk TCP between them.
    argv.insert(argv.end(), {"--mca", "mca_base_component_path", component_path(), "--mca", "btl",
                             launch.wrapper.empty() ? "self,sm" : "self,sm,tcp"});
  }
  argv.insert(argv.end(), {"-x", "HOME", "-x", "XDG_CONFIG_HOME"});
  if (launch.decide_oversubscribed) argv.insert(argv.end(), {"--mca", "coll_modeltuned_oversubscribed", "1"});
  // Under --oversubscribe PRRTE's default mapping (by package) fills the first node before the
  // next: emulated nodes get the slot order of the hostfile unless the test maps otherwise.
  const bool maps =
      std::find(launch.mpirun_args.begin(), launch.mpirun_args.end(), "--map-by") != launch.mpirun_args.end();
  if (prrte() && !launch.wrapper.empty() && !maps) argv.insert(argv.end(), {"--map-by", "slot"});
  argv.insert(argv.end(), launch.mpirun_args.begin(), launch.mpirun_args.end());
  if (prrte()) {
    // 5.0.7's PMIx loses each rank's stderr under --output dir=... (PMIX_ERR_EXISTS for the rank's
    // directory; openpmix/openpmix#3651, fixed after 5.0.7), so each rank writes its own files in
    // the layout 4.1's --output-filename uses.
    argv.insert(argv.end(),
                {"/bin/sh", "-c",
                 "d=\"$0/rank.$OMPI_COMM_WORLD_RANK\"; mkdir -p \"$d\" && exec \"$@\" >\"$d/stdout\" 2>\"$d/stderr\"",
                 (outdir / "job").string()});
  }
  argv.push_back(launch.program);
  argv.insert(argv.end(), launch.program_args.begin(), launch.program_args.end());

  LaunchResult result;
  for (const auto &a : argv) result.command += (result.command.empty() ? "" : " ") + a;
  const auto began = std::chrono::steady_clock::now();
  pid_t pid = fork();
  ck_assert_msg(pid >= 0, "fork failed: %s", strerror(errno));
  if (pid == 0) {
    setpgid(0, 0);  // its own process group, so a timeout can kill mpirun and its ranks
    int fd = open(launcher_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) _exit(127);
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, STDIN_FILENO);
    // Sanitizer builds: LeakSanitizer cannot attribute what Open MPI's components, unloaded by
    // MPI_Finalize, leave allocated (unknown modules, truncated stacks), so it stays off in the
    // ranks; address and undefined-behaviour checks stay on (tests/sanitizers/README.md).
    if (const char *asan = std::getenv("ASAN_OPTIONS"); asan && *asan)
      setenv("ASAN_OPTIONS", (std::string(asan) + ":detect_leaks=0").c_str(), 1);
    setenv("HOME", scratch.c_str(), 1);
    if (prrte()) setenv("PMIX_MCA_mca_base_component_show_load_errors", "0", 1);
    setenv("XDG_CONFIG_HOME", config_home.c_str(), 1);
    setenv("TMPDIR", session.c_str(), 1);
    std::vector<std::string> drop;
    for (char **e = environ; *e; ++e)
      if (std::strncmp(*e, "OMPI_MCA_coll", 13) == 0 || std::strncmp(*e, "OMPI_MCA_mca_base_component_path", 32) == 0)
        drop.emplace_back(*e, std::strchr(*e, '=') - *e);
    for (const auto &name : drop) unsetenv(name.c_str());
    std::vector<char *> cargv;
    for (const auto &a : argv) cargv.push_back(const_cast<char *>(a.c_str()));
    cargv.push_back(nullptr);
    execv(cargv[0], cargv.data());
    std::fprintf(stderr, "cannot execute %s: %s\n", cargv[0], strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid);

  int status = 0;
  const auto deadline = began + std::chrono::seconds(launch.timeout_seconds);
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      result.timed_out = true;
      kill(-pid, SIGTERM);
      std::this_thread::sleep_for(std::chrono::seconds(3));
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  result.exit_status = WIFEXITED(status) && !result.timed_out ? WEXITSTATUS(status) : -1;
  result.launcher_output = read_text(launcher_file);
  std::error_code ec;
  fs::remove_all(session, ec);

  // --output-filename DIR writes DIR/<job>/rank.<r>/{stdout,stderr}.
  if (fs::is_directory(outdir, ec))
    for (const auto &job : fs::directory_iterator(outdir))
      for (const auto &rankdir : fs::directory_iterator(job.path())) {
        const std::string name = rankdir.path().filename().string();
        if (name.rfind("rank.", 0) != 0) continue;
        const int rank = std::atoi(name.c_str() + 5);
        result.rank_stdout[rank] = read_text(rankdir.path() / "stdout");
        result.rank_stderr[rank] = read_text(rankdir.path() / "stderr");
      }
  return result;
}

}  // namespace modeltuned::test
