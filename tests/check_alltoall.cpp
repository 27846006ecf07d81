// The alltoall family (model/collectives/alltoall/): tuned's algorithms, tuned's fixed rule,
// schedules that deliver every block to its rank, costs worked out by hand on a one-channel table,
// and explain's listing on ORFEO. tests/mpi/schedules.c compares the schedules with libmpi's sends.
#include <map>
#include <set>
#include <vector>

#include "model/collectives/alltoall/schedule.hpp"
#include "model/collectives/family.hpp"
#include "model/cost/channel_cost.hpp"
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

// A block of `bytes` per peer.
std::optional<double> predict(const CalibrationTable &t, int p, int algorithm, size_t bytes) {
  return predict_us(t, one_cache(p), Candidate{Op::alltoall, algorithm, 0, 0},
                    CallShape{Op::alltoall, bytes, 1, 0, true});
}

// Whether every rank sends one block straight to every other rank: pairwise, linear, two_proc.
bool one_block_per_pair(int size, const std::vector<Round> &rounds) {
  std::map<std::pair<int, int>, size_t> sent;
  for (const Round &round : rounds)
    for (const Transfer &t : round) {
      if (t.from == t.to) return false;
      sent[{t.from, t.to}] += t.count;
    }
  if (static_cast<int>(sent.size()) != size * (size - 1)) return false;
  for (const auto &[pair, blocks] : sent)
    if (blocks != 1) return false;
  return true;
}

// Modified Bruck: the block rank s holds for rank s + i (after its rotation) moves by 2^k in the
// rounds whose bit k of i is set, so it arrives at rank s + i; each round's message carries the
// blocks with its bit set, to rank + 2^k.
bool bruck_delivers(int size, const std::vector<Round> &rounds) {
  int k = 0;
  for (int distance = 1; distance < size; distance <<= 1, ++k) {
    const Round &round = rounds.at(k);
    for (const Transfer &t : round)
      if (t.to != (t.from + distance) % size || t.count != bruck_blocks(size, distance)) return false;
  }
  if (static_cast<int>(rounds.size()) != k) return false;
  for (int s = 0; s < size; ++s)
    for (int i = 1; i < size; ++i) {
      int at = s;
      for (int distance = 1; distance < size; distance <<= 1)
        if (i & distance) at = (at + distance) % size;
      if (at != (s + i) % size) return false;
    }
  return true;
}

}  // namespace

START_TEST(registry_has_tuneds_alltoall) {
  const CollectiveFamily &family = alltoall_family();
  ck_assert(!family.rooted && family.moves_data && family.rounds);
  ck_assert_int_eq(family.algorithms.size(), 5);
  const char *names[] = {"linear", "pairwise", "modified_bruck", "linear_sync", "two_proc"};
  for (const AlgorithmSpec &a : family.algorithms) {
    ck_assert_str_eq(a.name.data(), names[a.id - 1]);
    ck_assert(!a.splits && !a.parameters.segmented && a.parameters.fanouts.empty() && !a.order_preserving);
    ck_assert(a.ompi_function.starts_with("ompi_coll_base_alltoall_intra_"));
    ck_assert_int_eq(a.runs_only_on, a.id == 5 ? 2 : 0);
    ck_assert(a.since == OmpiVersion::v4_1 && a.composed == Composition::none && !a.runs_instead);
    ck_assert(a.convention == (a.id == 4   ? CallingConvention::alltoall_requests
                               : a.id == 3 ? CallingConvention::alltoall_one_layout
                                           : CallingConvention::alltoall));
  }
  ck_assert_int_eq(find_algorithm(Op::alltoall, "basic_linear")->id, 1);  // tuned's name
}
END_TEST

