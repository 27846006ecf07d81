// The allgather family (model/collectives/allgather/): tuned's algorithms with their fallbacks and
// releases, tuned's fixed rule, schedules that really gather every block, costs worked out by hand
// on a one-channel table, linear as the communicator's gather and the model's own bcast, and
// explain's listing on ORFEO. tests/mpi/schedules.c compares the schedules with libmpi's sends.
#include <set>
#include <vector>

#include "model/collectives/allgather/schedule.hpp"
#include "model/collectives/family.hpp"
#include "model/registry/predict.hpp"
#include "model/select/ompi_fixed.hpp"
#include "model/select/selector.hpp"
#include "tools/lib/emulate.hpp"
#include "tools/lib/explain.hpp"
#include "tests/support/one_channel.hpp"

// Last: check.h defines a `fail` macro that breaks the standard streams.
#include "tests/support/run_suite.h"

using namespace modeltuned;
using namespace modeltuned::test;

namespace {

// A block of `bytes` per rank.
std::optional<double> predict(const CalibrationTable &t, int p, int algorithm, size_t bytes) {
  return predict_us(t, one_cache(p), Candidate{Op::allgather, algorithm, 0, 0},
                    CallShape{Op::allgather, bytes, 1, 0, true});
}

// Whether every rank ends with every block: a rank sends in a round the blocks it held when the
// round started, and a message of n blocks carries n of them (the schedule says how many, not
// which: a rank must have held at least that many, and together they must reach every rank).
bool gathers_everything(int size, const std::vector<Round> &rounds) {
  std::vector<std::set<int>> holds(size);
  for (int r = 0; r < size; ++r) holds[r] = {r};
  for (const Round &round : rounds) {
    const std::vector<std::set<int>> before = holds;
    for (const Transfer &t : round) {
      if (t.count > before[t.from].size()) return false;
      holds[t.to].insert(before[t.from].begin(), before[t.from].end());
    }
  }
  for (const std::set<int> &h : holds)
    if (static_cast<int>(h.size()) != size) return false;
  return true;
}

// The blocks each rank receives in all: exactly the P - 1 it lacks.
bool receives_each_block_once(int size, const std::vector<Round> &rounds) {
  std::vector<size_t> received(size, 0);
  for (const Round &round : rounds)
    for (const Transfer &t : round) received[t.to] += t.count;
  for (size_t r : received)
    if (r != static_cast<size_t>(size - 1)) return false;
  return true;
}

}  // namespace

START_TEST(registry_has_tuneds_allgather) {
  const CollectiveFamily &family = allgather_family();
  ck_assert(!family.rooted && family.moves_data && family.rounds);
  // 4.1.4's six, 5.0.7's sparbit, 6.0's k-radix Bruck (under Bruck's number) and direct messaging.
  ck_assert_int_eq(family.algorithms.size(), 9);
  for (const AlgorithmSpec &a : family.algorithms) {
    const bool k_bruck = a.name == "k_bruck";
    ck_assert(!a.splits && !a.parameters.segmented && a.parameters.fanouts.empty() == !k_bruck);
    ck_assert(a.ompi_function.starts_with(a.id == 8 ? "ompi_coll_base_allgather_direct_messaging"
                                                    : "ompi_coll_base_allgather_intra_"));
    ck_assert_int_eq(a.runs_only_on, a.id == 6 ? 2 : 0);
    ck_assert(a.since == (a.id == 7              ? OmpiVersion::v5_0
                          : k_bruck || a.id == 8 ? OmpiVersion::v6_0
                                                 : OmpiVersion::v4_1));
    ck_assert(a.until == (a.id == 2 && !k_bruck ? OmpiVersion::v5_0 : OmpiVersion::v6_0));
    const CallingConvention expected = a.id == 7   ? CallingConvention::allgather_in_place
                                       : k_bruck   ? CallingConvention::allgather_radix
                                       : a.id == 8 ? CallingConvention::allgather_own_block
                                                   : CallingConvention::allgather;
    ck_assert(a.convention == expected);
    ck_assert(a.composed == (a.id == 1 ? Composition::gather_then_bcast : Composition::none));
  }
  // Number 2 is the release's: Bruck's in 4.1 and 5.0, the k-radix Bruck in 6.0, the same
  // rounds at radix 2.
  ck_assert_str_eq(find_algorithm(Op::allgather, 2)->name.data(), "bruck");
  set_registry_release(OmpiVersion::v6_0);
  ck_assert_str_eq(find_algorithm(Op::allgather, 2)->name.data(), "k_bruck");
  ck_assert_str_eq(find_algorithm(Op::allgather, "bruck")->name.data(), "bruck");
  set_registry_release(OmpiVersion::v4_1);
  ck_assert(allgather_rounds(2, 7, 3, 4, 0, 2) == allgather_rounds(2, 7, 3, 4, 0, 0));
  // Candidates under number 2 are the line's: Bruck's without a radix up to 5.0, the k-radix
  // Bruck's with one in 6.0 (a radix below 2 would never end there).
  const CallShape call{Op::allgather, 8, 1, 0, true};
  for (OmpiVersion v : {OmpiVersion::v4_1, OmpiVersion::v5_0, OmpiVersion::v6_0}) {
    int radices = 0;
    for (const Candidate &c : enumerate_candidates(call, 5, kAllAlgorithms, v)) {
      if (c.algorithm != 2) continue;
      ++radices;
      ck_assert_msg(v == OmpiVersion::v6_0 ? c.fanout >= 2 : c.fanout == 0, "radix %d", c.fanout);
    }
    ck_assert_int_eq(radices, v == OmpiVersion::v6_0 ? 3 : 1);  // radices 2, 3 and 4 below 5 ranks
  }
  // Open MPI runs another off the sizes they need: recursive doubling Bruck, neighbor exchange the ring.
  ck_assert_int_eq(what_runs(Candidate{Op::allgather, 3, 0, 0}, 100, 1, 6, true).algorithm, 2);
  ck_assert_int_eq(what_runs(Candidate{Op::allgather, 3, 0, 0}, 100, 1, 8, true).algorithm, 3);
  ck_assert_int_eq(what_runs(Candidate{Op::allgather, 5, 0, 0}, 100, 1, 7, true).algorithm, 4);
  ck_assert_int_eq(what_runs(Candidate{Op::allgather, 5, 0, 0}, 100, 1, 6, true).algorithm, 5);
}
END_TEST

