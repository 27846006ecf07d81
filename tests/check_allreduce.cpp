// Unit tests of the model's allreduce (no MPI): the registry's entries and Open MPI's silent
// fallbacks, the schedules the plans come from, the costs against hand-computed values on a
// one-channel table, the non-overlapping algorithm as the model's own reduce and bcast, and
// explain's listing on a 256-rank ORFEO placement. tests/mpi/schedules.c compares the
// schedules with what libmpi sends.
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "model/collectives/allreduce/schedule.hpp"
#include "model/collectives/family.hpp"
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

double p2p(double bytes) { return one_channel_p2p(bytes); }

std::optional<double> predict(const CalibrationTable &t, int p, int alg, size_t count, uint32_t segsize = 0) {
  return predict_us(t, one_cache(p), Candidate{Op::allreduce, alg, segsize, 0},
                    CallShape{Op::allreduce, count, 4, 0, true});
}

}  // namespace

START_TEST(registry_has_tuneds_allreduce) {
  const char *names[] = {"",     "basic_linear",   "nonoverlapping", "recursive_doubling",
                         "ring", "segmented_ring", "rabenseifner",   "allgather_reduce"};
  for (int id = 1; id <= 7; ++id) {
    const AlgorithmSpec *spec = find_algorithm(Op::allreduce, id);
    ck_assert_msg(spec && (spec->tuned_name == names[id] || spec->name == names[id]), "allreduce %d", id);
    ck_assert(spec->ompi_function.starts_with("ompi_coll_base_allreduce_intra_"));
    // Order-preserving: the linear and recursive-doubling combinations, and the communicator's own
    // reduce (which takes only order-preserving algorithms for such an operation).
    ck_assert(spec->order_preserving == (id <= 3));
  }
  ck_assert(!find_algorithm(Op::allreduce, 8));
  ck_assert(find_algorithm(Op::allreduce, 7)->since == OmpiVersion::v6_0);
  ck_assert(find_algorithm(Op::allreduce, "segmented_ring")->parameters.segmented);
  ck_assert_str_eq(op_name(Op::allreduce).data(), "allreduce");
}
END_TEST

START_TEST(fallbacks_follow_open_mpi) {
  auto runs = [](int alg, size_t count, int p, bool commutative = true, uint32_t segsize = 0) {
    return what_runs(Candidate{Op::allreduce, alg, segsize, 0}, count, 4, p, commutative).algorithm;
  };
  ck_assert_int_eq(runs(4, 7, 8), 3);  // ring, count < P: recursive doubling
  ck_assert_int_eq(runs(4, 8, 8), 4);
  ck_assert_int_eq(runs(5, 1000, 8), 4);                        // segmented ring with segment size 0: the ring
  ck_assert_int_eq(runs(5, 7, 8), 3);                           // ... and below P elements recursive doubling
  ck_assert_int_eq(runs(5, 1000, 8, true, 64), 5);              // 16 elements per segment: 8 phases
  ck_assert_int_eq(runs(5, 100, 8, true, 64), 4);               // fewer than 8 x 16: the ring
  ck_assert_int_eq(runs(6, 5, 6), 6);                           // p' = 4 <= 5
  ck_assert_int_eq(runs(6, 3, 6), 1);                           // count < p': linear
  ck_assert_int_eq(runs(6, 1000, 6, false), 1);                 // non-commutative: linear
  ck_assert_uint_eq(segmented_ring_phases(64, 4, 1000, 8), 8);  // 7 of 128, and 104 left > 64
  ck_assert_uint_eq(segmented_ring_phases(0, 4, 1000, 8), 0);
  // What runs instead is never predicted, so never picked.
  const CalibrationTable t = one_channel_table();
  ck_assert(!predict(t, 8, 4, 7) && predict(t, 8, 4, 8));
  ck_assert(!predict(t, 8, 5, 1000) && predict(t, 8, 5, 1000, 64));
  ck_assert(!predict(t, 6, 6, 3) && predict(t, 6, 6, 5));
  // A non-commutative operation: only order-preserving candidates.
  for (const Candidate &c :
       enumerate_candidates(CallShape{Op::allreduce, 1000, 4, 0, false}, 8, kAllAlgorithms, OmpiVersion::v6_0))
    ck_assert(c.algorithm <= 3);
}
END_TEST