// ompi_coll_tuned_alltoall_intra_dec_fixed, the same in 4.1.4 and 5.0.7: by the communicator's
// size and one block (band edges transcribed by hand).
START_TEST(fixed_rule_by_size_and_block) {
  struct Case {
    int p;
    size_t bytes;
    int algorithm;
  };
  const Case cases[] = {
      {2, 1, 2},         {2, 2, 5},        {2, 3, 5},        {2, 4, 2},         {2, 16, 5},       {2, 64, 2},
      {2, 256, 5},       {2, 4096, 2},     {2, 32768, 4},    {2, 262144, 5},    {2, 1 << 20, 2},  {3, 1, 4},
      {7, 8192, 1},      {7, 16384, 4},    {7, 65536, 1},    {7, 524288, 2},    {7, 1 << 20, 1},  {8, 262143, 4},
      {15, 262144, 1},   {16, 3, 4},       {16, 4, 3},       {31, 512, 4},      {31, 8192, 1},    {31, 32768, 4},
      {31, 262144, 1},   {31, 524288, 4},  {32, 511, 3},     {63, 524288, 4},   {64, 1023, 3},    {64, 1024, 1},
      {64, 2048, 4},     {127, 4096, 1},   {127, 262144, 2}, {128, 1024, 4},    {255, 2048, 1},   {256, 1023, 3},
      {256, 8191, 4},    {511, 32768, 2},  {512, 511, 3},    {512, 8192, 1},    {1023, 16384, 4}, {1023, 131072, 1},
      {1023, 262144, 2}, {1024, 511, 3},   {1024, 1023, 4},  {2047, 2047, 1},   {2047, 16384, 1}, {2047, 262144, 4},
      {2048, 1023, 3},   {2048, 4095, 4},  {4095, 8192, 4},  {4095, 131072, 1}, {4096, 2047, 3},  {4096, 8191, 4},
      {4096, 16384, 4},  {4096, 32768, 1}, {4096, 65536, 4}};
  for (const Case &c : cases)
    for (OmpiVersion v : {OmpiVersion::v4_1, OmpiVersion::v5_0}) {
      const Candidate d = ompi_fixed_decision(Op::alltoall, c.bytes, c.p, true, v);
      ck_assert_msg(d.algorithm == c.algorithm, "P %d, %zu B: %d, expected %d", c.p, c.bytes, d.algorithm, c.algorithm);
    }
}
END_TEST

START_TEST(schedules_deliver_every_block) {
  for (int p = 2; p <= 33; ++p) {
    for (int algorithm : {1, 2, 4})
      ck_assert_msg(one_block_per_pair(p, alltoall_rounds(algorithm, p, 1, 1, 0)), "algorithm %d on %d", algorithm, p);
    ck_assert_msg(bruck_delivers(p, alltoall_rounds(3, p, 1, 1, 0)), "modified Bruck on %d ranks", p);
  }
  ck_assert(one_block_per_pair(2, alltoall_rounds(5, 2, 1, 1, 0)));
  ck_assert(alltoall_rounds(5, 3, 1, 1, 0).empty() && alltoall_rounds(2, 1, 1, 1, 0).empty() &&
            alltoall_rounds(6, 4, 1, 1, 0).empty());
  // linear posts its sends from rank - 1 down, in one round; pairwise sends to rank + k in round k.
  const std::vector<Round> linear = alltoall_rounds(1, 4, 10, 4, 0);
  ck_assert(linear.size() == 1 && linear[0][0].to == 3 && linear[0][1].to == 2 && linear[0][2].to == 1);
  ck_assert_int_eq(linear[0][0].count, 10);
  const std::vector<Round> pairwise = alltoall_rounds(2, 5, 10, 4, 0);
  ck_assert(pairwise.size() == 4 && pairwise[2][1].to == 4 && pairwise[2][1].count == 10);
  // Bruck on 5 ranks: 2, 2, then 1 block of 10 elements.
  const std::vector<Round> bruck = alltoall_rounds(3, 5, 10, 4, 0);
  ck_assert(bruck.size() == 3 && bruck[0][0].count == 20 && bruck[1][0].count == 20 && bruck[2][0].count == 10);
}
END_TEST