// ompi_coll_tuned_allgather_intra_dec_fixed, the same in 4.1.4 and 5.0.7: by the communicator's
// size and one rank's block (a few bands transcribed by hand).
START_TEST(fixed_rule_by_size_and_block) {
  struct Case {
    int p;
    size_t bytes;
    int algorithm;
  };
  const Case cases[] = {{2, 1, 6},        {2, 1 << 20, 6},  {3, 1, 3},         {31, 1 << 22, 3}, {32, 1023, 3},
                        {32, 1024, 5},    {32, 65536, 4},   {100, 511, 3},     {100, 512, 5},    {200, 131071, 5},
                        {200, 131072, 4}, {200, 524288, 5}, {200, 1 << 20, 4}, {300, 31, 3},     {300, 32, 2},
                        {300, 128, 3},    {600, 64, 2},     {600, 2048, 5},    {1500, 4, 2},     {1500, 16, 2},
                        {1500, 511, 2},   {3000, 31, 2},    {3000, 32, 3},     {5000, 1, 3},     {5000, 2, 2},
                        {5000, 8, 3},     {5000, 16, 2},    {5000, 4096, 5}};
  for (const Case &c : cases)
    for (OmpiVersion v : {OmpiVersion::v4_1, OmpiVersion::v5_0, OmpiVersion::v6_0}) {
      const Candidate d = ompi_fixed_decision(Op::allgather, c.bytes, c.p, true, v);
      ck_assert_msg(d.algorithm == c.algorithm, "P %d, %zu B: %d, expected %d", c.p, c.bytes, d.algorithm, c.algorithm);
    }
}
END_TEST

START_TEST(schedules_gather_every_block) {
  for (int p = 2; p <= 33; ++p)
    for (int algorithm : {2, 3, 4, 5, 7}) {
      const std::vector<Round> rounds = allgather_rounds(algorithm, p, 1, 1, 0);
      const bool runs = (algorithm != 3 || (p & (p - 1)) == 0) && (algorithm != 5 || p % 2 == 0);
      ck_assert_msg(runs != rounds.empty(), "algorithm %d on %d ranks", algorithm, p);
      if (!runs) continue;
      ck_assert_msg(gathers_everything(p, rounds), "algorithm %d on %d ranks", algorithm, p);
      ck_assert_msg(receives_each_block_once(p, rounds), "algorithm %d on %d ranks", algorithm, p);
    }
  ck_assert(gathers_everything(2, allgather_rounds(6, 2, 1, 1, 0)));
  ck_assert(allgather_rounds(6, 3, 1, 1, 0).empty() && allgather_rounds(1, 4, 1, 1, 0).empty());
  // Counts scale with the block: Bruck on 5 ranks sends 1, 2, then 1 block of 10 elements.
  const std::vector<Round> bruck = allgather_rounds(2, 5, 10, 4, 0);
  ck_assert_int_eq(bruck.size(), 3);
  ck_assert(bruck[0][0].count == 10 && bruck[1][0].count == 20 && bruck[2][0].count == 10);
  ck_assert(bruck[1][3].from == 3 && bruck[1][3].to == 1);  // to rank - 2
  // Sparbit on 6 ranks: distances 4, 2, 1; rank 0 sends 1, then 1 (one block left out), then 3 messages.
  const std::vector<Round> sparbit = allgather_rounds(7, 6, 1, 1, 0);
  ck_assert_int_eq(sparbit.size(), 3);
  ck_assert(sparbit[0].size() == 6 && sparbit[0][0].to == 4);
  ck_assert(sparbit[1].size() == 6 && sparbit[1][0].to == 2);
  ck_assert(sparbit[2].size() == 18 && sparbit[2][0].to == 1);
}
END_TEST

