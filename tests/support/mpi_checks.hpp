// Running tests/mpi programs under mpirun with modeltuned, and the checks the MPI test drivers
// share: results reported by the program, modeltuned's trace lines (coll_modeltuned_verbose >= 20)
// read from each rank's own output file, decisions that agree between ranks.
#pragma once
#include <array>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <check.h>

#include "model/registry/registry.hpp"
#include "tests/support/mpi_launch.hpp"

namespace modeltuned::test {

// One mpirun is killed after kRunTimeoutSeconds (MODELTUNED_TEST_RUN_TIMEOUT overrides); it stays
// below the Check timeout of a test case, which holds at most one long run.
inline constexpr int kRunTimeoutSeconds = 240;
inline constexpr int kCaseTimeoutSeconds = 300;

inline bool contains(const std::string &s, const std::string &what) { return s.find(what) != std::string::npos; }

struct MpiRun {
  int np = 2;
  bool modeltuned = true;        // no coll list (selected by priority); false: coll ^modeltuned
  std::string calibration_file;  // empty: parameter not set
  int verbose = 0;               // 0: parameter not set
  // coll_modeltuned_other_cost_us: the tests run another component's pick from its first call
  // (they call each size a few times); empty: parameter not set, the default.
  std::string other_cost_us = "0";
  bool emulate_two_sockets = false;
  // Emulated nodes (tools/modeltuned-emulate-nodes): "nodeA:2,nodeB:2"; empty: this machine only.
  std::string nodes;
  std::vector<std::string> node_env;                     // "NAME:VAR=VALUE", per emulated node
  std::string node_topology;                             // hwloc XML every emulated node gets
  std::vector<std::pair<std::string, std::string>> mca;  // extra --mca NAME VALUE
  std::vector<std::string> program_args;
  std::string program = "collectives";         // in tests/mpi/
  std::vector<std::string> extra_mpirun_args;  // raw, before the program (for example -x NAME=value)
  bool decide_oversubscribed = true;           // see Launch
  std::string coll;                            // non-empty: this coll list instead of the above
  std::vector<std::string> program_prefix;     // runs the program through this command (split_setting)
};

// One modeltuned trace line ("coll:modeltuned:bcast name=... rank=... algorithm=...").
struct TraceLine {
  int world_rank = -1;  // whose output file it came from
  std::string op, name, algorithm;
  long cid = -1, rank = -1, bytes = -1, root = -1, segsize = -1, fanout = -1;
};

struct RunResult : LaunchResult {
  // The program's summary line, from rank 0.
  std::string summary;
  bool passed = false;
  // The program's calls of each op ("<op>_calls="), -1 where it printed none.
  std::array<long, modeltuned::kOpCount> op_calls = [] {
    std::array<long, modeltuned::kOpCount> none;
    none.fill(-1);
    return none;
  }();
  long calls(modeltuned::Op op) const { return op_calls[modeltuned::op_index(op)]; }

  std::vector<std::string> all_lines() const;
  std::vector<std::string> lines_containing(const std::string &what) const;
  std::vector<TraceLine> trace(const std::string &op) const;
  std::string describe() const;
};

// " key=value" fields of a trace or decide line; empty / -1 when absent.
std::string field(const std::string &line, const std::string &key);
long number_field(const std::string &line, const std::string &key);

// Fails the current test with the run's description on stderr (the test log) and a short
// message for Check.
[[noreturn]] void fail_run(const RunResult &r, const std::string &what);
void expect(bool ok, const RunResult &r, const std::string &what);

// Generates the emulated topology: 2 packages x 4 NUMA x 2 L3 x 4 cores (an EPYC-like node).
std::filesystem::path emulated_topology(const std::filesystem::path &dir);

RunResult run_mpi(const MpiRun &run, const std::filesystem::path &scratch);

// Whether the component left `op` ("barrier") whole to Open MPI on some communicator because the
// model keeps the default for every call of it there (verbose 1): those calls are not traced.
// The communicators (cids) on which modeltuned left op whole, the model keeping Open MPI's
// default for every call of it (the verbose-1 line of coll_modeltuned_module.c).
std::set<long> left_as_kept_default(const RunResult &r, const std::string &op);

// The program passed and mpirun finished in time.
void expect_correct(const RunResult &r);
// Every rank of a communicator traced the same calls with the same decisions.
void expect_consistent_decisions(const RunResult &r);
// Modeltuned took every non-empty call on every multi-rank communicator (a trace line per rank
// and call; of an op left whole somewhere, at most that many), the lines are well formed, and the
// decisions agree.
void expect_modeltuned_took_every_call(const RunResult &r);
void expect_no_modeltuned_calls(const RunResult &r);

// The decision file's decisions (coll_modeltuned_decision_file), one JSON object per line, and the
// guard's events in it (records with an "event": "takeback").
std::vector<nlohmann::json> read_decisions(const std::filesystem::path &file);
std::vector<nlohmann::json> read_guard_events(const std::filesystem::path &file);

// `modeltuned explain --json --ompi <the line under test> <placement_args> --op ... --sizes ... --root ...` for every
// decision the run took on MPI_COMM_WORLD (from its decision file) gives the same pick, candidates and Open MPI
// default. Returns how many decisions were compared.
int expect_explain_reproduces(const RunResult &r, const std::filesystem::path &decision_file,
                              const std::string &placement_args);

// The registry's algorithms of `op` as the Open MPI line under test has them, one per number, and
// a later line's under a number it lacks (the component hands those on), in registry order (the
// per-algorithm test loops index them).
std::vector<const modeltuned::AlgorithmSpec *> registered(modeltuned::Op op);

// `run` (5 ranks, say) with `op` restricted to the registry's algorithm `index`: exact results,
// the same decisions on every rank, a trace line per call, and every call ran that algorithm or
// was handed to Open MPI ("fallback": sizes the algorithm cannot run as itself). Returns how many
// calls on communicator `comm` ran it ("" counts every communicator) and expects at least one.
// served_there false: the algorithm's component does not serve `comm` (coll/sm across nodes), so
// no call there may run it, and the results stay right.
long expect_only_algorithm(MpiRun run, modeltuned::Op op, int index, const std::string &comm = "",
                           bool served_there = true);

// Adds to `suite` a test case `name` holding `tests`, with the MPI tests' case timeout.
template <typename... Tests>
TCase *add_case(Suite *suite, const char *name, Tests... tests) {
  TCase *tc = tcase_create(name);
  tcase_set_timeout(tc, kCaseTimeoutSeconds);
  (tcase_add_test(tc, tests), ...);
  suite_add_tcase(suite, tc);
  return tc;
}

// A run with modeltuned, the test table (MODELTUNED_TEST_TABLE) and trace lines.
MpiRun with_modeltuned(int np, int verbose = 20);

// What `cmd` (run by sh) prints on stdout; "" when it cannot be run or exits non-zero.
std::string command_output(const std::string &cmd);

}  // namespace modeltuned::test