START_TEST(schedules_move_the_message) {
  for (int p = 2; p <= 13; ++p)
    for (size_t count : {size_t(1), size_t(p), size_t(3 * p + 1), size_t(1000)}) {
      // Recursive doubling: every surviving rank exchanges the whole message once per round.
      const RecursiveDoublingSchedule rd = recursive_doubling_schedule(p, count);
      const int pof2 = floor_power_of_two(p);
      ck_assert_int_eq(static_cast<int>(rd.fold.size()), p - pof2);
      for (const Round &round : rd.exchanges) {
        ck_assert_int_eq(static_cast<int>(round.size()), pof2);
        for (const Transfer &t : round)  // survivors only: a folded pair's odd rank, or an unpaired one
          ck_assert(t.count == count && t.from != t.to && (t.from % 2 == 1 || t.from >= 2 * (p - pof2)));
      }
      // The ring: P - 1 rounds each way; every rank sends all blocks but one in the reduce-scatter
      // and all but one in the allgather.
      const RingSchedule ring = ring_schedule(p, count, 1);
      ck_assert_int_eq(static_cast<int>(ring.reduce_scatter.size()), p - 1);
      for (int r = 0; r < p; ++r) {
        size_t sent = 0;
        for (const Round &round : ring.reduce_scatter) sent += round[r].count;
        ck_assert_uint_le(sent, count);
        ck_assert_uint_ge(sent + (count + p - 1) / p, count);
      }
      // Rabenseifner: each of the p' ranks ends the halving with its share and sends it back out.
      if (count < static_cast<size_t>(pof2)) continue;
      const RabenseifnerSchedule rab = allreduce_rabenseifner_schedule(p, count);
      std::vector<size_t> halved(p, 0), doubled(p, 0);
      for (const Round &round : rab.halving)
        for (const Transfer &t : round) halved[t.from] += t.count;
      for (const Round &round : rab.doubling)
        for (const Transfer &t : round) doubled[t.from] += t.count;
      size_t shares = 0;
      for (int r = 0; r < p; ++r)
        if (halved[r]) shares += count - halved[r];  // what it kept after halving
      ck_assert_uint_eq(shares, count);              // the shares partition the message
    }
}
END_TEST

START_TEST(costs_by_hand) {
  const CalibrationTable t = one_channel_table();
  const double bytes = 4000, reduce = 4000 * 1e-3;
  // Recursive doubling on 8 ranks: three exchanges of the whole message, each reduced.
  ck_assert(near(*predict(t, 8, 3, 1000), 3 * p2p(bytes) + 3 * reduce));
  // On 6: the fold (a send and a reduction), two exchanges, the unfold.
  ck_assert(near(*predict(t, 6, 3, 1000), 4 * p2p(bytes) + 3 * reduce));
  // The ring on 4 ranks: blocks of 250 elements, 3 reduce-scatter steps (each reduced), 3 allgather.
  ck_assert(near(*predict(t, 4, 4, 1000), 6 * p2p(1000) + 3 * 1000 * 1e-3));
  // Rabenseifner on 4: halves of 2000 then 1000 B, reduced, then the same back.
  ck_assert(near(*predict(t, 4, 6, 1000), 2 * p2p(2000) + 2 * p2p(1000) + 3000 * 1e-3));
}
END_TEST

START_TEST(nonoverlapping_is_the_models_reduce_and_bcast) {
  const CalibrationTable t = one_channel_table();
  Selector selector(t, one_cache(8));
  const CallShape call{Op::allreduce, 1000, 4, 0, true};
  const std::optional<Decision> d = selector.decide(call);
  ck_assert(d.has_value());
  double nonoverlapping = -1;
  for (const Prediction &p : d->predictions)
    if (p.candidate.algorithm == 2) nonoverlapping = p.us;
  const double reduce = selector.decide(CallShape{Op::reduce, 1000, 4, 0, true})->predicted_us;
  const double bcast = selector.decide(CallShape{Op::bcast, 1000, 4, 0, true})->predicted_us;
  ck_assert(near(nonoverlapping, reduce + bcast));
  // Tuned's fixed rule is the default weighed against.
  ck_assert(
      d->ompi_default &&
      d->ompi_default->candidate.algorithm ==
          what_runs(Candidate{Op::allreduce, allreduce_family().fixed_rule(4000, 8, true), 0, 0}, 1000, 4, 8, true)
              .algorithm);
}
END_TEST

START_TEST(explain_lists_every_algorithm_on_orfeo) {
  using namespace modeltuned::tools;
  const CalibrationTable all = every_channel_table();
  const Placement p = emulate_placement(orfeo_epyc(2), 256, MapBy::core);
  WhatIf what_if;
  what_if.op = Op::allreduce;
  what_if.sizes = {1 << 20};
  what_if.type_size = 4;
  const nlohmann::json d = explain_what_if(all, p, what_if).at(0);
  std::set<int> listed;
  for (const auto &c : d["candidates"]) listed.insert(c["algorithm"].get<int>());
  ck_assert(listed == (std::set<int>{1, 2, 3, 4, 5, 6}));
  // A table without checks: the held-out margin decides, and explain says so.
  ck_assert(format_decision(d, 0).find("modeltuned picks") != std::string::npos);
}
END_TEST

int main() {
  Suite *s = suite_create("allreduce");
  TCase *tc = tcase_create("allreduce");
  for (const TTest *test :
       {registry_has_tuneds_allreduce, fallbacks_follow_open_mpi, schedules_move_the_message, costs_by_hand,
        nonoverlapping_is_the_models_reduce_and_bcast, explain_lists_every_algorithm_on_orfeo})
    tcase_add_test(tc, test);
  suite_add_tcase(s, tc);
  return modeltuned_run_suite(s, CK_NORMAL);
}
