// Ranks passing different datatypes of one type signature (tests/mpi/signatures.c) under
// modeltuned, every algorithm of the registry allowed alone in turn, at np 2, 4, 8 and 16, all on
// an emulated 2-socket node: the model picks the segment sizes, and from the same table its picks
// then do not depend on the machine the suite runs on (on a VM whose two cores sit in separate L3
// caches the real topology made chain at np 2 never cut a message). Proves from the MPI_T counters and the level-20
// trace that each algorithm ran, that the segmented and splitting bcast algorithms really cut the message (on the
// common byte view), and that reductions with user-defined operations, which see each rank's own datatype, only ever
// moved whole messages.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "model/capi/modeltuned_model.h"
#include "model/registry/registry.hpp"
#include "tests/support/mpi_launch.hpp"

// Last: check.h defines a fail() macro that breaks the standard headers.
#include "tests/support/run_suite.h"

namespace {

using namespace modeltuned::test;

constexpr int kRunTimeoutSeconds = 400;

const char *const kOps[MT_OPS] = {"bcast", "reduce", "allreduce"};

struct Algorithm {
  std::string name;
  int id = 0;
  bool segmented = false, splits = false;
};

// The registry's algorithms of one operation that the Open MPI line under test has, through the C
// API the component uses (the component finds no function for a later line's, nor a component an
// earlier line had, and the call would go to Open MPI's own, which fails on ranks' differing
// datatypes).
std::vector<Algorithm> algorithms(int op) {
  std::vector<Algorithm> out;
  mt_algorithm_info info;
  for (int i = 0; mt_algorithm_at(op, i, &info) == 0; ++i) {
    if (std::string(info.since) > ompi_series() || std::string(info.until) < ompi_series()) continue;
    char label[128];
    mt_describe(op, info.id, 1024, 2, label, sizeof label);  // names "segsize" iff segmented
    out.push_back({info.name, info.id, std::string(label).find("segsize") != std::string::npos, info.splits != 0});
  }
  return out;
}

// Whether the algorithm's component serves `np` ranks on one node (coll/acoll: 16 or more); tuned's
// always.
bool served_on(int op, int id, int np) {
  const modeltuned::AlgorithmSpec *spec = modeltuned::find_algorithm(static_cast<modeltuned::Op>(op), id);
  if (!spec || !spec->serves) return true;
  const modeltuned::CallShape call{static_cast<modeltuned::Op>(op), 1024, 1, 0, true};
  return spec->serves(call, modeltuned::Placement(std::vector<modeltuned::RankPlace>(np, {0, 0, 0, 0, -1})));
}

std::string algorithm_arg(const char *flag, int op) {
  std::string arg = flag;
  for (const Algorithm &a : algorithms(op))
    // Allreduce: whole-message algorithms only. The model never picks a splitting one for a
    // user-defined operation (check_allreduce), so those calls would go to Open MPI's own
    // allreduce, whose ring truncates ranks' differing datatypes (MPI_ERR_TRUNCATE at 8 ranks,
    // with or without modeltuned).
    if (op != MT_OP_ALLREDUCE || !a.splits) arg += (arg.back() == '=' ? "" : ",") + a.name + ":" + std::to_string(a.id);
  return arg;
}

long field(const std::string &line, const std::string &key) {
  const size_t at = line.find(" " + key + "=");
  return at == std::string::npos ? -1 : std::atol(line.c_str() + at + key.size() + 2);
}

using Tally = std::map<std::pair<std::string, std::string>, long>;  // (op, algorithm) -> calls
long tally(const Tally &t, const std::string &op, const std::string &name) {
  auto it = t.find({op, name});
  return it == t.end() ? 0 : it->second;
}

std::string word(const std::string &line, const std::string &key) {
  const size_t at = line.find(" " + key + "=");
  if (at == std::string::npos) return "";
  const size_t from = at + key.size() + 2;
  return line.substr(from, line.find(' ', from) - from);
}

void signatures_at(int np) {
  Scratch scratch("modeltuned-signatures");
  Launch launch;
  launch.np = np;
  launch.timeout_seconds = run_timeout_seconds(kRunTimeoutSeconds);
  launch.mpirun_args = {"--mca", "coll_modeltuned_calibration_file", table_path(),
                        "--mca", "coll_modeltuned_verbose",          "20"};
  const fs::path xml = scratch.dir / "two-sockets.xml";
  const std::string cmd =
      "'" + lstopo() + "' --input 'pack:2 numa:4 l3:2 core:4 pu:1' --of xml > '" + xml.string() + "'";
  ck_assert_msg(std::system(cmd.c_str()) == 0, "'%s' failed", cmd.c_str());
  // 64 emulated cores: Open MPI does not know it is oversubscribed, so ranks must yield. Up to 8
  // ranks fill socket 0 from its first L3 on.
  const auto emulate = emulated_topology_args(xml.string(), np);
  launch.mpirun_args.insert(launch.mpirun_args.end(), emulate.begin(), emulate.end());
  launch.program = builddir() + "/tests/mpi/signatures";
  launch.program_args = {algorithm_arg("--bcast=", MT_OP_BCAST), algorithm_arg("--reduce=", MT_OP_REDUCE),
                         algorithm_arg("--allreduce=", MT_OP_ALLREDUCE)};
  const LaunchResult r = launch_mpi(scratch.dir, launch);
  const std::string out = r.rank_stdout.count(0) ? r.rank_stdout.at(0) : "";
  std::fprintf(stderr, "np %d: %s\n%s", np, r.command.c_str(), out.c_str());
  std::string errors = r.launcher_output;
  for (const auto &[rank, text] : r.rank_stderr)
    for (const std::string &line : split_lines(text))
      if (line.find("MISMATCH") != std::string::npos || line.find("***") != std::string::npos) errors += line + "\n";
  ck_assert_msg(!r.timed_out, "np %d: no end within %d s (a hang)\n%s", np, launch.timeout_seconds,
                errors.substr(0, 3000).c_str());
  ck_assert_msg(r.exit_status == 0 && out.find("signatures: PASS") != std::string::npos,
                "np %d: wrong results or a failed run (status %d)\n%s", np, r.exit_status,
                errors.substr(0, 3000).c_str());

  // What ran, per operation and algorithm, from the MPI_T counters of rank 0.
  Tally ran;
  for (const std::string &line : split_lines(out))
    if (line.rfind("signatures: ran ", 0) == 0) ran[{word(line, "op"), word(line, "algorithm")}] = field(line, "calls");
  // Calls that cut the message, per operation and algorithm, from rank 0's trace.
  Tally cut;
  for (const std::string &line : split_lines(r.rank_stderr.count(0) ? r.rank_stderr.at(0) : "")) {
    int op_id = -1;
    for (int o : {MT_OP_BCAST, MT_OP_REDUCE, MT_OP_ALLREDUCE})
      if (line.find(std::string("coll:modeltuned:") + kOps[o] + " ") != std::string::npos) op_id = o;
    if (op_id < 0) continue;
    const std::string op = kOps[op_id], name = word(line, "algorithm");
    const long segsize = field(line, "segsize"), bytes = field(line, "bytes");
    bool splits = false;
    for (const Algorithm &a : algorithms(op_id)) splits |= a.name == name && a.splits;
    if (splits || (segsize > 0 && segsize < bytes)) ++cut[{op, name}];
  }
  for (const Algorithm &a : algorithms(MT_OP_BCAST)) {
    if (!served_on(MT_OP_BCAST, a.id, np)) {
      ck_assert_msg(tally(ran, "bcast", a.name) == 0, "np %d: bcast %s ran where its component serves no call", np,
                    a.name.c_str());
      continue;
    }
    ck_assert_msg(tally(ran, "bcast", a.name) > 0, "np %d: bcast %s never ran", np, a.name.c_str());
    if (a.segmented || a.splits)
      ck_assert_msg(tally(cut, "bcast", a.name) > 0, "np %d: bcast %s never cut a message: the byte view went untested",
                    np, a.name.c_str());
  }
  // Every reduce and allreduce case uses a user-defined operation: whole messages only, so
  // algorithms that split never run and the others run unsegmented.
  for (int op : {MT_OP_REDUCE, MT_OP_ALLREDUCE})
    for (const Algorithm &a : algorithms(op)) {
      if (a.splits)  // never asked for under allreduce (algorithm_arg): then trivially 0
        ck_assert_msg(tally(ran, kOps[op], a.name) == 0, "np %d: %s %s split a user-defined reduction", np, kOps[op],
                      a.name.c_str());
      else
        ck_assert_msg(tally(ran, kOps[op], a.name) > 0, "np %d: %s %s never ran", np, kOps[op], a.name.c_str());
      ck_assert_msg(tally(cut, kOps[op], a.name) == 0, "np %d: %s %s cut a user-defined reduction", np, kOps[op],
                    a.name.c_str());
    }
}

START_TEST(np2) { signatures_at(2); }
END_TEST
START_TEST(np4) { signatures_at(4); }
END_TEST
START_TEST(np8) { signatures_at(8); }
END_TEST
START_TEST(np16_emulated_two_sockets) { signatures_at(16); }
END_TEST

}  // namespace

int main() {
  mt_set_ompi_version(ompi_series().c_str());  // the registry's listing as that line has it
  Suite *s = suite_create("signatures");
  for (auto [name, test] :
       {std::pair{"np2", np2}, {"np4", np4}, {"np8", np8}, {"np16_emulated_two_sockets", np16_emulated_two_sockets}}) {
    TCase *tc = tcase_create(name);
    tcase_set_timeout(tc, kRunTimeoutSeconds + 60);
    tcase_add_test(tc, test);
    suite_add_tcase(s, tc);
  }
  return modeltuned_run_suite(s, CK_VERBOSE);
}
