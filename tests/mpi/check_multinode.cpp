// Multi-node tests on one machine: tools/modeltuned-emulate-nodes starts each emulated node in its
// own UTS namespace, so Open MPI sees separate hosts (shared memory inside a node, TCP between
// nodes) and modeltuned's placement has the "node" channel. Every communicator of the collectives
// program spans nodes or not depending on the mapping; the checks are the ones of check_mpi:
// exact results, a trace line per call, the same decisions on every rank.
#include <sys/utsname.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/collectives/family.hpp"
#include "model/registry/registry.hpp"
#include "tests/support/mpi_checks.hpp"

// Last: check.h defines a fail() macro that breaks the standard headers.
#include "tests/support/run_suite.h"

namespace fs = std::filesystem;
using modeltuned::Op;
using namespace modeltuned::test;

namespace {

// The "channels=" of each communicator's setup line (verbose >= 10), by communicator name; every
// rank of it reports the same.
std::map<std::string, std::set<std::string>> setup_channels(const RunResult &r) {
  std::map<std::string, std::set<std::string>> out;
  for (const std::string &line : r.lines_containing("coll:modeltuned:setup ")) {
    const std::string name = field(line, "name"), channels = field(line, "channels");
    if (!name.empty() && !channels.empty()) out[name.substr(0, name.find(':'))].insert(channels);
  }
  return out;
}

// Calls on `comm` that ran an algorithm modeltuned chose (not handed back to Open MPI).
long decided_calls(const RunResult &r, const std::string &comm) {
  long n = 0;
  for (const std::string op : {"bcast", "reduce"})
    for (const TraceLine &t : r.trace(op)) n += t.name == comm && t.algorithm != "fallback";
  return n;
}

// Under 5.0, han runs bcast and reduce on a communicator across nodes where a node holds two or
// more of its ranks, and modeltuned keeps it there (han_is_the_default_across_nodes). The tests of
// modeltuned's own decisions across nodes take han out, as a user comparing it with tuned's rule
// would; under 4.1 han is not enabled.
MpiRun without_han(int np, int verbose = 20) {
  MpiRun run = with_modeltuned(np, verbose);
  if (ompi_series() != "4.1") run.mca.emplace_back("coll", "^han");
  return run;
}

// The collectives program on emulated nodes: exact results, every call traced, the same decisions
// on every rank; MPI_COMM_WORLD spans the nodes, its setup reports the node channel and some of
// its calls run algorithms modeltuned chose.
RunResult across_nodes(const std::string &nodes, int np, std::vector<std::string> mpirun_args = {},
                       const std::string &table = table_path()) {
  Scratch scratch("modeltuned-nodes");
  MpiRun run = without_han(np);
  run.calibration_file = table;
  run.nodes = nodes;
  run.extra_mpirun_args = std::move(mpirun_args);
  run.program_args = {"--max-bytes=300000", "--all-roots-bytes=4096"};
  RunResult r = run_mpi(run, scratch.dir);
  expect_correct(r);
  expect_modeltuned_took_every_call(r);
  const auto channels = setup_channels(r);
  auto world = channels.find("MPI_COMM_WORLD");
  expect(world != channels.end() && world->second.size() == 1 && contains(*world->second.begin(), "node"), r,
         "MPI_COMM_WORLD's setup lines do not report the node channel (or differ between ranks)");
  const long decided = decided_calls(r, "MPI_COMM_WORLD");
  expect(decided > 0, r, "modeltuned handed every call on MPI_COMM_WORLD back to Open MPI: no decision across nodes");
  std::fprintf(stderr, "%s, np %d: channels %s, %ld calls on MPI_COMM_WORLD ran modeltuned's pick\n", nodes.c_str(), np,
               world->second.begin()->c_str(), decided);
  return r;
}

START_TEST(two_nodes_by_slot) { across_nodes("nodeA:2,nodeB:2", 4); }
END_TEST
START_TEST(two_nodes_by_node) { across_nodes("nodeA:2,nodeB:2", 4, {"--map-by", "node"}); }
END_TEST
// Uneven: 2 + 2 + 1 ranks.
START_TEST(three_nodes_uneven_by_slot) { across_nodes("nodeA:2,nodeB:2,nodeC:1", 5); }
END_TEST
START_TEST(three_nodes_uneven_by_node) { across_nodes("nodeA:2,nodeB:2,nodeC:1", 5, {"--map-by", "node"}); }
END_TEST

// What modeltuned weighs its picks against is what Open MPI runs when it hands a call back. On 2 + 2
// ranks by slot, MPI_COMM_WORLD has two ranks per node and the odd/even halves one per node. Under
// 5.0 han takes bcast and reduce across nodes: on MPI_COMM_WORLD it runs its hierarchical
// algorithms, which the model does not predict, so modeltuned keeps han there (one line per op);
// on the halves han hands every call to tuned, whose fixed rule the model does predict, so
// modeltuned decides, naming han as the fallback. Under 4.1 the fallback is tuned on both.
START_TEST(han_is_the_default_across_nodes) {
  Scratch scratch("modeltuned-nodes");
  MpiRun run = with_modeltuned(4);
  run.nodes = "nodeA:2,nodeB:2";
  run.program_args = {"--comms=world,split", "--max-bytes=65536"};
  RunResult r = run_mpi(run, scratch.dir);
  expect_correct(r);
  const bool han = ompi_series() != "4.1";
  long world = 0, halves = 0;
  for (const std::string op : {"bcast", "reduce"})
    for (const TraceLine &t : r.trace(op)) {
      world += t.name == "MPI_COMM_WORLD";
      halves += t.name == "split_even" || t.name == "split_odd";
    }
  for (const std::string op : {"bcast", "reduce"}) {
    const auto kept = r.lines_containing("module_enable cid=0 size=4: leaves " + op + " to han: ");
    expect(kept.size() == (han ? 1u : 0u), r,
           op + ": expected " + (han ? "one line" : "no line") + " saying modeltuned keeps han on MPI_COMM_WORLD");
  }
  expect(han ? world == 0 : world > 0, r,
         han ? "modeltuned took calls on MPI_COMM_WORLD, where it keeps han"
             : "modeltuned took no call on MPI_COMM_WORLD under 4.1");
  expect(halves > 0, r, "modeltuned took no call on the halves, one rank per node");
  const std::string fallback = han ? "fallback=han" : "fallback=tuned";
  for (const char *name : {"split_even", "split_odd"}) {
    long named = 0, decided = 0;
    for (const std::string &line : r.lines_containing("coll:modeltuned:decide ")) {
      if (field(line, "name") != name) continue;
      ++decided;
      named += contains(line, fallback);
    }
    expect(decided > 0 && named == decided, r,
           std::string(name) + ": " + std::to_string(named) + " of " + std::to_string(decided) + " decide lines name " +
               fallback);
  }
  // explain says the same of MPI_COMM_WORLD's placement.
  const std::string cmd = builddir() + "/tools/modeltuned explain --json --ompi " + ompi_series() +
                          " --machine orfeo-epyc --hosts nodeA:2,nodeB:2 -np 4 --op bcast --sizes 4096 --table '" +
                          table_path() + "'";
  const std::string text = command_output(cmd);
  const nlohmann::json e = nlohmann::json::parse(text.empty() ? "[{}]" : text).at(0);
  expect(e.value("fallback", "") == (han ? "han" : "tuned") &&
             e.value("default_runs", "") == (han ? "han" : "tuned_rule") && e.value("left_to_ompi", !han) == han,
         r, cmd + " names fallback " + e.value("fallback", "?") + ", default " + e.value("default_runs", "?"));
  std::fprintf(stderr,
               "Open MPI %s, 2 + 2 ranks: %ld calls on MPI_COMM_WORLD and %ld on the halves through modeltuned\n",
               ompi_series().c_str(), world, halves);
}
END_TEST

// Host names as long as Open MPI 4.1.4's runtime takes (57 characters: its daemons abort on longer
// ones, with or without modeltuned), listed against their sort order: the node ids the ranks
// derive from them must still agree.
START_TEST(long_names_in_reverse_order) {
  const std::string z = "z" + std::string(55, 'y') + "1", a = "a" + std::string(55, 'b') + "2";
  const RunResult r = across_nodes(z + ":2," + a + ":1", 3);
  // Open MPI prefixes the component's lines with the host name: the emulation took the long one.
  expect(!r.lines_containing("[" + z + ":").empty() && !r.lines_containing("[" + a + ":").empty(), r,
         "no output line from a rank on the long-named nodes: the emulation did not take the names");
}
END_TEST

// `modeltuned explain --hosts` reproduces the component's decisions on emulated nodes: 3 + 2 ranks
// on nodes of 2 emulated sockets of 2 cores (cache, socket and node channels), bound to cores.
START_TEST(explain_matches_the_component_across_nodes) {
  Scratch scratch("modeltuned-nodes");
  const fs::path xml = scratch.dir / "node.xml";
  const std::string cmd =
      "'" + lstopo() + "' --input 'pack:2 numa:1 l3:1 core:2 pu:1' --of xml > '" + xml.string() + "'";
  ck_assert_msg(std::system(cmd.c_str()) == 0, "%s failed", cmd.c_str());
  MpiRun run = without_han(5, 1);
  run.program = "observe";
  run.nodes = "nodeA:3,nodeB:2";
  run.node_topology = xml.string();
  run.mca.emplace_back("mpi_yield_when_idle", "1");
  run.mca.emplace_back("coll_modeltuned_decision_file", (scratch.dir / "decisions.jsonl").string());
  // By slot: 3 ranks on nodeA, 2 on nodeB (PRRTE's --map-by core fills nodeA's 4 cores first).
  run.extra_mpirun_args = {"--bind-to", "core", "--map-by", "slot"};
  RunResult r = run_mpi(run, scratch.dir);
  expect(r.exit_status == 0 && !r.timed_out, r, "observe failed across nodes");
  const int compared = expect_explain_reproduces(
      r, scratch.dir / "decisions.jsonl",
      "--topology '" + xml.string() + "' --hosts nodeA:3,nodeB:2 --map-by slot --bind-to core -np 5 --table '" +
          table_path() + "'" + (ompi_series() != "4.1" ? " --without-han" : ""));
  expect(compared >= 9, r, "only " + std::to_string(compared) + " decisions of MPI_COMM_WORLD to compare");
  std::fprintf(stderr, "explain --hosts reproduced %d component decisions across nodes exactly\n", compared);
}
END_TEST

// ---- every algorithm across nodes ----------------------------------------------------------

// One algorithm at a time on 2 + 2 + 1 ranks (ragged trees that cross nodes): exact results, and
// the algorithm ran on MPI_COMM_WORLD, which spans the nodes; one whose component serves a single
// node only (coll/sm) never ran there.
// Whether the spec's component serves a call on ranks on these nodes (coll/sm: one node; coll/acoll:
// 16 ranks or more).
bool served_on(const modeltuned::AlgorithmSpec &spec, std::initializer_list<int> nodes) {
  std::vector<modeltuned::RankPlace> ranks;
  for (int node : nodes) ranks.push_back({node, 0, 0, 0, -1});
  return !spec.serves || spec.serves({spec.op, 256, 4, 0, true}, modeltuned::Placement(ranks));
}

void only_algorithm(Op op, int index) {
  MpiRun run = without_han(5);
  run.nodes = "nodeA:2,nodeB:2,nodeC:1";
  const modeltuned::AlgorithmSpec &spec = *registered(op)[index];
  expect_only_algorithm(run, op, index, "MPI_COMM_WORLD", served_on(spec, {0, 0, 1, 1, 2}));
}

START_TEST(bcast_one_algorithm) { only_algorithm(Op::bcast, _i); }
END_TEST
START_TEST(reduce_one_algorithm) { only_algorithm(Op::reduce, _i); }
END_TEST
START_TEST(allreduce_one_algorithm) { only_algorithm(Op::allreduce, _i); }
END_TEST
// two_proc runs on two ranks only: one on each of two nodes.
START_TEST(barrier_one_algorithm) {
  if (registered(Op::barrier)[_i]->runs_only_on != 2) return only_algorithm(Op::barrier, _i);
  MpiRun run = without_han(2);
  run.nodes = "nodeA:1,nodeB:1";
  expect_only_algorithm(run, Op::barrier, _i, "MPI_COMM_WORLD");
}
END_TEST
// On 2 + 2 ranks, where every allgather algorithm runs as itself (recursive doubling needs a power
// of two, neighbor exchange an even size), two_proc on 1 + 1; an algorithm of a later line is
// handed on (expect_only_algorithm).
START_TEST(allgather_one_algorithm) {
  const modeltuned::AlgorithmSpec &spec = *registered(Op::allgather)[_i];
  MpiRun run = without_han(spec.runs_only_on == 2 ? 2 : 4);
  run.nodes = spec.runs_only_on == 2 ? "nodeA:1,nodeB:1" : "nodeA:2,nodeB:2";
  expect_only_algorithm(run, Op::allgather, _i, "MPI_COMM_WORLD", served_on(spec, {0, 0, 1, 1}));
}
END_TEST
// On 2 + 1 ranks (every alltoall algorithm runs as itself on any size), two_proc on 1 + 1.
START_TEST(alltoall_one_algorithm) {
  const modeltuned::AlgorithmSpec &spec = *registered(Op::alltoall)[_i];
  MpiRun run = without_han(spec.runs_only_on == 2 ? 2 : 3);
  run.nodes = spec.runs_only_on == 2 ? "nodeA:1,nodeB:1" : "nodeA:2,nodeB:1";
  expect_only_algorithm(run, Op::alltoall, _i, "MPI_COMM_WORLD", served_on(spec, {0, 0, 1}));
}
END_TEST

// ---- tables that differ between nodes -------------------------------------------------------

// Table settings per node (the variable set on that node's processes only): every rank of each
// communicator spanning the nodes steps aside together, one message names the first rank without
// this table, the results stay right and nothing hangs.
RunResult tables_per_node(const std::vector<std::string> &node_env, const std::string &expected_line) {
  Scratch scratch("modeltuned-nodes");
  MpiRun run = with_modeltuned(4, 20);
  run.calibration_file.clear();  // a global setting would override the nodes' own
  run.nodes = "nodeA:2,nodeB:2";
  run.node_env = node_env;
  run.program_args = {"--comms=world,dup", "--max-bytes=65536"};
  RunResult r = run_mpi(run, scratch.dir);
  expect(!r.timed_out && r.exit_status == 0 && r.passed, r, "wrong results, or the job failed or hung");
  expect_no_modeltuned_calls(r);
  // The message (Open MPI's help system, once per job), then a "declining" line per communicator.
  const std::string message = "coll:modeltuned: rank 2 of communicator MPI_COMM_WORLD (cid 0) " + expected_line;
  expect(r.lines_containing(message).size() == 1, r,
         "expected one message '" + message + "', got " + std::to_string(r.lines_containing(message).size()));
  std::set<std::string> declined;
  for (const std::string &line : r.lines_containing("declining: rank 2 of this communicator " + expected_line))
    declined.insert(field(line, "cid"));
  expect(declined.size() == 2, r, "expected both communicators declined, got " + std::to_string(declined.size()));
  return r;
}

std::string node_table(const std::string &node, const std::string &path) {
  return node + ":OMPI_MCA_coll_modeltuned_calibration_file=" + path;
}

START_TEST(table_on_one_node_only) {
  Scratch files("modeltuned-nodes-files");
  const std::string missing = (files.dir / "not-copied-to-nodeB.json").string();
  const RunResult r = tables_per_node({node_table("nodeA", table_path()), node_table("nodeB", missing)},
                                      "has no usable calibration table");
  expect(!r.lines_containing("not-copied-to-nodeB.json").empty(), r, "the line does not name the missing file");
}
END_TEST

// modeltuned left out on one node (its ranks publish nothing): every rank of a communicator across
// the nodes steps aside. Under 5.0 the others wait for what nodeB's ranks never publish, once for
// all of them (coll_modeltuned_setup.c, MODEX_TIMEOUT_S), and nothing hangs.
START_TEST(modeltuned_missing_on_one_node) {
  const auto start = std::chrono::steady_clock::now();
  const RunResult r = tables_per_node({node_table("nodeA", table_path()), "nodeB:OMPI_MCA_coll=^modeltuned"},
                                      "has no usable calibration table");
  expect(!r.lines_containing("modeltuned is not loaded there").empty(), r,
         "the line does not say modeltuned is not loaded on rank 2's node");
  std::fprintf(stderr, "modeltuned left out on nodeB: every rank stepped aside, job %.0f s\n",
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}
END_TEST

START_TEST(different_table_per_node) {
  Scratch files("modeltuned-nodes-files");
  // nodeB's copy differs in one measured value: another checksum.
  nlohmann::json table = nlohmann::json::parse(read_text(table_path()));
  table["reduce"]["us_per_byte"] = table["reduce"]["us_per_byte"].get<double>() * 2;
  const fs::path other = files.dir / "edited-on-nodeB.json";
  write_text(other, table.dump(1));
  tables_per_node({node_table("nodeA", table_path()), node_table("nodeB", other.string())},
                  "uses another calibration table");
}
END_TEST

// ---- calibrating across nodes -----------------------------------------------------------------

// modeltuned-calibrate under the launcher (Open MPI's own collectives); returns the table.
fs::path calibrate(const fs::path &dir, const std::string &name, const std::string &nodes, int np) {
  const fs::path table = dir / (name + ".json");
  Launch launch;
  launch.np = np;
  if (!nodes.empty()) launch.wrapper = {srcdir() + "/tools/modeltuned-emulate-nodes", nodes, "--"};
  launch.mpirun_args = {"--mca", "coll", "^modeltuned"};
  launch.program = builddir() + "/calib/modeltuned-calibrate";
  launch.program_args = {"--budget", "60", "--max-bytes", "16KiB", "--reps", "3",
                         "--seed",   "7",  "--idle",      "sleep", "-o",     table.string()};
  launch.timeout_seconds = run_timeout_seconds(180);
  const LaunchResult r = launch_mpi(dir / name, launch);
  const std::string rank0 = r.rank_stderr.count(0) ? r.rank_stderr.at(0) : "";
  ck_assert_msg(r.exit_status == 0 && !r.timed_out && fs::exists(table), "%s: status %d%s\n%s\n%s", r.command.c_str(),
                r.exit_status, r.timed_out ? " (timed out)" : "", rank0.c_str(), r.launcher_output.c_str());
  return table;
}

// What a user does: calibrate one node (here 2 ranks) and across nodes (one rank per node), merge
// the two tables, and run with the result: modeltuned decides on communicators spanning nodes.
START_TEST(calibrate_across_nodes_merge_and_decide) {
  Scratch scratch("modeltuned-nodes");
  for (const char *sub : {"intra", "inter", "both"}) fs::create_directories(scratch.dir / sub);
  const fs::path intra = calibrate(scratch.dir, "intra", "", 2);
  const fs::path inter = calibrate(scratch.dir, "inter", "nodeA:1,nodeB:1", 2);

  // The cross-node run measured the node channel between the two nodes, and says with which pair.
  const nlohmann::json doc = nlohmann::json::parse(read_text(inter));
  ck_assert_msg(doc["channels"].contains("node") && !doc["channels"].contains("cache"), "%s",
                doc["channels"].dump().substr(0, 300).c_str());
  const nlohmann::json &placement = doc["provenance"]["placement"];
  ck_assert_msg(placement["hosts"] == nlohmann::json::array({"nodeA", "nodeB"}), "%s", placement.dump().c_str());
  ck_assert_msg(placement["channels"]["node"]["pair"] == nlohmann::json::array({0, 1}), "%s", placement.dump().c_str());

  // Merged: the node channel from the cross-node run, the rest from the node's.
  const fs::path merged = scratch.dir / "merged.json";
  const std::string cmd = "'" + builddir() + "/tools/modeltuned' fit --merge '" + intra.string() + "' '" +
                          inter.string() + "' -o '" + merged.string() + "' > '" + merged.string() + ".log' 2>&1";
  ck_assert_msg(std::system(cmd.c_str()) == 0, "%s: %s", cmd.c_str(), read_text(merged.string() + ".log").c_str());
  const nlohmann::json m = nlohmann::json::parse(read_text(merged));
  ck_assert_msg(m["provenance"]["merged_from"]["channels"]["node"] == "inter.json" &&
                    m["provenance"]["merged_from"]["channels"].size() >= 2,
                "%s", m["provenance"]["merged_from"].dump().c_str());

  // Both runs measured checks (default and candidates forced on their MPI_COMM_WORLD); the merged
  // table keeps them, each for its own shape: 2 ranks of one node, 1 rank on each of 2 nodes.
  std::set<std::string> shapes;
  for (const nlohmann::json &r : m["checks"]["residuals"])
    shapes.insert(r["neighbors"].get<std::string>() + "/" + r["widest"].get<std::string>());
  ck_assert_msg(shapes.count("node/node") == 1 && shapes.size() == 2, "shapes of the merged checks: %zu",
                shapes.size());

  // With it, on 2 + 2 ranks: cache inside each node, node between them. That shape has no check,
  // so the component would keep Open MPI's default for every call; to see it decide across nodes
  // with the merged channels, the run uses the table without its checks.
  nlohmann::json unchecked = m;
  unchecked.erase("checks");
  const fs::path plain = scratch.dir / "merged-unchecked.json";
  std::ofstream(plain) << unchecked.dump(1);
  across_nodes("nodeA:2,nodeB:2", 4, {}, plain.string());
}
END_TEST

// Calibrating over 2 + 2 ranks: under 5.0 han is Open MPI's default on MPI_COMM_WORLD (two nodes,
// two ranks on each), so the calibrator's check of the default measured han (algorithm "han") and
// its forced configurations put tuned first; its 2-rank group, one node, measured tuned's rule.
// With that table the component weighs its picks on MPI_COMM_WORLD against those checks of han
// (the rule itself: check_model's han_default_needs_checks_of_han). Under 4.1 the default is
// tuned's rule everywhere.
START_TEST(calibrate_with_han_as_the_default) {
  Scratch scratch("modeltuned-nodes");
  fs::create_directories(scratch.dir / "both");
  const fs::path table = calibrate(scratch.dir, "both", "nodeA:2,nodeB:2", 4);
  const bool han = ompi_series() != "4.1";
  const nlohmann::json doc = nlohmann::json::parse(read_text(table));
  std::map<int, std::string> defaults;  // group ranks -> what its default check measured
  for (const nlohmann::json &g : doc["provenance"]["checks"]["groups"])
    defaults[g["ranks"].get<int>()] = g.value("default", "?");
  ck_assert_msg(defaults[4] == (han ? "han" : "tuned_rule") && defaults[2] == "tuned_rule", "groups: %s",
                doc["provenance"]["checks"]["groups"].dump().c_str());
  std::set<std::string> han_ops;
  for (const nlohmann::json &r : doc["checks"]["residuals"])
    if (r["algorithm"] == "han") han_ops.insert(r["op"].get<std::string>());
  // han runs every collective modeltuned decides there that it has (alltoall from 6.0)
  std::set<std::string> every;
  for (const modeltuned::CollectiveFamily *family : modeltuned::collective_families())
    if (modeltuned::han_has(*family, *modeltuned::parse_ompi_version(ompi_series())))
      every.insert(std::string(modeltuned::op_name(family->op)));
  ck_assert_msg(han ? han_ops == every : han_ops.empty(), "%zu ops with checks of han", han_ops.size());

  MpiRun run = with_modeltuned(4);
  run.calibration_file = table.string();
  run.nodes = "nodeA:2,nodeB:2";
  run.program_args = {"--comms=world", "--max-bytes=16384"};
  run.mca.emplace_back("coll_modeltuned_decision_file", (scratch.dir / "decisions.jsonl").string());
  RunResult r = run_mpi(run, scratch.dir);
  expect_correct(r);
  long left = 0, decided = 0;
  for (const auto &d : read_decisions(scratch.dir / "decisions.jsonl")) {
    if (d["comm"] != "MPI_COMM_WORLD") continue;
    expect(d.value("fallback", "") == (han ? "han" : "tuned"), r, "a decision names fallback " + d.dump());
    (d.value("kept_default", true) ? left : decided) += 1;
  }
  // Only ops with checks of this shape reach the model; each of them kept han or left it by the checks.
  expect(left + decided > 0, r, "no decision on MPI_COMM_WORLD: the checks of its shape reached no op");
  std::fprintf(stderr,
               "Open MPI %s, calibrated on 2 + 2 ranks: default checks %s; on MPI_COMM_WORLD %ld decisions "
               "kept the default, %ld left it\n",
               ompi_series().c_str(), defaults[4].c_str(), left, decided);
}
END_TEST

// The shipped table of this VM has no node channel: every rank steps aside on a communicator that
// spans nodes, with one line, and still decides inside a node.
START_TEST(table_without_node_channel_steps_aside) {
  Scratch scratch("modeltuned-nodes");
  MpiRun run = with_modeltuned(4, 1);
  run.calibration_file = srcdir() + "/calib/tables/cpp-vm-2core.json";
  run.nodes = "nodeA:2,nodeB:2";
  // The table knows the cache channel only (the VM it was measured on shares one L3 between its two
  // cores): each emulated node is such a machine, whatever this one's caches are.
  const fs::path xml = scratch.dir / "node.xml";
  const std::string cmd =
      "'" + lstopo() + "' --input 'pack:1 numa:1 l3:1 core:2 pu:1' --of xml > '" + xml.string() + "'";
  ck_assert_msg(std::system(cmd.c_str()) == 0, "%s failed", cmd.c_str());
  run.node_topology = xml.string();
  run.mca = {{"mpi_yield_when_idle", "1"}};
  // By node: ranks 0 and 2 on nodeA, 1 and 3 on nodeB, so the odd/even halves stay inside a node.
  run.extra_mpirun_args = {"--map-by", "node", "--bind-to", "core"};
  run.program_args = {"--comms=world,split", "--max-bytes=65536"};
  run.verbose = 20;
  RunResult r = run_mpi(run, scratch.dir);
  expect_correct(r);
  // MPI_COMM_WORLD: every call handed to Open MPI ("fallback"); the halves: modeltuned's picks.
  long world = 0, inside = 0;
  for (const std::string op : {"bcast", "reduce"})
    for (const TraceLine &t : r.trace(op)) (t.name == "MPI_COMM_WORLD" ? world : inside) += t.algorithm != "fallback";
  expect(world == 0, r, "modeltuned decided calls on MPI_COMM_WORLD without a node channel in its table");
  expect(inside > 0, r, "modeltuned stepped aside inside the nodes too");
  bool said = false;
  for (const std::string &line : r.lines_containing("name=MPI_COMM_WORLD"))
    said |= contains(line, "'node'") && contains(line, "falling back");
  expect(said, r, "no line says MPI_COMM_WORLD needs the node channel the table lacks");
  std::fprintf(stderr, "without a node channel: %ld calls on MPI_COMM_WORLD, %ld inside nodes\n", world, inside);
}
END_TEST

Suite *multinode_suite() {
  Suite *s = suite_create("multinode");
  auto add = [&](const char *name, auto... tests) { return add_case(s, name, tests...); };
  add("placements", two_nodes_by_slot, two_nodes_by_node, three_nodes_uneven_by_slot, three_nodes_uneven_by_node,
      long_names_in_reverse_order);
  add("default", han_is_the_default_across_nodes);
  add("explain", explain_matches_the_component_across_nodes);
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
  add("tables", table_on_one_node_only, modeltuned_missing_on_one_node, different_table_per_node,
      table_without_node_channel_steps_aside);
  add("calibration", calibrate_across_nodes_merge_and_decide, calibrate_with_han_as_the_default);
  return s;
}

}  // namespace

int main() {
  // The launcher needs unshare (util-linux) and the right to create UTS namespaces (root, or
  // unprivileged user namespaces); without them the suite is skipped, saying why.
  if (std::system("unshare --uts true 2>/dev/null || unshare --user --map-root-user --uts true 2>/dev/null") != 0) {
    std::fprintf(stderr, "check_multinode: cannot create UTS namespaces here (unshare --uts failed); skipped\n");
    return 77;
  }
  return modeltuned_run_suite(multinode_suite(), CK_VERBOSE);
}