START_TEST(costs_by_hand) {
  const CalibrationTable t = one_channel_table();
  const double c = 1000;
  const auto p2p = one_channel_p2p;
  ck_assert(near(*predict(t, 4, 2, 1000), 3 * p2p(c)));                        // pairwise: 3 exchanges
  ck_assert(near(*predict(t, 5, 3, 1000), p2p(2 * c) + p2p(2 * c) + p2p(c)));  // Bruck's 2, 2, 1 blocks
  ck_assert(near(*predict(t, 2, 5, 1000), p2p(c)));                            // one exchange
  ck_assert(!predict(t, 3, 5, 1000));                                          // Open MPI refuses two_proc
  // Posting everything at once saves pairwise's latencies, not its bytes: 1 KB blocks on 8 ranks
  // take the 7 exchanges' bytes and one latency; a 1-byte block, each rank's flat tree to the 7.
  const double volume = 7 * (p2p(c) - p2p(0)) + p2p(0);
  ck_assert(near(*predict(t, 8, 1, 1000), volume));
  ck_assert(near(*predict(t, 8, 4, 1000), volume));
  const ChannelTable &cache = t.channels[static_cast<int>(Channel::cache)];
  const double flat = flat_tree_us(cache, FlatTreeKind::fanout, 8, 1);
  ck_assert(flat > 7 * 1e-3 + 0.5 && near(*predict(t, 8, 1, 1), flat));
  // Bruck's rotation through a fresh buffer of P blocks, where fresh memory costs.
  CalibrationTable fresh = t;
  fresh.fresh_memory_us_per_byte = 1e-4;
  fresh.fresh_memory_source = "by hand";
  ck_assert(near(*predict(fresh, 5, 3, 1000), *predict(t, 5, 3, 1000) + 5 * c * 1e-4));
}
END_TEST

START_TEST(explain_lists_every_algorithm_on_orfeo) {
  using namespace modeltuned::tools;
  const CalibrationTable all = every_channel_table();
  const Placement p = emulate_placement(orfeo_epyc(2), 256, MapBy::core);
  for (OmpiVersion v : {OmpiVersion::v4_1, OmpiVersion::v5_0}) {
    WhatIf what_if;
    what_if.op = Op::alltoall;
    what_if.sizes = {4096};
    what_if.ompi = v;
    const nlohmann::json d = explain_what_if(all, p, what_if).at(0);
    std::set<int> listed;
    for (const auto &c : d["candidates"]) listed.insert(c["algorithm"].get<int>());
    ck_assert(listed == (std::set<int>{1, 2, 3, 4}));
    const std::string text = format_decision(d, 0);
    ck_assert(text.starts_with("alltoall of 4096 B"));
    ck_assert(text.find("not a candidate: two_proc") != std::string::npos);
    // Tuned's rule at 256 ranks and 4 KiB is linear_sync; han, below modeltuned on these two nodes
    // under 5.0, has no alltoall: tuned's rule is the default under both.
    ck_assert_int_eq(d["ompi_default"]["algorithm"].get<int>(), 4);
    ck_assert(d["fallback"] == "tuned" && d["default_runs"] == "tuned_rule");
    what_if.op = Op::allgather;
    const nlohmann::json allgather = explain_what_if(all, p, what_if).at(0);
    ck_assert(allgather["default_runs"] == (v == OmpiVersion::v5_0 ? "han" : "tuned_rule"));
  }
}
END_TEST

int main() {
  Suite *s = suite_create("alltoall");
  TCase *tc = tcase_create("alltoall");
  for (const TTest *test : {registry_has_tuneds_alltoall, fixed_rule_by_size_and_block, schedules_deliver_every_block,
                            costs_by_hand, explain_lists_every_algorithm_on_orfeo})
    tcase_add_test(tc, test);
  suite_add_tcase(s, tc);
  return modeltuned_run_suite(s, CK_NORMAL);
}
