// The barrier family (model/collectives/barrier/): tuned's algorithms and fixed rule, schedules
// that really are barriers, costs worked out by hand, and explain's listing on ORFEO.

#include <cmath>
#include <limits>
#include <set>
#include <vector>

#include "model/collectives/barrier/schedule.hpp"
#include "model/collectives/family.hpp"
#include "model/registry/predict.hpp"
#include "model/select/ompi_fixed.hpp"
#include "model/select/selector.hpp"
#include "tools/lib/emulate.hpp"
#include "tools/lib/explain.hpp"

#include "tests/support/one_channel.hpp"
#include "tests/support/run_suite.h"

using namespace modeltuned;
using namespace modeltuned::test;

namespace {

std::optional<double> predict(const CalibrationTable &t, int p, int algorithm) {
  return predict_us(t, one_cache(p), Candidate{Op::barrier, algorithm, 0, 0}, CallShape{Op::barrier, 0, 1, 0, true});
}

// Whether every rank leaves only after every rank entered: each rank learns, through the messages
// it receives, of the ranks whose messages led to them. A rank sends in a round what it knew when
// the round started: its own sends come after its earlier rounds' receives.
bool is_barrier(int size, const std::vector<Round> &rounds) {
  std::vector<std::set<int>> knows(size);
  for (int r = 0; r < size; ++r) knows[r] = {r};
  for (const Round &round : rounds) {
    const std::vector<std::set<int>> before = knows;
    for (const Transfer &t : round) knows[t.to].insert(before[t.from].begin(), before[t.from].end());
  }
  for (const std::set<int> &k : knows)
    if (static_cast<int>(k.size()) != size) return false;
  return true;
}

}  // namespace

START_TEST(registry_has_tuneds_barrier) {
  const CollectiveFamily &family = barrier_family();
  ck_assert(!family.rooted && !family.moves_data && family.rounds);
  ck_assert_int_eq(family.algorithms.size(), 6);
  for (const AlgorithmSpec &a : family.algorithms) {
    ck_assert(a.convention == CallingConvention::barrier && !a.splits && !a.parameters.segmented);
    ck_assert(a.parameters.fanouts.empty() && a.ompi_function.starts_with("ompi_coll_base_barrier_intra_"));
    ck_assert_int_eq(a.runs_only_on, a.id == 5 ? 2 : 0);
  }
}
END_TEST

// ompi_coll_tuned_barrier_intra_dec_fixed: by communicator size only, the same in 4.1 and 5.0.
START_TEST(fixed_rule_by_size) {
  const std::pair<int, int> expected[] = {{2, 3},    {3, 3},    {4, 1},    {7, 1},     {8, 3},   {63, 3},
                                          {64, 4},   {255, 4},  {256, 6},  {511, 6},   {512, 4}, {1023, 4},
                                          {1024, 6}, {4095, 6}, {4096, 4}, {100000, 4}};
  for (auto [p, algorithm] : expected)
    for (OmpiVersion v : {OmpiVersion::v4_1, OmpiVersion::v5_0}) {
      const Candidate c = ompi_fixed_decision(Op::barrier, 0, p, true, v);
      ck_assert_msg(c.algorithm == algorithm, "P %d: %d, expected %d", p, c.algorithm, algorithm);
      ck_assert(what_runs(c, 0, 1, p, true) == c);
    }
}
END_TEST

