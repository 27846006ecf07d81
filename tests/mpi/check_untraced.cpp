// Other components' algorithms as an application runs them: without trace lines
// (coll_modeltuned_verbose unset), a call whose decision is cached and whose component's private
// communicator is made goes from the collective's entry point straight to that component
// (mca_coll_modeltuned_runs_foreign), not through the decided path the traced tests see. Each such
// algorithm of the line under test, allowed alone on 4 ranks: exact results of tests/mpi/collectives
// (in place, zero counts, per-rank datatypes, every root); and the MPI_T counters of
// tests/mpi/observe untraced equal to the same calls' counters traced, the algorithm among them.
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "model/capi/modeltuned_model.h"
#include "model/registry/registry.hpp"
#include "tests/support/mpi_checks.hpp"

// Last: check.h defines a fail() macro that breaks the standard headers.
#include "tests/support/run_suite.h"

namespace {

using modeltuned::Op;
using namespace modeltuned::test;

constexpr int kRanks = 4;

// The line's algorithms of `op` that another component runs and that serve kRanks ranks on one
// node (coll/acoll serves 16 and more: check_mpi runs it there, traced).
std::vector<const modeltuned::AlgorithmSpec *> foreign_algorithms(Op op) {
  std::vector<const modeltuned::AlgorithmSpec *> out;
  const auto line = modeltuned::parse_ompi_version(ompi_series());
  for (const modeltuned::AlgorithmSpec *spec : registered(op)) {
    if (spec->component.empty() || !line || !modeltuned::in_release(*spec, *line)) continue;
    const modeltuned::CallShape call{op, 1, 4, 0, true};
    const modeltuned::Placement node(std::vector<modeltuned::RankPlace>(kRanks, {0, 0, 0, 0, -1}));
    if (!spec->serves || spec->serves(call, node))
      out.push_back(spec);
    else
      std::fprintf(stderr, "%s %s: not on %d ranks\n", std::string(modeltuned::op_name(op)).c_str(),
                   std::string(spec->name).c_str(), kRanks);
  }
  return out;
}

// Exact results with `op` restricted to each such algorithm, untraced.
void results_exact(Op op) {
  const std::string name(modeltuned::op_name(op));
  for (const modeltuned::AlgorithmSpec *spec : foreign_algorithms(op)) {
    Scratch scratch("modeltuned-untraced");
    MpiRun run = with_modeltuned(kRanks, 0);
    run.mca.emplace_back("coll_modeltuned_" + name + "_algorithms", std::string(spec->name));
    run.program_args = {"--ops=" + name, "--max-bytes=300000", "--all-roots-bytes=16384"};
    const RunResult r = run_mpi(run, scratch.dir);
    expect_correct(r);
    std::fprintf(stderr, "%s %s untraced: %s\n", name.c_str(), std::string(spec->name).c_str(), r.summary.c_str());
  }
}

START_TEST(bcast_results) { results_exact(Op::bcast); }
END_TEST
START_TEST(reduce_results) { results_exact(Op::reduce); }
END_TEST
START_TEST(allreduce_results) { results_exact(Op::allreduce); }
END_TEST
START_TEST(barrier_results) { results_exact(Op::barrier); }
END_TEST

// Each rank's "pvar <op> <algorithm> <calls>" lines of tests/mpi/observe, bcast and reduce
// restricted to `component`'s algorithms where it has one, traced (verbose 20) or not; on a dup of
// MPI_COMM_WORLD with `dup`, under coll_modeltuned_other_cost_us `other_cost_us` ("": the default).
std::vector<std::map<std::string, std::string>> observed(const std::string &component, int verbose, bool dup = false,
                                                         const std::string &other_cost_us = "0") {
  Scratch scratch("modeltuned-untraced");
  MpiRun run = with_modeltuned(kRanks, verbose);
  run.program = "observe";
  run.other_cost_us = other_cost_us;
  run.program_args = {"1", "100", "4096"};  // below 16 KiB, where 6.0.0rc2's xhc reductions crash
  if (dup) run.program_args.insert(run.program_args.begin(), "--dup");
  for (Op op : {Op::bcast, Op::reduce})
    for (const modeltuned::AlgorithmSpec *spec : foreign_algorithms(op))
      if (spec->component == component)
        run.mca.emplace_back("coll_modeltuned_" + std::string(modeltuned::op_name(op)) + "_algorithms",
                             std::string(spec->name));
  const RunResult r = run_mpi(run, scratch.dir);
  expect(r.exit_status == 0, r, "observe failed");
  std::vector<std::map<std::string, std::string>> counters(run.np);
  for (int rank = 0; rank < run.np; ++rank)
    for (const std::string &line : split_lines(r.rank_stdout.at(rank))) {
      expect(!contains(line, "missing"), r, "MPI_T counter not found: " + line);
      if (line.rfind("pvar ", 0) == 0) counters[rank][line.substr(0, line.rfind(' '))] = line;
    }
  return counters;
}

START_TEST(counters_match_traced) {
  std::map<std::string, std::vector<int>> ids;  // component -> its bcast and reduce algorithm numbers
  for (Op op : {Op::bcast, Op::reduce})
    for (const modeltuned::AlgorithmSpec *spec : foreign_algorithms(op))
      ids[std::string(spec->component)].push_back(spec->id);
  for (const auto &[component, numbers] : ids) {
    const auto traced = observed(component, 20), untraced = observed(component, 0);
    ck_assert_msg(traced == untraced, "%s: the MPI_T counters of untraced calls differ from traced ones",
                  component.c_str());
    bool ran = false;
    for (const auto &[key, line] : untraced[0])
      for (int id : numbers) ran = ran || contains(key + " ", " " + std::to_string(id) + " ");
    ck_assert_msg(ran, "%s: no bcast or reduce ran its algorithms untraced", component.c_str());
    std::fprintf(stderr, "%s: %zu counters on rank 0 as traced\n", component.c_str(), untraced[0].size());
  }
}
END_TEST

// Rank 0's calls of bcast counted as algorithm `id` in `counters`.
long calls_of(const std::map<std::string, std::string> &counters, int id) {
  const auto it = counters.find("pvar bcast " + std::to_string(id));
  return it == counters.end() ? 0 : std::stol(it->second.substr(it->second.rfind(' ') + 1));
}

// Another component's private communicator is a dup with it on top, which costs hundreds of
// microseconds (coll/sm's shared-memory file): a communicator's picks of it run Open MPI's default,
// counted as such, until they would have saved coll_modeltuned_other_cost_us (default 500 us);
// MPI_COMM_WORLD makes it at its first pick. observe's 9 bcasts save far less than 500 us.
START_TEST(private_communicator_waits_on_a_dup) {
  const std::vector<const modeltuned::AlgorithmSpec *> specs = foreign_algorithms(Op::bcast);
  if (specs.empty()) return;
  const modeltuned::AlgorithmSpec &spec = *specs.front();
  const std::string component(spec.component);
  const auto dup_default = observed(component, 0, true, ""), dup_at_once = observed(component, 0, true, "0"),
             world_default = observed(component, 0, false, "");
  ck_assert_msg(calls_of(dup_default[0], 0) == 9 && calls_of(dup_default[0], spec.id) == 0,
                "%s on a dup, default cost: %ld calls of the default, %ld of %s; wanted 9 and 0", component.c_str(),
                calls_of(dup_default[0], 0), calls_of(dup_default[0], spec.id), component.c_str());
  ck_assert_msg(calls_of(dup_at_once[0], spec.id) == 9, "%s on a dup, other_cost_us 0: %ld calls of it, wanted 9",
                component.c_str(), calls_of(dup_at_once[0], spec.id));
  ck_assert_msg(calls_of(world_default[0], spec.id) == 9,
                "%s on MPI_COMM_WORLD, default cost: %ld calls of it, wanted 9", component.c_str(),
                calls_of(world_default[0], spec.id));
  std::fprintf(stderr, "%s: a dup's 9 bcasts ran the default; with other_cost_us 0, and on world, %s\n",
               component.c_str(), component.c_str());
}
END_TEST

}  // namespace

int main() {
  mt_set_ompi_version(ompi_series().c_str());  // the registry's listing as that line has it
  Suite *s = suite_create("untraced");
  add_case(s, "results", bcast_results, reduce_results, allreduce_results, barrier_results);
  add_case(s, "counters", counters_match_traced);
  add_case(s, "private communicator", private_communicator_waits_on_a_dup);
  return modeltuned_run_suite(s, CK_VERBOSE);
}
