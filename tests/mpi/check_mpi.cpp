// MPI tests of the modeltuned component: tests/mpi/collectives under mpirun, with results checked
// by the program itself and modeltuned's trace lines (coll_modeltuned_verbose >= 20) read from
// each rank's own output file, so lines of different ranks never interleave.
//
// Paths come from the build (tests/mpi.mk) and can be overridden from the environment:
// MODELTUNED_TEST_BUILDDIR, MODELTUNED_TEST_SRCDIR, MODELTUNED_TEST_MPIRUN, MODELTUNED_TEST_LSTOPO,
// MODELTUNED_TEST_OMPI_MCA_DIR, MODELTUNED_TEST_TABLE (the calibration table used by the runs),
// MODELTUNED_TEST_RUN_TIMEOUT (seconds before a run is killed).
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/capi/modeltuned_model.h"
#include "model/collectives/family.hpp"
#include "model/registry/registry.hpp"
#include "tests/support/mpi_checks.hpp"

// Last: check.h defines a fail() macro that breaks the standard headers.
#include "tests/support/run_suite.h"

namespace fs = std::filesystem;
using modeltuned::Op;

namespace {

using namespace modeltuned::test;

// Four ranks, MCA variable `variable` = `first` on world ranks 0-1 and `second` on 2-3, running
// collectives with `args`: two app contexts under 4.1; under 5.0, whose prterun (PRRTE 3.0.8)
// dies of SIGSEGV on any command line with two app contexts, one context whose ranks set their
// own value before MPI_Init reads it.
void split_setting(MpiRun &run, const std::string &variable, const std::string &first, const std::string &second,
                   const std::vector<std::string> &args) {
  run.program_args = args;
  if (ompi_series() == "4.1") {
    run.extra_mpirun_args = {"-x", "OMPI_MCA_" + variable + "=" + first};
    run.program_args.insert(
        run.program_args.end(),
        {":", "-np", "2", "-x", "OMPI_MCA_mca_base_component_path=" + component_path(), "-x", "HOME", "-x",
         "XDG_CONFIG_HOME", "-x", "OMPI_MCA_" + variable + "=" + second, builddir() + "/tests/mpi/" + run.program});
    run.program_args.insert(run.program_args.end(), args.begin(), args.end());
    return;
  }
  run.np = 4;
  run.program_prefix = {"/bin/sh", "-c",
                        "if [ \"$OMPI_COMM_WORLD_RANK\" -lt 2 ]; then export OMPI_MCA_" + variable + "='" + first +
                            "'; else export OMPI_MCA_" + variable + "='" + second + "'; fi; exec \"$@\"",
                        "split-setting"};
}

// ---- correctness and proof, per process count ----------------------------------------------

// Every op, allreduce too (commutative and not, in place every other call), and the barrier.
RunResult full_suite(int np, std::vector<std::string> args, bool emulate = false) {
  Scratch scratch("modeltuned-mpi");
  MpiRun run = with_modeltuned(np);
  run.program_args = std::move(args);
  run.program_args.push_back("--ops=bcast,reduce,noncommutative,allreduce,barrier,allgather,alltoall");
  run.emulate_two_sockets = emulate;
  RunResult r = run_mpi(run, scratch.dir);
  expect_correct(r);
  expect_modeltuned_took_every_call(r);
  for (int rank = 0; rank < np; ++rank)
    for (const std::string op : {"bcast", "reduce", "allreduce", "barrier", "allgather", "alltoall"})
      expect(contains(r.rank_stderr[rank], "coll:modeltuned:" + op + " ") || !left_as_kept_default(r, op).empty(), r,
             "world rank " + std::to_string(rank) + " has no " + op +
                 " trace line, and modeltuned did not leave the op whole to Open MPI");
  // Rank 0 of each communicator explains its decisions at verbose >= 10.
  const auto decided = r.lines_containing("coll:modeltuned:decide ");
  expect(!decided.empty(), r, "no decide lines at verbose 20");
  // The evidence in the test log: how many decisions, under which Open MPI line, and one of them.
  std::fprintf(stderr, "np %d%s under Open MPI %s: %zu decide lines, e.g. %s\n", np,
               emulate ? " (emulated 2 sockets)" : "", ompi_series().c_str(), decided.size(), decided.front().c_str());
  return r;
}

START_TEST(np2) { full_suite(2, {}); }
END_TEST

// Which component owns bcast and reduce, with han loaded (5.0 enables it by default at priority
// 35): Open MPI enables modules in increasing priority, so modeltuned (40) is enabled after tuned
// (30) and takes the slots; on one node han declines (docs/user-guide.md, "Beside coll/han").
START_TEST(component_order) {
  Scratch scratch("modeltuned-mpi");
  MpiRun run = with_modeltuned(2);
  run.coll = "modeltuned,han,tuned,libnbc,basic,self";
  run.mca.emplace_back("coll_base_verbose", "10");
  run.program_args = {"--comms=world", "--max-bytes=4096"};
  RunResult r = run_mpi(run, scratch.dir);
  expect_correct(r);
  expect_modeltuned_took_every_call(r);
  long tuned_at = -1, modeltuned_at = -1, han_enabled = 0, line = 0;
  for (const auto &l : split_lines(r.rank_stderr[0])) {
    ++line;
    if (!contains(l, "coll:base:comm_select: selecting")) continue;
    if (contains(l, " tuned, priority  30, Enabled") && tuned_at < 0) tuned_at = line;
    if (contains(l, "modeltuned, priority  40, Enabled") && modeltuned_at < 0) modeltuned_at = line;
    if (contains(l, " han, priority") && contains(l, "Enabled")) ++han_enabled;
  }
  expect(tuned_at > 0 && modeltuned_at > tuned_at, r,
         "rank 0 did not enable tuned (30) and then modeltuned (40) on its communicators");
  if (ompi_series() != "4.1") {
    expect(!r.lines_containing("comm has only local processes; disqualifying myself").empty(), r,
           "han did not decline the single-node communicator");
    expect(han_enabled == 0, r, "han was enabled on a single-node communicator");
  }
}
END_TEST
START_TEST(np3) { full_suite(3, {}); }
END_TEST
START_TEST(np4) { full_suite(4, {}); }
END_TEST
// Oversubscribed 4x: fewer roots for the large cases.
START_TEST(np8) { full_suite(8, {"--all-roots-bytes=16384"}); }
END_TEST
// 16 ranks on an emulated 2-socket node: ranks 0-7 on socket 0 (two L3s), 8-15 on socket 1, so
// the "cache", "core" and "socket" channels all occur.
START_TEST(np16_emulated_two_sockets) {
  const RunResult r = full_suite(16, {"--max-bytes=1048576", "--all-roots-bytes=4096"}, true);
  // The emulation itself worked: mpirun mapped ranks onto both emulated sockets.
  // (4.1's --report-bindings lines land in the ranks' stderr files, 5.0's job map in mpirun's)
  expect(!r.lines_containing(bound_to_package_marker(0)).empty() &&
             !r.lines_containing(bound_to_package_marker(1)).empty(),
         r, "mpirun did not bind ranks to both emulated sockets");

  // ...and it reached modeltuned: the same calls on the real single-L3 node (every pair on the
  // "cache" channel) are predicted differently.
  Scratch scratch("modeltuned-mpi");
  MpiRun plain = with_modeltuned(16, 10);
  plain.mca.emplace_back("mpi_yield_when_idle", "1");
  plain.program_args = {"--comms=world", "--ops=bcast,reduce", "--max-bytes=65536", "--all-roots-bytes=0"};
  const RunResult p = run_mpi(plain, scratch.dir);
  expect_correct(p);
  auto world_decisions = [](const RunResult &run) {
    std::map<std::string, std::string> out;  // "op bytes root" -> "pick predicted_us"
    for (const auto &d : run.lines_containing("coll:modeltuned:decide "))
      if (contains(d, " name=MPI_COMM_WORLD "))
        out[field(d, "op") + " " + field(d, "bytes") + " " + field(d, "root")] =
            field(d, "pick") + " " + field(d, "predicted_us");
    return out;
  };
  const auto emulated = world_decisions(r), real = world_decisions(p);
  int compared = 0, differing = 0;
  for (const auto &[call, decision] : real) {
    auto e = emulated.find(call);
    if (e == emulated.end()) continue;
    ++compared;
    differing += e->second != decision;
  }
  std::fprintf(stderr, "emulated vs real node: %d of %d decisions differ\n", differing, compared);
  expect(compared > 0 && differing > 0, p,
         "decisions on the emulated 2-socket node equal those on the real node (" + std::to_string(compared) +
             " calls compared): modeltuned did not see the emulated topology");
}
END_TEST

START_TEST(baseline_without_modeltuned) {
  Scratch scratch("modeltuned-mpi");
  MpiRun run = with_modeltuned(4);
  run.modeltuned = false;
  RunResult r = run_mpi(run, scratch.dir);
  expect_correct(r);
  expect(r.lines_containing("coll:modeltuned").empty(), r, "modeltuned printed although excluded");
}
END_TEST

// ---- observing modeltuned: MPI_T counters, the decision file, explain -------------------------

// "op bytes root" of a call, as the decision cache keys it: size class = bit length of the bytes.
std::string decision_key(const std::string &op, long bytes, long root) {
  int size_class = 0;
  for (unsigned long b = static_cast<unsigned long>(bytes); b; b >>= 1) ++size_class;
  return op + " " + std::to_string(size_class) + " " + std::to_string(root);
}

// What the calls of a decision run, as the trace names it: a kept default is Open MPI's
// ("fallback"), whatever algorithm the previous component runs.
std::string what_runs(const nlohmann::json &decision) {
  return decision.value("kept_default", false) ? "fallback" : decision["pick"]["name"].get<std::string>();
}

// The MPI_T counters and the decision file agree with the calls modeltuned traced.
START_TEST(counters_and_decision_file_match_what_ran) {
  Scratch scratch("modeltuned-mpi");
  MpiRun run = with_modeltuned(4);
  run.program = "observe";
  const fs::path decisions = scratch.dir / "decisions-%r.jsonl";
  run.mca.emplace_back("coll_modeltuned_decision_file", decisions.string());
  RunResult r = run_mpi(run, scratch.dir);
  expect(r.exit_status == 0, r, "observe failed");
  for (int rank = 0; rank < run.np; ++rank) {
    // Counters: calls per algorithm number, from the trace lines of this rank.
    std::map<std::string, long> traced, counted;
    for (const std::string op : {"bcast", "reduce"})
      for (const auto &t : r.trace(op)) {
        if (t.world_rank != rank) continue;
        const auto *info = modeltuned::find_algorithm(op == "bcast" ? Op::bcast : Op::reduce, t.algorithm);
        ++traced[op + " " + std::to_string(t.algorithm == "fallback" ? 0 : info ? info->id : -1)];
      }
    for (const std::string &line : split_lines(r.rank_stdout[rank])) {
      expect(!contains(line, "missing"), r, "MPI_T counter not found: " + line);
      if (line.rfind("pvar ", 0) != 0) continue;
      std::istringstream in(line.substr(5));
      std::string op;
      int alg;
      long calls;
      in >> op >> alg >> calls;
      counted[op + " " + std::to_string(alg)] = calls;
    }
    expect(!traced.empty() && traced == counted, r,
           "world rank " + std::to_string(rank) + ": MPI_T counters differ from the traced calls");
    // Decision file: every traced call ran the pick recorded for its size class and root.
    fs::path file = scratch.dir / ("decisions-" + std::to_string(rank) + ".jsonl");
    std::map<std::string, std::string> picks;
    for (const auto &d : read_decisions(file)) picks[decision_key(d["op"], d["bytes"], d["root"])] = what_runs(d);
    for (const std::string op : {"bcast", "reduce"})
      for (const auto &t : r.trace(op)) {
        if (t.world_rank != rank) continue;
        auto it = picks.find(decision_key(op, t.bytes, t.root));
        expect(it != picks.end() && it->second == t.algorithm, r,
               "world rank " + std::to_string(rank) + ": " + op + " of " + std::to_string(t.bytes) + " B ran " +
                   t.algorithm + ", the decision file says " + (it == picks.end() ? "nothing" : it->second));
      }
  }
}
END_TEST

// Every root twice round, at several sizes: each (op, size class, root) is decided exactly once
// (the model never runs again for a decision it made), and the calls still run what was decided.
START_TEST(rotating_roots_decide_once) {
  Scratch scratch("modeltuned-mpi");
  MpiRun run = with_modeltuned(4, 20);
  run.program = "observe";
  run.program_args = {"--rotate-roots", "1", "4096", "65536"};
  const fs::path decisions = scratch.dir / "decisions-%r.jsonl";
  run.mca.emplace_back("coll_modeltuned_decision_file", decisions.string());
  RunResult r = run_mpi(run, scratch.dir);
  expect(r.exit_status == 0, r, "observe --rotate-roots failed");
  for (int rank = 0; rank < run.np; ++rank) {
    std::map<std::string, std::string> picks;
    for (const auto &d : read_decisions(scratch.dir / ("decisions-" + std::to_string(rank) + ".jsonl"))) {
      const std::string key = decision_key(d["op"], d["bytes"], d["root"]);
      expect(picks.emplace(key, what_runs(d)).second, r,
             "world rank " + std::to_string(rank) + " decided " + key + " twice");
    }
    // 4 roots x (3 bcast sizes + 2 reduce sizes).
    expect(picks.size() == 4 * 5, r,
           "world rank " + std::to_string(rank) + ": " + std::to_string(picks.size()) + " decisions, expected 20");
    for (const std::string op : {"bcast", "reduce"})
      for (const auto &t : r.trace(op))
        if (t.world_rank == rank) {
          auto it = picks.find(decision_key(op, t.bytes, t.root));
          expect(it != picks.end() && it->second == t.algorithm, r,
                 op + " of " + std::to_string(t.bytes) + " B at root " + std::to_string(t.root) + " ran " +
                     t.algorithm + " against its decision");
        }
  }
}
END_TEST

// The table readable on some ranks only (node-local files): every rank must decline together at
// communicator creation, one line names a rank without it, and nothing hangs. Two app contexts of
// mpirun give the two halves different files (-x applies per context).
START_TEST(table_missing_on_some_ranks) {
  Scratch scratch("modeltuned-mpi");
  MpiRun run = with_modeltuned(2, 0);
  run.calibration_file.clear();
  run.mca.clear();
  // Ranks 0-1: a good table; ranks 2-3: a missing one.
  split_setting(run, "coll_modeltuned_calibration_file", table_path(), (scratch.dir / "no-such-table.json").string(),
                {"--comms=world", "--max-bytes=4096"});
  RunResult r = run_mpi(run, scratch.dir);
  expect(!r.timed_out && r.exit_status == 0, r, "the job failed or hung with the table missing on some ranks");
  const auto lines = r.lines_containing("has no usable calibration table");
  expect(lines.size() == 1 && contains(lines[0], "rank 2") && contains(lines[0], "no-such-table.json") &&
             contains(lines[0], "No such file"),
         r,
         "expected one line naming rank 2 as without a table, its file and why, got " + std::to_string(lines.size()));
  for (int rank = 0; rank < 4; ++rank) expect(contains(r.rank_stdout[rank], "PASS") || rank != 0, r, "results wrong");
}
END_TEST

// A decision file that cannot be written: one line naming the parameter and the path, the calls
// still run (and are still modeltuned's).
START_TEST(unwritable_decision_file) {
  Scratch scratch("modeltuned-mpi");
  MpiRun run = with_modeltuned(3, 20);
  run.program = "observe";
  const std::string path = (scratch.dir / "no-such-dir" / "decisions.jsonl").string();
  run.mca.emplace_back("coll_modeltuned_decision_file", path);
  RunResult r = run_mpi(run, scratch.dir);
  expect(r.exit_status == 0, r, "observe failed with an unwritable decision file");
  const auto complaints = r.lines_containing("coll_modeltuned_decision_file");
  expect(complaints.size() == 1 && contains(complaints[0], path), r,
         "expected exactly one line naming coll_modeltuned_decision_file and " + path + ", got " +
             std::to_string(complaints.size()));
  expect(!r.trace("bcast").empty() && r.trace("bcast")[0].algorithm != "fallback", r,
         "modeltuned stopped deciding because of the decision file");
}
END_TEST

// Two app contexts of two ranks each, started with `variable` set to `first` and `second`:
// every rank reads what all ranks published at start-up, so all step aside together on every
// communicator, with one report naming ranks 0 and 2.
void expect_start_up_mismatch_falls_back(const std::string &variable, const std::string &first,
                                         const std::string &second) {
  Scratch scratch("modeltuned-mpi");
  MpiRun run = with_modeltuned(2, 20);
  split_setting(run, variable, first, second, {"--comms=world,dup", "--max-bytes=4096"});
  RunResult r = run_mpi(run, scratch.dir);
  expect(r.exit_status == 0 && !r.timed_out && r.passed, r,
         "wrong results, or the job failed or hung with a different " + variable + " per rank");
  const auto complaints = r.lines_containing("use different algorithm lists, objectives, guard or tuned settings");
  expect(complaints.size() == 1 && contains(complaints[0], "ranks 0 and 2"), r,
         "expected one line naming ranks 0 and 2 as using different algorithm lists, objectives, guard or tuned "
         "settings, got " +
             std::to_string(complaints.size()));
  expect_no_modeltuned_calls(r);
}

// Ranks that allow different algorithms (written through MPI_T, against its "all" scope) would
// decide differently and deadlock: the communicator must fall back on every rank, with one line.
START_TEST(mismatched_algorithm_lists_fall_back_together) {
  expect_start_up_mismatch_falls_back("coll_modeltuned_bcast_algorithms", "binomial", "linear");
}
END_TEST

// Ranks minimising different objectives would pick differently: the same.
START_TEST(mismatched_objectives_fall_back_together) {
  expect_start_up_mismatch_falls_back("coll_modeltuned_objective", "completion", "rank_mean");
}
END_TEST

// Ranks whose guards would compare at different calls would not meet in the same agreement: the
// same.
START_TEST(mismatched_guard_settings_fall_back_together) {
  expect_start_up_mismatch_falls_back("coll_modeltuned_guard_samples", "4", "8");
}
END_TEST

// An algorithm the user forced through tuned is their choice (an A/B run, a workaround):
// modeltuned leaves that op to tuned, says so once, and still decides the other op.
START_TEST(tuned_forced_algorithm_is_left_to_tuned) {
  Scratch scratch("modeltuned-mpi");
  MpiRun run = with_modeltuned(4, 20);
  run.mca.insert(run.mca.end(), {{"coll_tuned_use_dynamic_rules", "1"}, {"coll_tuned_bcast_algorithm", "6"}});
  run.program_args = {"--comms=world,dup", "--max-bytes=65536"};
  RunResult r = run_mpi(run, scratch.dir);
  expect_correct(r);
  expect(r.trace("bcast").empty(), r, "modeltuned took bcast calls although tuned was told to run binomial");
  expect(!r.trace("reduce").empty(), r, "modeltuned stopped deciding reduce, which tuned was not told about");
  const auto said = r.lines_containing(
      "leaves bcast to tuned: coll_tuned_use_dynamic_rules is set and "
      "coll_tuned_bcast_algorithm=6 forces an algorithm");
  expect(!said.empty() && contains(said.front(), "cid=0 "), r,
         "no line on MPI_COMM_WORLD saying modeltuned leaves bcast to tuned and why");
}
END_TEST

// A tuned rules file may cover any op: modeltuned declines the communicator, naming the file.
START_TEST(tuned_rules_file_leaves_every_op_to_tuned) {
  Scratch scratch("modeltuned-mpi");
  const fs::path rules = scratch.dir / "rules.conf";
  // Tuned's format: collectives, then per collective its id (7: bcast), communicator sizes, and
  // per size the message sizes with algorithm, fan-in/out, segment size (6: binomial).
  write_text(rules, "1\n7\n1\n4\n1\n0 6 0 0\n");
  MpiRun run = with_modeltuned(4, 20);
  run.mca.insert(run.mca.end(),
                 {{"coll_tuned_use_dynamic_rules", "1"}, {"coll_tuned_dynamic_rules_filename", rules.string()}});
  run.program_args = {"--comms=world,dup", "--max-bytes=65536"};
  RunResult r = run_mpi(run, scratch.dir);
  expect_correct(r);
  expect_no_modeltuned_calls(r);
  expect(!r.lines_containing("declining: tuned runs what the user told it for bcast, reduce, allreduce, barrier, "
                             "allgather and alltoall: "
                             "coll_tuned_use_dynamic_rules is set with the rules file")
              .empty(),
         r, "no line saying modeltuned declines because of tuned's rules file");
}
END_TEST

// Tuned's reduce forced on ranks 2-3 only would have those ranks leave reduce to tuned and the
// others decide it: every rank steps aside together (only bcast runs, so tuned's own reduce,
// which now differs between ranks, never executes).
START_TEST(tuned_forced_on_some_ranks_falls_back_together) {
  Scratch scratch("modeltuned-mpi");
  MpiRun run = with_modeltuned(2, 20);
  run.mca.emplace_back("coll_tuned_use_dynamic_rules", "1");
  split_setting(run, "coll_tuned_reduce_algorithm", "0", "2", {"--comms=world,dup", "--ops=bcast", "--max-bytes=4096"});
  RunResult r = run_mpi(run, scratch.dir);
  expect(r.exit_status == 0 && !r.timed_out && r.passed, r,
         "wrong results, or the job failed or hung with tuned's reduce forced on some ranks only");
  const auto complaints = r.lines_containing("use different algorithm lists, objectives, guard or tuned settings");
  expect(complaints.size() == 1 && contains(complaints[0], "ranks 0 and 2"), r,
         "expected one line naming ranks 0 and 2 as using different tuned settings, got " +
             std::to_string(complaints.size()));
  expect_no_modeltuned_calls(r);
}
END_TEST

// An unknown objective: modeltuned names the parameter, the value and the valid ones on rank 0's
// stderr (Open MPI's own enum message goes through a relay that sometimes loses it), the default
// (completion) stays, and modeltuned goes on deciding.
START_TEST(unknown_objective_is_named_and_default_kept) {
  Scratch scratch("modeltuned-mpi");
  MpiRun run = with_modeltuned(2, 20);
  run.program_args = {"--max-bytes=4096"};
  run.mca.emplace_back("coll_modeltuned_objective", "fastest");
  RunResult r = run_mpi(run, scratch.dir);
  expect(r.exit_status == 0 && !r.timed_out && r.passed, r, "the job failed or hung with an unknown objective");
  expect(!r.lines_containing("coll:modeltuned: parameter coll_modeltuned_objective='fastest'").empty() &&
             !r.lines_containing("completion, rank_mean").empty(),
         r, "no modeltuned line naming coll_modeltuned_objective, the value and the valid ones");
  expect(!r.trace("bcast").empty(), r, "modeltuned stopped tracing calls with an unknown objective");
}
END_TEST

// `modeltuned explain --ompi <the line under test>` on the same placement gives exactly the
// component's decisions: 16 ranks on the emulated 2-socket node, 8 per socket, bound to cores.
START_TEST(explain_matches_the_component) {
  Scratch scratch("modeltuned-mpi");
  MpiRun run = with_modeltuned(16, 1);
  run.program = "observe";
  run.emulate_two_sockets = true;
  const fs::path decisions = scratch.dir / "decisions.jsonl";
  run.mca.emplace_back("coll_modeltuned_decision_file", decisions.string());
  RunResult r = run_mpi(run, scratch.dir);
  expect(r.exit_status == 0, r, "observe failed");
  const int compared = expect_explain_reproduces(
      r, decisions,
      "--synthetic 'pack:2 numa:4 l3:2 core:4' --map-by ppr:8:socket --bind-to core -np 16 --table '" + table_path() +
          "'");
  expect(compared >= 9, r, "only " + std::to_string(compared) + " decisions of MPI_COMM_WORLD to compare");
  std::fprintf(stderr, "explain reproduced %d component decisions exactly\n", compared);
}
END_TEST

// The rules file `modeltuned export-rules` writes makes plain Open MPI run what modeltuned decides:
// on 8 ranks of the emulated 2-socket node (one package, core by core) and on the communicators of
// their first 2..7, for every size class up to 256 KiB of bcast, reduce, allreduce, allgather and
// alltoall, and barrier, the same ompi_coll_base_* function with the same segment size, fan-out and request
// limit (tests/mpi/rule_runs.c interposes them). The file is the line's classic one under 4.1 and
// 5.0, and JSON under 6.0 (the format 6.0 introduced). Tuned reads the file silently, and falls back to
// its fixed rules on one it cannot read, so the test also requires calls that the fixed rules
// would have run differently.
START_TEST(rules_file_runs_the_decisions) {
  Scratch scratch("modeltuned-mpi");
  const bool json = ompi_series() >= "6.0";
  const fs::path rules = scratch.dir / (json ? "rules.json" : "rules.conf");
  const std::string export_cmd =
      builddir() + "/tools/modeltuned export-rules --ompi " + ompi_series() + (json ? " --format json" : "") +
      " --synthetic 'pack:2 numa:4 l3:2 core:4' --map-by core --bind-to core -np 8 --table '" + table_path() +
      "' --commutative-only --max-bytes 256K -o '" + rules.string() + "' && echo written";
  ck_assert_msg(command_output(export_cmd).find("written") != std::string::npos, "export-rules failed: %s",
                export_cmd.c_str());

  auto sweep = [&](bool with_modeltuned_loaded) {
    MpiRun run = with_modeltuned(8, 0);
    run.program = "rule_runs";
    run.program_args = {"--max-bytes=262144"};
    run.emulate_two_sockets = true;
    if (with_modeltuned_loaded) {
      run.mca.emplace_back("coll_modeltuned_guard", "0");  // every call of a class runs the pick
    } else {
      run.modeltuned = false;
      run.calibration_file.clear();
      run.mca.emplace_back("coll_tuned_use_dynamic_rules", "1");
      run.mca.emplace_back("coll_tuned_dynamic_rules_filename", rules.string());
    }
    return run_mpi(run, scratch.dir);
  };
  const RunResult decided = sweep(true), ruled = sweep(false);
  for (const RunResult *r : {&decided, &ruled})
    expect(r->exit_status == 0 && !r->lines_containing("rule_runs: done").empty(), *r, "the sweep failed");
  const auto runs = [](const RunResult &r) {
    std::map<std::string, std::string> by_call;  // "op ranks bytes" -> what ran
    for (const std::string &line : r.lines_containing("rule_runs: op="))
      by_call[field(line, "op") + " " + field(line, "ranks") + " " + field(line, "bytes")] =
          "algorithm=" + field(line, "algorithm") + " segsize=" + field(line, "segsize") +
          " fanout=" + field(line, "fanout") + " max_requests=" + field(line, "max_requests") +
          " calls=" + field(line, "calls");
    return by_call;
  };
  const auto want = runs(decided), got = runs(ruled);
  expect(want.size() == got.size() && want.size() == 7 * (1 + 19 + 16 + 16 + 19 + 19), ruled,
         "the two sweeps made " + std::to_string(want.size()) + " and " + std::to_string(got.size()) + " calls");
  int differs_from_fixed = 0;
  for (const auto &[call, ran] : want) {
    const auto other = got.find(call);
    expect(other != got.end() && other->second == ran, ruled,
           call + ": modeltuned ran " + ran + ", tuned under the rules " +
               (other == got.end() ? std::string("nothing") : other->second));
    std::istringstream words(call);
    std::string op;
    long ranks = 0, bytes = 0;
    words >> op >> ranks >> bytes;
    const auto family = modeltuned::find_collective(op);
    const int mt_op = family ? static_cast<int>(*family) : -1;
    const long tuned_bytes = op == "allgather" ? bytes * ranks : bytes;  // alltoall's rule: one block
    if (other != got.end() &&
        field(" " + other->second, "algorithm") != std::to_string(mt_fixed_rule(mt_op, tuned_bytes, ranks, 1, nullptr)))
      ++differs_from_fixed;
  }
  expect(differs_from_fixed > 0, ruled, "every call ran tuned's fixed rule: the rules file was not applied");
  for (const std::string &line : ruled.all_lines())
    expect(line.find("rule_runs:") != std::string::npos ||
               (line.find("rule") == std::string::npos && line.find("tuned") == std::string::npos),
           ruled, "Open MPI said something of the rules file: " + line);
  std::fprintf(stderr, "rules file: %zu calls ran as modeltuned decided, %d of them not as tuned's fixed rule\n",
               want.size(), differs_from_fixed);
}
END_TEST

// ---- one algorithm at a time ------------------------------------------------------------
// 5 ranks: not a power of two, so trees are ragged. Another component's algorithm that serves
// larger communicators only (coll/acoll's comm_size_thresh: 16) runs on 16 ranks, where it does,
// under the line that has it (elsewhere its calls go to Open MPI's default, which under 4.1 gets
// an alltoall of 16 ranks whose datatypes differ wrong, with or without modeltuned).
int ranks_for(const modeltuned::AlgorithmSpec &spec, int ranks) {
  const auto line = modeltuned::parse_ompi_version(ompi_series());
  if (!spec.serves || !line || !modeltuned::in_release(spec, *line)) return ranks;
  const modeltuned::CallShape call{spec.op, 1, 4, 0, true};
  for (int np : {ranks, 16})
    if (spec.serves(call, modeltuned::Placement(std::vector<modeltuned::RankPlace>(np, {0, 0, 0, 0, -1})))) return np;
  return ranks;
}
void only_algorithm(Op op, int index) {
  expect_only_algorithm(with_modeltuned(ranks_for(*registered(op)[index], 5)), op, index);
}
START_TEST(bcast_one_algorithm) { only_algorithm(Op::bcast, _i); }
END_TEST
START_TEST(reduce_one_algorithm) { only_algorithm(Op::reduce, _i); }
END_TEST
START_TEST(allreduce_one_algorithm) { only_algorithm(Op::allreduce, _i); }
END_TEST
// two_proc runs on two ranks only (Open MPI fails it on others, and the model never picks it there).
START_TEST(barrier_one_algorithm) {
  const modeltuned::AlgorithmSpec &spec = *registered(Op::barrier)[_i];
  expect_only_algorithm(with_modeltuned(spec.runs_only_on != 0 ? spec.runs_only_on : ranks_for(spec, 5)), Op::barrier,
                        _i);
}
END_TEST
// On the first of 5, 6 and 8 ranks where Open MPI runs it as itself (recursive doubling needs a
// power of two, neighbor exchange an even size). An algorithm of a later line (sparbit under 4.1,
// 6.0's under 4.1 and 5.0): the component finds no function for it, says so, and hands every call
// on (expect_only_algorithm).
START_TEST(allgather_one_algorithm) {
  const modeltuned::AlgorithmSpec &spec = *registered(Op::allgather)[_i];
  int np = spec.runs_only_on;
  for (int size : {5, 6, 8})
    if (np == 0 && (!spec.runs_instead || !spec.runs_instead({Op::allgather, spec.id}, {Op::allgather, 1000}, size)))
      np = size;
  expect_only_algorithm(with_modeltuned(ranks_for(spec, np)), Op::allgather, _i);
}
END_TEST
// On 5 ranks, where every alltoall algorithm but two_proc runs as itself; two_proc on 2.
START_TEST(alltoall_one_algorithm) {
  const modeltuned::AlgorithmSpec &spec = *registered(Op::alltoall)[_i];
  expect_only_algorithm(with_modeltuned(spec.runs_only_on != 0 ? spec.runs_only_on : ranks_for(spec, 5)), Op::alltoall,
                        _i);
}
END_TEST
// Tuned's numbers work as well as names, and a list allows exactly its members.
START_TEST(algorithm_list_by_number) {
  Scratch scratch("modeltuned-mpi");
  MpiRun run = with_modeltuned(4);
  run.mca.emplace_back("coll_modeltuned_bcast_algorithms", "2,6");
  run.mca.emplace_back("coll_modeltuned_reduce_algorithms", "1,4");
  run.program_args = {"--ops=bcast,reduce", "--comms=world", "--max-bytes=300000"};
  RunResult r = run_mpi(run, scratch.dir);
  expect_correct(r);
  expect_modeltuned_took_every_call(r);
  for (const auto &t : r.trace("bcast"))
    expect(t.algorithm == "chain" || t.algorithm == "binomial", r, "bcast 2,6 ran " + t.algorithm);
  for (const auto &t : r.trace("reduce"))
    expect(t.algorithm == "linear" || t.algorithm == "binary", r, "reduce 1,4 ran " + t.algorithm);
}
END_TEST

// ---- non-commutative reductions -----------------------------------------------------------

// Open MPI 4.1's only reduce algorithms that combine operands in rank order.
bool order_preserving(const std::string &algorithm) { return algorithm == "linear" || algorithm == "in_order_binary"; }

START_TEST(noncommutative_only_order_preserving) {
  Scratch scratch("modeltuned-mpi");
  MpiRun run = with_modeltuned(5);
  // All but Rabenseifner: a narrowed list, so the model itself picks (no margin keeping Open
  // MPI's default) and must pick an order-preserving algorithm.
  run.mca.emplace_back("coll_modeltuned_reduce_algorithms", "linear,chain,pipeline,binary,binomial,in_order_binary");
  run.program_args = {"--ops=noncommutative"};
  RunResult r = run_mpi(run, scratch.dir);
  expect_correct(r);
  expect_modeltuned_took_every_call(r);
  const auto lines = r.trace("reduce");
  for (const auto &t : lines) expect(order_preserving(t.algorithm), r, "non-commutative reduce ran " + t.algorithm);
  // Only the reductions: Open MPI's own MPI_Comm_split gathers the colours with the parent's
  // MPI_Allgather, which modeltuned decides too.
  const auto decisions = r.lines_containing("coll:modeltuned:decide ");
  expect(
      std::any_of(decisions.begin(), decisions.end(), [](const std::string &d) { return contains(d, " op=reduce "); }),
      r, "no reduce decide lines at verbose 20");
  for (const auto &d : decisions)
    expect(!contains(d, " op=reduce ") || contains(d, " noncommutative "), r,
           "decision not marked non-commutative: " + d);
}
END_TEST

// Restricted to an algorithm that would reorder operands: the result must still be right, so
// modeltuned may only fall back or use an order-preserving algorithm.
START_TEST(noncommutative_with_only_reordering_algorithms_allowed) {
  Scratch scratch("modeltuned-mpi");
  MpiRun run = with_modeltuned(4);
  run.mca.emplace_back("coll_modeltuned_reduce_algorithms", "binomial,binary");
  run.program_args = {"--ops=noncommutative"};
  RunResult r = run_mpi(run, scratch.dir);
  expect_correct(r);
  // Neither allowed algorithm keeps the order, so every call goes to Open MPI's own decision.
  const auto lines = r.trace("reduce");
  expect(static_cast<long>(lines.size()) == r.calls(Op::reduce), r, "not every reduce call was traced");
  for (const auto &t : lines) expect(t.algorithm == "fallback", r, "non-commutative reduce ran " + t.algorithm);
}
END_TEST

// ---- bad input: Open MPI's defaults run, one clear line, no modeltuned call ---------------

// The first number stored under `key` anywhere in `j` (depth first), or null.
nlohmann::json *find_number(nlohmann::json &j, const std::string &key) {
  if (j.is_object()) {
    auto it = j.find(key);
    if (it != j.end() && it->is_number()) return &*it;
  }
  if (j.is_structured())
    for (auto &v : j)
      if (auto *leaf = find_number(v, key)) return leaf;
  return nullptr;
}

nlohmann::json real_table() {
  std::ifstream in(srcdir() + "/calib/tables/orfeo-epyc.json");  // with its checks (table_path() has none)
  ck_assert_msg(in.good(), "calibration table %s not readable", table_path().c_str());
  nlohmann::json j = nlohmann::json::parse(in);
  ck_assert_msg(j.contains("version") && j.contains("channels") && j["channels"].is_object() && !j["channels"].empty(),
                "%s has no \"version\" or no \"channels\": update this test to the table format", table_path().c_str());
  return j;
}

nlohmann::json &number_in_channels(nlohmann::json &table, const std::string &key) {
  nlohmann::json *leaf = find_number(table["channels"], key);
  ck_assert_msg(leaf != nullptr, "no number \"%s\" in the table's channels: update this test", key.c_str());
  return *leaf;
}

struct BadInput {
  const char *name;
  // Prepares the bad input in `dir`; returns the parameter to set and the text the one line must
  // name (the file path or the parameter).
  std::function<void(const fs::path &dir, MpiRun &run, std::string &named)> prepare;
};

void bad_table_file(const fs::path &path, const std::string &text, MpiRun &run, std::string &named) {
  write_text(path, text);
  run.calibration_file = named = path.string();
}

const BadInput bad_inputs[] = {
    {"missing file", [](const fs::path &dir, MpiRun &run,
                        std::string &named) { run.calibration_file = named = (dir / "no-such-table.json").string(); }},
    {"file inside a missing directory",
     [](const fs::path &dir, MpiRun &run, std::string &named) {
       run.calibration_file = named = (dir / "no-such-dir" / "table.json").string();
     }},
    // Root reads a mode-000 file anyway, so as root a directory stands in for an unreadable file.
    {"unreadable file (a directory when run as root)",
     [](const fs::path &dir, MpiRun &run, std::string &named) {
       fs::path p = dir / "unreadable.json";
       if (geteuid() == 0) {
         fs::create_directory(p);
       } else {
         write_text(p, real_table().dump());
         fs::permissions(p, fs::perms::none);
       }
       run.calibration_file = named = p.string();
     }},
    {"not JSON", [](const fs::path &dir, MpiRun &run,
                    std::string &named) { bad_table_file(dir / "not-json.json", "this is not JSON {\n", run, named); }},
    {"wrong version",
     [](const fs::path &dir, MpiRun &run, std::string &named) {
       auto j = real_table();
       j["version"] = 999;
       bad_table_file(dir / "wrong-version.json", j.dump(2), run, named);
     }},
    {"no channels",
     [](const fs::path &dir, MpiRun &run, std::string &named) {
       auto j = real_table();
       j["channels"] = nlohmann::json::object();
       bad_table_file(dir / "no-channels.json", j.dump(2), run, named);
     }},
    {"negative value",
     [](const fs::path &dir, MpiRun &run, std::string &named) {
       // a slope, which no fit can make negative (a flat-tree intercept may legitimately be)
       auto j = real_table();
       number_in_channels(j, "beta_us_per_byte") = -1e-6;
       bad_table_file(dir / "negative.json", j.dump(2), run, named);
     }},
    // JSON has no NaN: the closest a file gets is a string where a number belongs.
    {"string in a number field",
     [](const fs::path &dir, MpiRun &run, std::string &named) {
       auto j = real_table();
       number_in_channels(j, "alpha_us") = "NaN";
       bad_table_file(dir / "string-number.json", j.dump(2), run, named);
     }},
    {"unknown bcast algorithm",
     [](const fs::path &, MpiRun &run, std::string &named) {
       run.mca.emplace_back(named = "coll_modeltuned_bcast_algorithms", "bogus");
     }},
    {"unknown reduce algorithm in a list",
     [](const fs::path &, MpiRun &run, std::string &named) {
       run.mca.emplace_back(named = "coll_modeltuned_reduce_algorithms", "linear,bogus");
     }},
    {"guard samples out of range",
     [](const fs::path &, MpiRun &run, std::string &named) {
       run.mca.emplace_back(named = "coll_modeltuned_guard_samples", "1");
     }},
    {"guard budget out of range",
     [](const fs::path &, MpiRun &run, std::string &named) {
       run.mca.emplace_back(named = "coll_modeltuned_guard_budget", "0");
     }},
    {"guard tolerance out of range",
     [](const fs::path &, MpiRun &run, std::string &named) {
       run.mca.emplace_back(named = "coll_modeltuned_guard_tolerance", "-0.5");
     }},
};
constexpr int kBadInputs = sizeof bad_inputs / sizeof *bad_inputs;

START_TEST(bad_input) {
  const BadInput &bad = bad_inputs[_i];
  std::fprintf(stderr, "bad input: %s\n", bad.name);
  Scratch scratch("modeltuned-mpi");
  const std::vector<std::string> small = {"--max-bytes=65536", "--all-roots-bytes=4096"};

  // Default verbosity: exactly one line from modeltuned, naming the file or parameter.
  MpiRun quiet = with_modeltuned(3, 0);
  quiet.program_args = small;
  std::string named;
  bad.prepare(scratch.dir, quiet, named);
  RunResult r = run_mpi(quiet, scratch.dir);
  expect_correct(r);
  const auto lines = r.lines_containing("coll:modeltuned");
  expect(lines.size() == 1 && contains(lines[0], named), r,
         std::string(bad.name) + ": expected exactly one modeltuned line naming '" + named + "', got " +
             std::to_string(lines.size()));
  std::fprintf(stderr, "  the line: %s\n", lines[0].c_str());
  // ...from the help file (mca/coll/modeltuned/help-coll-modeltuned.txt), found from the build tree.
  expect(r.lines_containing("Fix: ").size() == 1 && r.lines_containing("Sorry!").empty(), r,
         std::string(bad.name) + ": the message does not say how to fix it (help file not found?)");

  // Verbose: still correct, and modeltuned took no call.
  MpiRun loud = quiet;
  loud.verbose = 20;
  RunResult v = run_mpi(loud, scratch.dir);
  expect_correct(v);
  expect_no_modeltuned_calls(v);
}
END_TEST

// ---- no calibration table configured ------------------------------------------------------

bool system_table_installed() {
  return fs::exists(fs::path(MODELTUNED_TEST_SYSCONFDIR) / "modeltuned" / "calibration.json");
}

START_TEST(no_table_steps_aside_quietly) {
  ck_assert_msg(!system_table_installed(),
                "%s/modeltuned/calibration.json exists, so the component always finds a table; "
                "this test needs a machine without an installed table",
                MODELTUNED_TEST_SYSCONFDIR);
  Scratch scratch("modeltuned-mpi");
  MpiRun run = with_modeltuned(3, 0);
  run.calibration_file.clear();
  run.program_args = {"--max-bytes=65536"};
  RunResult r = run_mpi(run, scratch.dir);
  expect_correct(r);
  expect(r.lines_containing("coll:modeltuned").empty(), r, "modeltuned printed without being asked to");
  run.verbose = 20;
  RunResult v = run_mpi(run, scratch.dir);
  expect_correct(v);
  expect_no_modeltuned_calls(v);
}
END_TEST

// The default location ($XDG_CONFIG_HOME/modeltuned/calibration.json) is found without the
// parameter.
START_TEST(table_found_in_config_home) {
  Scratch scratch("modeltuned-mpi");
  fs::create_directories(scratch.dir / "config-home" / "modeltuned");
  fs::copy_file(table_path(), scratch.dir / "config-home" / "modeltuned" / "calibration.json");
  MpiRun run = with_modeltuned(3);
  run.calibration_file.clear();
  run.program_args = {"--max-bytes=65536", "--comms=world"};
  RunResult r = run_mpi(run, scratch.dir);
  expect_correct(r);
  expect_modeltuned_took_every_call(r);
}
END_TEST

// On a node Open MPI runs oversubscribed (here: one slot, two ranks, on any machine) modeltuned
// steps aside on every rank, says why at verbose 1, and decides again when allowed to.
START_TEST(oversubscribed_node_steps_aside) {
  Scratch scratch("modeltuned-mpi");
  MpiRun run = with_modeltuned(2);
  run.extra_mpirun_args = {"--host", "localhost:1"};
  run.program_args = {"--max-bytes=65536", "--comms=world"};
  run.decide_oversubscribed = false;
  RunResult r = run_mpi(run, scratch.dir);
  expect_correct(r);
  expect_no_modeltuned_calls(r);
  const auto why =
      r.lines_containing("MPI_COMM_WORLD: declining: rank 0 of this communicator runs on an oversubscribed node");
  // Every rank declines for the same reason; its rank 0 says so, once.
  expect(why.size() == 1 && why.front().find("coll_modeltuned_oversubscribed 1") != std::string::npos, r,
         "expected one line naming coll_modeltuned_oversubscribed for MPI_COMM_WORLD");
  run.decide_oversubscribed = true;
  RunResult allowed = run_mpi(run, scratch.dir);
  expect_correct(allowed);
  expect_modeltuned_took_every_call(allowed);
}
END_TEST

// Loading a table leaves the application's malloc as Open MPI alone leaves it: the same large
// sizes come from mmap after MPI_Init (tests/mpi/heap_state.c), with a table as this machine's
// calibration writes it (600 KB). Read in one block, such a table raised glibc's mmap threshold
// and moved the application's 160 KiB - 1 MiB buffers to the heap. Not under AddressSanitizer,
// whose malloc glibc's mallinfo2 does not see: both runs would say "heap" for every size.
#ifndef __SANITIZE_ADDRESS__
START_TEST(loading_a_table_leaves_malloc_as_it_was) {
  Scratch scratch("modeltuned-mpi");
  Launch calibration;
  calibration.mpirun_args = {"--mca", "coll", "^modeltuned"};
  calibration.program = builddir() + "/calib/modeltuned-calibrate";
  const fs::path table = scratch.dir / "calibration.json";
  calibration.program_args = {"--budget", "20", "-o", table.string()};
  const LaunchResult c = launch_mpi(scratch.dir, calibration);
  ck_assert_msg(c.exit_status == 0 && fs::exists(table), "%s failed:\n%s", c.command.c_str(),
                c.launcher_output.c_str());
  std::string lines[2];
  for (const bool loaded : {false, true}) {
    MpiRun run = with_modeltuned(2, 0);
    run.calibration_file = table.string();
    if (!loaded) run.coll = "^modeltuned";
    run.program = "heap_state";
    RunResult r = run_mpi(run, scratch.dir);
    const auto line = r.lines_containing("heap_state: ");
    expect(r.exit_status == 0 && line.size() == 1, r, "heap_state failed");
    lines[loaded] = line.front();
  }
  ck_assert_msg(lines[0] == lines[1], "with modeltuned and a %ju-byte table: '%s'; without modeltuned: '%s'",
                static_cast<uintmax_t>(fs::file_size(table)), lines[1].c_str(), lines[0].c_str());
  std::fprintf(stderr, "without modeltuned and with a %ju-byte table: %s\n",
               static_cast<uintmax_t>(fs::file_size(table)), lines[1].c_str());
}
END_TEST
#endif

// Where no check of the table covers a communicator (here: the shipped table's reduce checks removed,
// its bcast checks moved onto this test's 2-rank communicator in one L3), the model would keep Open
// MPI's default for every call of that op, so modeltuned leaves the op to the previous component at
// enable and costs it nothing: no reduce call passes through it (no trace line), rank 0 says so
// once per communicator at verbose 1, bcast still goes through it, and every result is right.
START_TEST(unchecked_op_left_to_the_previous_component) {
  Scratch scratch("modeltuned-mpi");
  std::ifstream in(srcdir() + "/calib/tables/orfeo-epyc.json");  // with its checks (table_path() has none)
  nlohmann::json table = nlohmann::json::parse(in);
  nlohmann::json &checks = table["checks"]["residuals"];
  ck_assert_msg(checks.is_array() && !checks.empty(), "the test table has no checks");
  nlohmann::json kept = nlohmann::json::array();
  for (auto c : checks)
    if (c.value("op", "") != "reduce") {
      c["from_ranks"] = 2;
      c["below_ranks"] = 3;
      c["neighbors"] = c["widest"] = "cache";
      kept.push_back(c);
    }
  ck_assert_msg(kept.size() < checks.size(), "the test table has no reduce checks");
  checks = kept;
  const fs::path bcast_only = scratch.dir / "bcast-checks-only.json";
  std::ofstream(bcast_only) << table.dump();
  MpiRun run = with_modeltuned(2);
  run.calibration_file = bcast_only.string();
  // Both ranks in one emulated L3, the shape the bcast checks now cover, whatever this machine's
  // caches are (a VM whose cores sit in separate L3s has a shape they do not).
  run.emulate_two_sockets = true;
  run.program_args = {"--comms=world", "--max-bytes=65536"};
  RunResult r = run_mpi(run, scratch.dir);
  expect_correct(r);
  expect(r.calls(Op::reduce) > 0 && r.trace("reduce").empty(), r, "modeltuned took reduce calls no check covers");
  expect(!r.trace("bcast").empty(), r, "modeltuned left bcast too, which the table's checks cover");
  const auto said = r.lines_containing("leaves reduce to tuned: no check");
  expect(said.size() == 1 && contains(said.front(), "cid=0 "), r,
         "expected one line for MPI_COMM_WORLD saying modeltuned leaves reduce, got " + std::to_string(said.size()));
}
END_TEST

// ---- the command lines users are told to type -------------------------------------------

// Intercommunicator collectives (bcast, reduce, scatter, allreduce and barrier, from each side)
// under both documented forms: modeltuned selected by its priority, with no coll list (it declines
// intercommunicators and coll/inter serves them, while it still takes the job's other calls), and
// the baseline --mca coll ^modeltuned.
START_TEST(intercommunicators) {
  Scratch scratch("modeltuned-mpi");
  MpiRun run = with_modeltuned(4, 1);
  run.program_args = {"--comms=world,inter", "--max-bytes=65536"};
  RunResult r = run_mpi(run, scratch.dir);
  expect_correct(r);
  expect(!r.lines_containing("declining: intercommunicator").empty(), r,
         "no intercommunicator was declined at verbose 1: the program made none, or modeltuned took it");
  // The job's intracommunicator calls still go through modeltuned, and so do those coll/inter
  // makes on each group's local communicator (its bcast and reduce within a group), which the
  // program does not count.
  run.verbose = 20;
  RunResult traced = run_mpi(run, scratch.dir);
  expect_correct(traced);
  expect(static_cast<long>(traced.trace("bcast").size()) >= traced.calls(Op::bcast) &&
             static_cast<long>(traced.trace("reduce").size()) >= traced.calls(Op::reduce),
         traced, "modeltuned traced fewer calls than the program made on its intracommunicators");
  run.modeltuned = false;
  RunResult baseline = run_mpi(run, scratch.dir);
  expect_correct(baseline);
  expect(baseline.lines_containing("coll:modeltuned").empty(), baseline, "modeltuned printed although excluded");
}
END_TEST

// A coll list that leaves out a component the job needs (inter; han under 5.0) is named in one
// line at verbose 0 by world rank 0; a list with them says nothing.
START_TEST(coll_list_leaving_out_inter_is_named) {
  Scratch scratch("modeltuned-mpi");
  MpiRun run = with_modeltuned(2, 0);
  run.coll = "modeltuned,tuned,libnbc,basic,self";
  run.program_args = {"--comms=world", "--max-bytes=4096"};
  RunResult r = run_mpi(run, scratch.dir);
  expect_correct(r);
  const auto said = r.lines_containing("coll:modeltuned: the coll component list");
  expect(
      said.size() == 1 && contains(said.front(), "'" + run.coll + "'") && contains(said.front(), "coll/inter") &&
          contains(said.front(), "coll/han") == (ompi_series() != "4.1"),
      r,
      "expected one line naming the list and coll/inter (and coll/han under 5.0), got " + std::to_string(said.size()));
  run.coll = std::string("modeltuned,tuned,inter,libnbc,basic,self") + (ompi_series() == "4.1" ? "" : ",han");
  RunResult complete = run_mpi(run, scratch.dir);
  expect_correct(complete);
  expect(complete.lines_containing("coll:modeltuned: the coll component list").empty(), complete,
         "a complete coll list was reported");
}
END_TEST

// ---- the checker itself can fail -------------------------------------------------------

// Tuned forced to its binomial reduce ignores that the operation is non-commutative: the checker
// must catch the reordered product (else every passing run above proves nothing).
START_TEST(checker_catches_reordered_reduction) {
  Scratch scratch("modeltuned-mpi");
  MpiRun run = with_modeltuned(4, 0);
  run.modeltuned = false;
  run.mca = {{"coll_tuned_use_dynamic_rules", "1"}, {"coll_tuned_reduce_algorithm", "5"}};
  run.program_args = {"--ops=noncommutative", "--comms=world", "--max-bytes=4096"};
  RunResult r = run_mpi(run, scratch.dir);
  // The ranks report and exit 1; Open MPI 5.0's launcher (PRRTE 3.0) then tears the failed job
  // down and once in CI never finished doing so. What is tested here is the checker, so a launcher
  // killed after its timeout counts as long as the ranks reported the mismatches.
  expect((r.exit_status != 0 || r.timed_out) && !r.passed && contains(r.summary, "collectives: FAIL") &&
             !r.lines_containing("collectives: MISMATCH").empty(),
         r, "a reordered non-commutative reduction went unnoticed");
}
END_TEST

// The model's copy of tuned's fixed rules is tuned's own, for every communicator size up to 300 and
// around the thresholds beyond (tests/mpi/fixed_rule.c): what the model weighs its picks against is
// what tuned runs.
START_TEST(fixed_rule_is_tuneds) {
  Scratch scratch("modeltuned-mpi");
  MpiRun run = with_modeltuned(2, 0);
  run.coll = "^modeltuned,han";  // tuned's bcast and reduce on MPI_COMM_WORLD
  run.program = "fixed_rule";
  RunResult r = run_mpi(run, scratch.dir);
  const auto pass = r.lines_containing("fixed_rule: PASS");
  expect(r.exit_status == 0 && !pass.empty(), r, "tuned's fixed rules and the model's differ");
  expect(number_field(pass.front(), "cases") > 50000, r, "the sweep compared too few cases");
}
END_TEST

// The model's allreduce, barrier, allgather and alltoall schedules, from which their plans are built, against the
// messages libmpi's own base algorithms send, with their silent fallbacks, on every communicator
// of 2 to 8 ranks (tests/mpi/schedules.c).
START_TEST(schedules_are_libmpis) {
  Scratch scratch("modeltuned-mpi");
  MpiRun run = with_modeltuned(8, 0);
  run.coll = "^modeltuned,han";
  run.program = "schedules";
  RunResult r = run_mpi(run, scratch.dir);
  const auto pass = r.lines_containing("schedules: PASS");
  expect(r.exit_status == 0 && !pass.empty(), r, "the model's schedules and libmpi's sends differ");
  expect(number_field(pass.front(), "cases") >= 600, r, "the allreduce sweep compared too few cases");
  // 5 algorithms on each of 2..8 ranks, and two_proc on 2.
  expect(number_field(pass.front(), "barrier_cases") == 36, r, "the barrier sweep compared the wrong cases");
  // Bruck, recursive doubling, ring and neighbor exchange (sparbit too from 5.0, direct messaging
  // from 6.0) at 3 block sizes on each of 2..8 ranks, and two_proc on 2.
  const long allgather_cases = 7 * 3 * (ompi_series() == "4.1" ? 4 : ompi_series() == "5.0" ? 5 : 6) + 3;
  expect(number_field(pass.front(), "allgather_cases") == allgather_cases, r,
         "the allgather sweep compared the wrong cases");
  // linear, pairwise, modified Bruck and linear_sync at 3 block sizes on each of 2..8 ranks, and
  // two_proc on 2.
  expect(number_field(pass.front(), "alltoall_cases") == 7 * 3 * 4 + 3, r,
         "the alltoall sweep compared the wrong cases");
}
END_TEST

// A call whose default modeltuned keeps is handed to tuned as modeltuned's last act: Open MPI's
// algorithm then runs called by tuned, at the same depth below the application's frame as without
// modeltuned (tests/mpi/stack_depth.c), so that what its frames leave in the stack is what they
// leave under plain Open MPI. ScaLAPACK 2.2.1 reads such memory uninitialised, and its LU tester
// diverged between ranks while kept defaults ran from modeltuned's own frames (docs/reliability.md).
// Tail calls need an optimizing build: under the sanitizers, whose component keeps its frames for
// its checks, only the caller is compared.
static bool sanitized_build() {
#ifdef __SANITIZE_ADDRESS__
  return true;
#else
  return false;
#endif
}

START_TEST(kept_default_runs_where_tuned_runs_it) {
  Scratch scratch("modeltuned-mpi");
  MpiRun plain = with_modeltuned(2, 0);
  plain.modeltuned = false;
  plain.program = "stack_depth";
  const RunResult p = run_mpi(plain, scratch.dir / "plain");
  expect(p.exit_status == 0 && !p.lines_containing("stack_depth: done").empty(), p, "the plain run failed");
  MpiRun run = with_modeltuned(2, 0);
  run.program = "stack_depth";
  const RunResult r = run_mpi(run, scratch.dir / "modeltuned");
  expect(r.exit_status == 0 && !r.lines_containing("stack_depth: done").empty(), r, "the run failed");
  std::map<std::string, std::string> under_tuned;  // "op bytes" -> "algorithm depth caller"
  auto key = [](const std::string &line) { return field(line, "op") + " " + field(line, "bytes"); };
  auto where = [&](const std::string &line) {
    return field(line, "algorithm") + " " + (sanitized_build() ? "" : field(line, "depth")) + " " +
           field(line, "caller");
  };
  for (const std::string &line : p.lines_containing("stack_depth: op=")) under_tuned[key(line)] = where(line);
  long kept = 0;
  for (const std::string &line : r.lines_containing("stack_depth: op=")) {
    if (field(line, "kept") != "1") continue;
    ++kept;
    expect(under_tuned[key(line)] == where(line), r,
           "a kept default ran as '" + where(line) + "', under tuned as '" + under_tuned[key(line)] + "': " + line);
  }
  expect(kept >= 10, r, "too few calls kept Open MPI's default: nothing tested");
}
END_TEST

// Ranks that disagree on the collective they run (tests/mpi/disagree.c: rank 0 in an allreduce,
// the others in a barrier) do not spin until the suite's timeout: the test programs' watchdog
// (tests/mpi/watchdog.c, 10 s here) ends the job within a minute, each rank naming its collective.
START_TEST(disagreeing_ranks_are_named) {
  Scratch scratch("modeltuned-mpi");
  MpiRun run = with_modeltuned(3, 0);
  run.program = "disagree";
  run.extra_mpirun_args = {"-x", "MODELTUNED_TEST_WATCHDOG_S=10"};
  const RunResult r = run_mpi(run, scratch.dir);
  expect(!r.timed_out && r.exit_status != 0, r, "the disagreeing ranks were not stopped");
  expect(r.seconds < 60 * (sanitized_build() ? 10 : 1), r, "the watchdog took a minute or more");
  const std::vector<std::string> lines = r.lines_containing("watchdog: world rank ");
  for (int rank = 0; rank < 3; ++rank) {
    const std::string expected = rank == 0 ? "MPI_Allreduce" : "MPI_Barrier";
    const bool named = std::any_of(lines.begin(), lines.end(), [&](const std::string &line) {
      return contains(line, "world rank " + std::to_string(rank) + " ") && contains(line, " in " + expected + " ");
    });
    expect(named, r, "world rank " + std::to_string(rank) + " did not say it is in " + expected);
  }
}
END_TEST

Suite *mpi_suite() {
  Suite *s = suite_create("mpi");
  auto add = [&](const char *name, auto... tests) { return add_case(s, name, tests...); };
  add("checker", checker_catches_reordered_reduction);
  add("baseline", baseline_without_modeltuned);
  add("np2", np2, component_order);
  add("np3", np3);
  add("np4", np4);
  add("np8", np8);
  add("np16_emulated_two_sockets", np16_emulated_two_sockets);
  add("rules_file", rules_file_runs_the_decisions);
  add("observing", counters_and_decision_file_match_what_ran, explain_matches_the_component, unwritable_decision_file,
      mismatched_algorithm_lists_fall_back_together, mismatched_objectives_fall_back_together,
      mismatched_guard_settings_fall_back_together, unknown_objective_is_named_and_default_kept,
      rotating_roots_decide_once);
  add("tuned_settings", tuned_forced_algorithm_is_left_to_tuned, tuned_rules_file_leaves_every_op_to_tuned,
      tuned_forced_on_some_ranks_falls_back_together);
  TCase *bcast = add("bcast_one_algorithm");
  tcase_add_loop_test(bcast, bcast_one_algorithm, 0, static_cast<int>(registered(Op::bcast).size()));
  TCase *reduce = add("reduce_one_algorithm");
  tcase_add_loop_test(reduce, reduce_one_algorithm, 0, static_cast<int>(registered(Op::reduce).size()));
  TCase *allreduce = add("allreduce_one_algorithm");
  tcase_add_loop_test(allreduce, allreduce_one_algorithm, 0, static_cast<int>(registered(Op::allreduce).size()));
  TCase *barrier = add("barrier_one_algorithm");
  tcase_add_loop_test(barrier, barrier_one_algorithm, 0, static_cast<int>(registered(Op::barrier).size()));
  TCase *allgather = add("allgather_one_algorithm");
  tcase_add_loop_test(allgather, allgather_one_algorithm, 0, static_cast<int>(registered(Op::allgather).size()));
  TCase *alltoall = add("alltoall_one_algorithm");
  tcase_add_loop_test(alltoall, alltoall_one_algorithm, 0, static_cast<int>(registered(Op::alltoall).size()));
  add("algorithm_list_by_number", algorithm_list_by_number);
  add("default", fixed_rule_is_tuneds, kept_default_runs_where_tuned_runs_it);
  add("watchdog", disagreeing_ranks_are_named);
  add("schedules", schedules_are_libmpis);
  add("noncommutative", noncommutative_only_order_preserving, noncommutative_with_only_reordering_algorithms_allowed);
  TCase *bad = add("bad_input");
  tcase_add_loop_test(bad, bad_input, 0, kBadInputs);
  add("no_table", no_table_steps_aside_quietly, table_found_in_config_home, table_missing_on_some_ranks);
  add("oversubscribed", oversubscribed_node_steps_aside);
  add("unchecked op", unchecked_op_left_to_the_previous_component);
#ifndef __SANITIZE_ADDRESS__
  add("heap", loading_a_table_leaves_malloc_as_it_was);
#endif
  add("command_lines", intercommunicators, coll_list_leaving_out_inter_is_named);
  return s;
}

}  // namespace

int main() {
  // The registry holds Open MPI's 9 bcast and 7 reduce algorithms; fewer means the per-algorithm
  // runs lost coverage.
  if (registered(Op::bcast).size() < 9 || registered(Op::reduce).size() < 7) {
    std::fprintf(stderr, "check_mpi: the algorithm registry lists too few algorithms\n");
    return EXIT_FAILURE;
  }
  return modeltuned_run_suite(mpi_suite(), CK_VERBOSE);
}