START_TEST(schedules_are_barriers) {
  for (int p = 2; p <= 33; ++p)
    for (int algorithm : {1, 2, 3, 4, 6}) {
      const std::vector<Round> rounds = barrier_rounds(algorithm, p, 0, 1, 0);
      ck_assert_msg(is_barrier(p, rounds), "algorithm %d on %d ranks", algorithm, p);
      for (const Round &round : rounds)
        for (const Transfer &t : round) ck_assert(t.count == 0 && t.from != t.to && t.to < p && t.from < p);
    }
  ck_assert(is_barrier(2, barrier_rounds(5, 2, 0, 1, 0)));
  ck_assert(barrier_rounds(5, 3, 0, 1, 0).empty() && barrier_rounds(3, 1, 0, 1, 0).empty());
  // A few by hand: the tree on 5 ranks goes up 1->0, 3->2, 2->0, 4->0 and back down.
  const std::vector<Round> tree = barrier_rounds(6, 5, 0, 1, 0);
  ck_assert_int_eq(tree.size(), 6);
  ck_assert(tree[2].size() == 1 && tree[2][0].from == 4 && tree[2][0].to == 0);
  ck_assert(tree[3].size() == 1 && tree[3][0].from == 0 && tree[3][0].to == 4);
  // Recursive doubling on 6: rank 4 and 5 fold into 0 and 1, 4 ranks exchange twice, 0 and 1 answer.
  const std::vector<Round> rd = barrier_rounds(3, 6, 0, 1, 0);
  ck_assert_int_eq(rd.size(), 4);
  ck_assert(rd.front().size() == 2 && rd.front()[0].from == 4 && rd.front()[0].to == 0);
  ck_assert(rd.back().size() == 2 && rd.back()[1].from == 1 && rd.back()[1].to == 5);
  // Bruck: ceil(log2 P) rounds of P messages; double ring: 2P hops.
  ck_assert_int_eq(barrier_rounds(4, 9, 0, 1, 0).size(), 4);
  ck_assert_int_eq(barrier_rounds(2, 5, 0, 1, 0).size(), 10);
}
END_TEST

START_TEST(costs_by_hand) {
  const CalibrationTable t = one_channel_table();
  const double alpha = 0.5;                       // an empty message
  ck_assert(near(*predict(t, 8, 3), 3 * alpha));  // three exchanges
  ck_assert(near(*predict(t, 6, 3), 5 * alpha));  // the fold, two exchanges, the synchronous answer
  ck_assert(near(*predict(t, 5, 4), 3 * alpha));  // Bruck: three rounds
  ck_assert(near(*predict(t, 8, 6), 6 * alpha));  // the tree: three levels up and down
  ck_assert(near(*predict(t, 4, 2), 9 * alpha));  // eight hops, the last one synchronous
  ck_assert(near(*predict(t, 2, 5), alpha));      // one exchange
  ck_assert(!predict(t, 3, 5));                   // Open MPI fails two_proc on 3 ranks
  const double linear = *predict(t, 8, 1);
  ck_assert(linear > 2 * alpha && std::isfinite(linear));
}
END_TEST

START_TEST(explain_lists_every_algorithm_on_orfeo) {
  using namespace modeltuned::tools;
  const CalibrationTable all = every_channel_table();
  const Placement p = emulate_placement(orfeo_epyc(2), 256, MapBy::core);
  WhatIf what_if;
  what_if.op = Op::barrier;
  what_if.sizes = {0};
  const nlohmann::json d = explain_what_if(all, p, what_if).at(0);
  std::set<int> listed;
  for (const auto &c : d["candidates"]) listed.insert(c["algorithm"].get<int>());
  ck_assert(listed == (std::set<int>{1, 2, 3, 4, 6}));
  ck_assert_int_eq(d["ompi_default"]["algorithm"].get<int>(), 6);  // tuned's rule at 256 ranks
  const std::string text = format_decision(d, 0);
  ck_assert(text.starts_with("barrier on 256 ranks\n"));
  ck_assert(text.find("not a candidate: two_proc") != std::string::npos);
}
END_TEST

int main() {
  Suite *s = suite_create("barrier");
  TCase *tc = tcase_create("barrier");
  for (const TTest *test : {registry_has_tuneds_barrier, fixed_rule_by_size, schedules_are_barriers, costs_by_hand,
                            explain_lists_every_algorithm_on_orfeo})
    tcase_add_test(tc, test);
  suite_add_tcase(s, tc);
  return modeltuned_run_suite(s, CK_NORMAL);
}
