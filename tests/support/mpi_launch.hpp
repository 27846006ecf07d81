// Running MPI programs from Check tests: hermetic mpirun in its own process group, a timeout that
// kills the whole job, each rank's output in its own files. Shared by the MPI test drivers.
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace modeltuned::test {

namespace fs = std::filesystem;

// Paths from configure, each overridable by an environment variable of the same name.
std::string builddir();    // MODELTUNED_TEST_BUILDDIR
std::string srcdir();      // MODELTUNED_TEST_SRCDIR
std::string mpirun();      // MODELTUNED_TEST_MPIRUN
std::string lstopo();      // MODELTUNED_TEST_LSTOPO
std::string table_path();  // MODELTUNED_TEST_TABLE, default the shipped ORFEO table
// The build tree's component directory, then Open MPI's own (the variable replaces the default).
std::string component_path();
// The Open MPI release line the tests run under: "4.1" or "5.0" (configure's OMPI_SERIES;
// MODELTUNED_TEST_OMPI_SERIES overrides).
std::string ompi_series();

// What differs between 4.1's mpirun (ORTE) and 5.0's (PRRTE), in one place.
// mpirun arguments that make it map `np` ranks onto the topology in `xml` (an lstopo XML file),
// bound to emulated cores (half on each package from 16 ranks on, else core by core from the
// first), nothing bound for real, and report the binding of each rank; ranks are told to yield,
// since Open MPI does not know the real node is oversubscribed.
std::vector<std::string> emulated_topology_args(const std::string &xml, int np);
// Text that appears in the launch's output for a rank bound inside emulated package `package`.
std::string bound_to_package_marker(int package);

// Seconds after which one mpirun is killed: MODELTUNED_TEST_RUN_TIMEOUT, else `default_seconds`.
int run_timeout_seconds(int default_seconds);

// A temporary directory removed at the end of the test (Check forks each test).
struct Scratch {
  fs::path dir;
  explicit Scratch(const char *prefix = "modeltuned-test");
  ~Scratch();
  Scratch(const Scratch &) = delete;
  Scratch &operator=(const Scratch &) = delete;
};

std::string read_text(const fs::path &p);
void write_text(const fs::path &p, const std::string &text);
std::vector<std::string> split_lines(const std::string &text);

struct Launch {
  int np = 2;
  std::vector<std::string> mpirun_args;  // after the common ones (--mca ..., --map-by ...)
  std::string program;                   // absolute path
  std::vector<std::string> program_args;
  int timeout_seconds = 240;
  // Tests run more ranks than this machine has cores, where modeltuned steps aside by default
  // (coll_modeltuned_oversubscribed): let it decide unless the test is about that rule.
  bool decide_oversubscribed = true;
  // Words before mpirun, e.g. tools/modeltuned-emulate-nodes NODES --; empty: mpirun itself.
  std::vector<std::string> wrapper;
};

struct LaunchResult {
  std::string command;
  int exit_status = -1;  // mpirun's; -1 when killed
  bool timed_out = false;
  double seconds = 0;
  std::string launcher_output;                          // mpirun's own stdout and stderr
  std::map<int, std::string> rank_stdout, rank_stderr;  // by world rank
};

// Runs `mpirun --oversubscribe -np N --output-filename ... <args> program <program args>` with the
// build tree's component on the path, HOME and XDG_CONFIG_HOME inside `scratch` and no inherited
// OMPI_MCA_coll* settings, so no user configuration or installed table leaks in.
LaunchResult launch_mpi(const fs::path &scratch, const Launch &launch);

}  // namespace modeltuned::test
