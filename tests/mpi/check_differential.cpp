// The differential test: tests/mpi/differential runs one random but valid sequence of collectives
// (its seed fixed per case) under plain Open MPI (coll ^modeltuned) and with modeltuned deciding
// (the test table, trace lines on), and every rank's digest of every step must be the same in
// both runs. The program's results do not depend on the order of combination, or depend on it
// only as MPI defines it (a non-commutative user operation), so any algorithm Open MPI may run
// gives plain Open MPI's bits; a difference names the seed, the step, the rank and the call.
//
// MODELTUNED_DIFFERENTIAL_SEED replaces every case's seed, MODELTUNED_DIFFERENTIAL_STEPS its number
// of steps (to replay a failure or to search for one).
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "model/collectives/family.hpp"
#include "tests/support/mpi_checks.hpp"

// Last: check.h defines a fail() macro that breaks the standard headers.
#include "tests/support/run_suite.h"

namespace {

using namespace modeltuned::test;

struct Sequence {
  unsigned long long seed;
  int steps;
};

Sequence sequence(unsigned long long case_seed, int case_steps) {
  Sequence s{case_seed, case_steps};
  if (const char *seed = std::getenv("MODELTUNED_DIFFERENTIAL_SEED")) s.seed = std::strtoull(seed, nullptr, 10);
  if (const char *steps = std::getenv("MODELTUNED_DIFFERENTIAL_STEPS")) s.steps = std::atoi(steps);
  return s;
}

// Each world rank's step lines, in order.
std::map<int, std::vector<std::string>> step_lines(const RunResult &r) {
  std::map<int, std::vector<std::string>> out;
  for (const auto &[rank, text] : r.rank_stdout)
    for (const std::string &line : split_lines(text))
      if (line.rfind("step=", 0) == 0) out[rank].push_back(line);
  return out;
}

// Calls modeltuned ran with its own pick (not Open MPI's default) and calls it traced.
std::pair<long, long> picks_and_calls(const RunResult &r) {
  long picks = 0, calls = 0;
  for (const modeltuned::CollectiveFamily *family : modeltuned::collective_families())
    for (const TraceLine &t : r.trace(std::string(modeltuned::op_name(family->op)))) {
      ++calls;
      picks += t.algorithm != "fallback";
    }
  return {picks, calls};
}

// Runs the sequence both ways on `base` (its np, nodes, topology) and compares every rank's lines.
void differential(MpiRun base, unsigned long long case_seed, int case_steps = 150) {
  const Sequence s = sequence(case_seed, case_steps);
  base.program = "differential";
  base.program_args = {"--seed=" + std::to_string(s.seed), "--steps=" + std::to_string(s.steps)};
  Scratch plain_dir("modeltuned-differential-plain"), modeltuned_dir("modeltuned-differential");
  MpiRun plain = base;
  plain.modeltuned = false;
  if (!base.coll.empty()) plain.coll = base.coll + ",modeltuned";  // "^han": both without han
  plain.verbose = 0;
  const RunResult reference = run_mpi(plain, plain_dir.dir);
  expect_correct(reference);
  const RunResult r = run_mpi(base, modeltuned_dir.dir);
  expect_correct(r);
  expect_consistent_decisions(r);

  const auto want = step_lines(reference), got = step_lines(r);
  for (const auto &[rank, lines] : want) {
    const auto it = got.find(rank);
    const std::vector<std::string> none;
    const std::vector<std::string> &mine = it == got.end() ? none : it->second;
    for (size_t i = 0; i < lines.size(); ++i) {
      const std::string line = i < mine.size() ? mine[i] : "(no line)";
      if (line == lines[i]) continue;
      std::fprintf(stderr,
                   "differential: seed %llu (MODELTUNED_DIFFERENTIAL_SEED=%llu replays it), world rank %d:\n"
                   "  plain Open MPI: %s\n  modeltuned:     %s\n",
                   s.seed, s.seed, rank, lines[i].c_str(), line.c_str());
      fail_run(r, "seed " + std::to_string(s.seed) + ", world rank " + std::to_string(rank) +
                      ": modeltuned's results differ from plain Open MPI's at " + lines[i].substr(0, 60));
    }
    expect(mine.size() == lines.size(), r, "modeltuned's run printed more steps than plain Open MPI's");
  }
  expect(want.size() == static_cast<size_t>(base.np), reference, "not every rank printed its steps");
  const auto [picks, calls] = picks_and_calls(r);
  expect(calls > 0, r, "modeltuned traced no call: it stepped aside, so nothing was compared");
  std::fprintf(
      stderr,
      "differential np %d%s seed %llu: %d steps alike on every rank; %ld of %ld traced calls ran "
      "modeltuned's pick\n",
      base.np,
      base.nodes.empty() ? (base.emulate_two_sockets ? " (emulated two sockets)" : "") : (" on " + base.nodes).c_str(),
      s.seed, s.steps, picks, calls);
}

START_TEST(np2) { differential(with_modeltuned(2), 20261202); }
END_TEST
START_TEST(np3) { differential(with_modeltuned(3), 3); }
END_TEST
START_TEST(np4) { differential(with_modeltuned(4), 4); }
END_TEST
START_TEST(np8) { differential(with_modeltuned(8), 8, 80); }
END_TEST

// On the emulated EPYC-like node, where the table's channels make the model pick more often.
START_TEST(np8_emulated_two_sockets) {
  MpiRun run = with_modeltuned(8);
  run.emulate_two_sockets = true;
  differential(run, 88, 80);
}
END_TEST

// Under 5.0 han runs across nodes on communicators of its own, split per node: those of different
// nodes share a name, which the check of consistent decisions groups traces by. Both runs leave
// han out, as check_multinode's do.
START_TEST(across_emulated_nodes) {
  MpiRun run = with_modeltuned(4);
  run.nodes = "nodeA:2,nodeB:2";
  if (ompi_series() != "4.1") run.coll = "^han";
  differential(run, 44);
}
END_TEST

}  // namespace

int main() {
  Suite *suite = suite_create("differential");
  add_case(suite, "np2", np2);
  add_case(suite, "np3", np3);
  add_case(suite, "np4", np4);
  add_case(suite, "np8", np8);
  add_case(suite, "np8_emulated_two_sockets", np8_emulated_two_sockets);
  add_case(suite, "across_emulated_nodes", across_emulated_nodes);
  return modeltuned_run_suite(suite, CK_NORMAL);
}