START_TEST(costs_by_hand) {
  const CalibrationTable t = one_channel_table();
  const double c = 1000;
  const auto p2p = one_channel_p2p;
  ck_assert(near(*predict(t, 4, 4, 1000), 3 * p2p(c)));                        // ring: 3 rounds of a block
  ck_assert(near(*predict(t, 8, 3, 1000), p2p(c) + p2p(2 * c) + p2p(4 * c)));  // doubling halves
  ck_assert(near(*predict(t, 5, 2, 1000), p2p(c) + p2p(2 * c) + p2p(c)));      // Bruck's 1, 2, 1 blocks
  ck_assert(near(*predict(t, 6, 5, 1000), p2p(c) + 2 * p2p(2 * c)));           // one block, then pairs
  ck_assert(near(*predict(t, 2, 6, 1000), p2p(c)));                            // one exchange
  ck_assert(near(*predict(t, 4, 7, 1000), p2p(c) + p2p(2 * c)));               // sparbit: 1, then 2 messages
  ck_assert(!predict(t, 6, 3, 1000) && !predict(t, 7, 5, 1000) && !predict(t, 3, 6, 1000));  // Open MPI runs others
  // Bruck's rotation through a fresh buffer of P - 1 blocks, where fresh memory costs.
  CalibrationTable fresh = t;
  fresh.fresh_memory_us_per_byte = 1e-4;
  fresh.fresh_memory_source = "by hand";
  ck_assert(near(*predict(fresh, 5, 2, 1000), *predict(t, 5, 2, 1000) + 4 * c * 1e-4));
}
END_TEST

START_TEST(linear_is_a_gather_and_the_models_bcast) {
  const CalibrationTable t = one_channel_table();
  Selector selector(t, one_cache(8));
  const std::optional<Decision> d = selector.decide(CallShape{Op::allgather, 1000, 1, 0, true});
  ck_assert(d.has_value());
  double linear = -1;
  for (const Prediction &p : d->predictions)
    if (p.candidate.algorithm == 1) linear = p.us;
  const double bcast = selector.decide(CallShape{Op::bcast, 8000, 1, 0, true})->predicted_us;
  const double gather =
      *predict_us(t, one_cache(8), Candidate{Op::allgather, 1, 0, 0}, CallShape{Op::allgather, 1000, 1, 0, true});
  ck_assert(gather > 0 && near(linear, gather + bcast));
  // Tuned's rule at 8 ranks is recursive doubling, the default weighed against.
  ck_assert(d->ompi_default && d->ompi_default->candidate.algorithm == 3);
}
END_TEST

START_TEST(explain_lists_every_algorithm_on_orfeo) {
  using namespace modeltuned::tools;
  const CalibrationTable all = every_channel_table();
  const Placement p = emulate_placement(orfeo_epyc(2), 256, MapBy::core);
  for (OmpiVersion v : {OmpiVersion::v4_1, OmpiVersion::v5_0}) {
    WhatIf what_if;
    what_if.op = Op::allgather;
    what_if.sizes = {4096};
    what_if.ompi = v;
    const nlohmann::json d = explain_what_if(all, p, what_if).at(0);
    std::set<int> listed;
    for (const auto &c : d["candidates"]) listed.insert(c["algorithm"].get<int>());
    const bool five = v == OmpiVersion::v5_0;
    ck_assert(listed == (five ? std::set<int>{1, 2, 3, 4, 5, 7} : std::set<int>{1, 2, 3, 4, 5}));
    const std::string text = format_decision(d, 0);
    ck_assert(text.starts_with("allgather of 4096 B"));
    ck_assert(text.find("not a candidate: two_proc") != std::string::npos);
    ck_assert((text.find("not a candidate: sparbit (Open MPI 4.1 has none") != std::string::npos) == !five);
  }
}
END_TEST

int main() {
  Suite *s = suite_create("allgather");
  TCase *tc = tcase_create("allgather");
  for (const TTest *test :
       {registry_has_tuneds_allgather, fixed_rule_by_size_and_block, schedules_gather_every_block, costs_by_hand,
        linear_is_a_gather_and_the_models_bcast, explain_lists_every_algorithm_on_orfeo})
    tcase_add_test(tc, test);
  suite_add_tcase(s, tc);
  return modeltuned_run_suite(s, CK_NORMAL);
}
