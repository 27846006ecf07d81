// Other components' algorithms as candidates (model/collectives/components.cpp): their registry
// entries, where each is a candidate (its release, one node, the calls its component serves, order
// for non-commutative operations, whole messages), their measured-only prediction, and that only
// the table's checks of them, or a narrowed list, make one leave Open MPI's default.

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>

#include "model/registry/registry.hpp"
#include "model/select/selector.hpp"

#include "tests/support/one_channel.hpp"
#include "tests/support/run_suite.h"

using namespace modeltuned;
using namespace modeltuned::test;

namespace {

constexpr int kSm = kFirstComponentId, kAdapt = kFirstComponentId + 1, kXhc = kFirstComponentId + 2,
              kAcoll = kFirstComponentId + 3;

// `p` ranks on each of two nodes.
Placement two_nodes(int p) {
  std::vector<RankPlace> ranks;
  for (int node = 0; node < 2; ++node)
    for (int r = 0; r < p; ++r) ranks.push_back(RankPlace{node, 0, 0, 0, -1});
  return Placement(ranks);
}

// Whether the registry takes `spec` (it throws what is wrong otherwise).
bool register_ok(const AlgorithmSpec &spec) {
  try {
    register_algorithm(spec);
    return true;
  } catch (const std::invalid_argument &) {
    return false;
  }
}

const Prediction *find(const Decision &d, int algorithm) {
  for (const Prediction &p : d.predictions)
    if (p.candidate.algorithm == algorithm) return &p;
  return nullptr;
}

std::optional<Decision> decide_on(const Placement &p, const CallShape &call, OmpiVersion ompi,
                                  const CalibrationTable &t = one_channel_table(),
                                  AlgorithmMask allowed = kAllAlgorithms) {
  Selector selector(t, p, allowed_everywhere(allowed), nullptr, ompi);
  return selector.decide(call);
}

}  // namespace

START_TEST(registry_entries) {
  int specs = 0;
  for (const AlgorithmSpec &a : algorithm_registry()) {
    if (a.component.empty()) {
      ck_assert_int_lt(a.id, kFirstComponentId);
      continue;
    }
    ++specs;
    ck_assert_int_ge(a.id, kFirstComponentId);
    ck_assert(measured_only(a) && a.composed == Composition::none);
    const std::string entry = "mca_coll_modeltuned_" + std::string(a.component) + "_" + std::string(op_name(a.op));
    ck_assert_msg(a.ompi_function == entry, "%s", entry.c_str());
    ck_assert(a.name == a.component);
  }
  // sm and xhc: bcast, reduce, allreduce, barrier; adapt: bcast, reduce; acoll: all six
  ck_assert_int_eq(specs, 16);
  const AlgorithmSpec *sm = find_algorithm(Op::reduce, "sm");
  ck_assert(sm && sm->id == kSm && sm->order_preserving && sm->until == OmpiVersion::v5_0);
  const AlgorithmSpec *adapt = find_algorithm(Op::reduce, "adapt");
  ck_assert(adapt && adapt->id == kAdapt && !adapt->order_preserving && adapt->until == OmpiVersion::v6_0);
  ck_assert(parse_algorithm_list(Op::bcast, "sm,adapt") == ((1u << kSm) | (1u << kAdapt)));
  // A component's number and a tuned one are never mixed up.
  AlgorithmSpec wrong{.op = Op::bcast, .id = 3, .name = "other_sm", .ompi_function = "f", .component = "sm"};
  ck_assert_msg(!register_ok(wrong), "a component's algorithm took one of tuned's numbers");
}
END_TEST

// Measured only: the default's prediction, so that without checks the margin keeps the default.
START_TEST(predicted_as_the_default) {
  const CallShape call{Op::bcast, 1024, 1, 0, true};
  const std::optional<Decision> d = decide_on(one_cache(4), call, OmpiVersion::v4_1);
  ck_assert(d && d->ompi_default);
  for (int id : {kSm, kAdapt}) {
    const Prediction *p = find(*d, id);
    ck_assert_msg(p, "component algorithm %d is no candidate", id);
    ck_assert(near(p->us, d->ompi_default->us));
  }
  ck_assert_int_lt(d->pick.algorithm, kFirstComponentId);
}
END_TEST

START_TEST(where_each_is_a_candidate) {
  const CallShape bcast{Op::bcast, 1024, 1, 0, true};
  // sm serves one node only, and 6.0 has no sm; adapt runs anywhere, in every line.
  std::optional<Decision> d = decide_on(two_nodes(2), bcast, OmpiVersion::v4_1, every_channel_table());
  ck_assert(d && !find(*d, kSm) && find(*d, kAdapt));
  d = decide_on(one_cache(4), bcast, OmpiVersion::v6_0);
  ck_assert(d && !find(*d, kSm) && find(*d, kAdapt));
  d = decide_on(one_cache(4), bcast, OmpiVersion::v5_0);
  ck_assert(d && find(*d, kSm));
  // xhc: 6.0's, one node; its reductions up to its cico_max (above it they need a mapping
  // single-copy mechanism Debian lacks), its reduce at root 0 only.
  d = decide_on(one_cache(4), bcast, OmpiVersion::v5_0);
  ck_assert(d && !find(*d, kXhc));
  d = decide_on(one_cache(4), bcast, OmpiVersion::v6_0);
  ck_assert(d && find(*d, kXhc));
  d = decide_on(two_nodes(2), bcast, OmpiVersion::v6_0, every_channel_table());
  ck_assert(d && !find(*d, kXhc));
  for (const auto &[count, root, served] :
       {std::tuple{1024, 0, true}, std::tuple{1025, 0, false}, std::tuple{1024, 1, false}}) {
    d = decide_on(one_cache(4), CallShape{Op::reduce, static_cast<size_t>(count), 4, root, true}, OmpiVersion::v6_0);
    ck_assert_msg(d && (find(*d, kXhc) != nullptr) == served, "reduce of %d ints at root %d", count, root);
    d = decide_on(one_cache(4), CallShape{Op::allreduce, static_cast<size_t>(count), 4, 0, true}, OmpiVersion::v6_0);
    ck_assert(d && (find(*d, kXhc) != nullptr) == (count == 1024));
  }
  d = decide_on(one_cache(4), CallShape{Op::allreduce, 16, 4, 0, false}, OmpiVersion::v6_0);
  ck_assert(d && !find(*d, kXhc));  // its reductions hand a non-commutative operation on
  // acoll: 6.0's, on communicators of 16 ranks or more, one node or several, every op; its reduce
  // at root 0 only, its reductions commutative only.
  for (Op op : {Op::bcast, Op::reduce, Op::allreduce, Op::barrier, Op::allgather, Op::alltoall}) {
    const CallShape call{op, 256, 4, 0, true};
    d = decide_on(one_cache(16), call, OmpiVersion::v6_0);
    ck_assert_msg(d && find(*d, kAcoll), "%s", std::string(op_name(op)).c_str());
    d = decide_on(one_cache(15), call, OmpiVersion::v6_0);
    ck_assert_msg(d && !find(*d, kAcoll), "%s", std::string(op_name(op)).c_str());
    d = decide_on(one_cache(16), call, OmpiVersion::v5_0);
    ck_assert_msg(d && !find(*d, kAcoll), "%s", std::string(op_name(op)).c_str());
  }
  d = decide_on(two_nodes(8), bcast, OmpiVersion::v6_0, every_channel_table());
  ck_assert(d && find(*d, kAcoll));
  d = decide_on(one_cache(16), CallShape{Op::reduce, 256, 4, 3, true}, OmpiVersion::v6_0);
  ck_assert(d && !find(*d, kAcoll));
  d = decide_on(one_cache(16), CallShape{Op::allreduce, 256, 4, 0, false}, OmpiVersion::v6_0);
  ck_assert(d && !find(*d, kAcoll));
  // A non-commutative reduction: sm combines in rank order, adapt hands it on.
  CallShape reduce{Op::reduce, 256, 4, 0, false};
  d = decide_on(one_cache(4), reduce, OmpiVersion::v4_1);
  ck_assert(d && find(*d, kSm) && !find(*d, kAdapt));
  // sm hands elements larger than its control block (4096 B) to the component below.
  reduce = CallShape{Op::reduce, 2, 8192, 0, true};
  d = decide_on(one_cache(4), reduce, OmpiVersion::v4_1);
  ck_assert(d && !find(*d, kSm) && find(*d, kAdapt));
  // Ranks' datatypes that may cut the message differently: both cut it into fragments or segments.
  reduce = CallShape{Op::reduce, 1024, 1, 0, true, Metric::completion, true};
  d = decide_on(one_cache(4), reduce, OmpiVersion::v4_1);
  ck_assert(d && !find(*d, kSm) && !find(*d, kAdapt));
}
END_TEST

// A check that measured sm at half the default's prediction, and the default at its prediction:
// the pick leaves the default for sm, at that size only.
START_TEST(checks_make_it_the_pick) {
  CalibrationTable t = every_channel_table();
  const double half = std::log(0.5);
  t.checks.push_back({"bcast", "sm", 0, 0, "completion", "cache", "cache", 256, 1024, half, half, 10});
  t.checks.push_back({"bcast", "default", 0, 0, "completion", "cache", "cache", 256, 1024, -0.05, 0.05, 10});
  t.checks.push_back({"bcast", "default", 0, 0, "completion", "cache", "cache", 1024, 4096, -0.05, 0.05, 10});
  t.checks.push_back({"bcast", "sm", 0, 0, "completion", "cache", "cache", 1024, 4096, 0.2, 0.3, 10});
  std::optional<Decision> d = decide_on(one_cache(4), CallShape{Op::bcast, 512, 1, 0, true}, OmpiVersion::v4_1, t);
  ck_assert_msg(d && !d->kept_default && d->pick.algorithm == kSm, "picked %d, margin basis %d",
                d ? d->pick.algorithm : -1, d ? static_cast<int>(d->margin_basis) : -1);
  ck_assert(near(d->predicted_us, d->ompi_default->us));
  d = decide_on(one_cache(4), CallShape{Op::bcast, 2048, 1, 0, true}, OmpiVersion::v4_1, t);
  ck_assert(d && d->kept_default);
  // Across nodes sm serves no call: its check says nothing there.
  d = decide_on(two_nodes(2), CallShape{Op::bcast, 512, 1, 0, true}, OmpiVersion::v4_1, t);
  ck_assert(d && d->pick.algorithm != kSm);
}
END_TEST

// A paired check (relative_to_default) judges a measured-only candidate by its time over the
// default's in the same rounds, at the size measured: faster only where its interval lies below 1,
// and not where it is slower under the other objective. It replaces the check against the
// prediction, which here says sm is twice the default.
START_TEST(paired_checks_judge_it) {
  const auto paired = [](const char *objective, double from, double lo, double hi) {
    CheckResidual r{"bcast", "sm", 0, 0, objective, "cache", "cache", from, 2 * from, std::log(lo), std::log(hi), 20};
    r.relative_to_default = true;
    return r;
  };
  CalibrationTable t = every_channel_table();
  const double twice = std::log(2.0);
  t.checks.push_back({"bcast", "default", 0, 0, "completion", "cache", "cache", 256, 1024, -0.05, 0.05, 10});
  t.checks.push_back({"bcast", "sm", 0, 0, "completion", "cache", "cache", 256, 1024, twice, twice, 10});
  t.checks.push_back(paired("completion", 512, 0.7, 0.8));
  t.checks.push_back(paired("completion", 256, 0.9, 1.02));
  std::optional<Decision> d = decide_on(one_cache(4), CallShape{Op::bcast, 512, 1, 0, true}, OmpiVersion::v4_1, t);
  ck_assert_msg(d && !d->kept_default && d->pick.algorithm == kSm, "picked %d", d ? d->pick.algorithm : -1);
  const Prediction *sm = find(*d, kSm);
  ck_assert(sm && sm->versus_default && near(std::exp(sm->versus_default->hi), 0.8));
  // What it is expected to take (the guard's gain): the default's prediction by the middle of the range.
  ck_assert(near(d->predicted_us, d->ompi_default->us * std::sqrt(0.7 * 0.8)));
  d = decide_on(one_cache(4), CallShape{Op::bcast, 256, 1, 0, true}, OmpiVersion::v4_1, t);
  ck_assert(d && d->kept_default);
  // Slower by its rank mean at 512 B: the default stays, named as kept by that objective.
  t.checks.push_back({"bcast", "default", 0, 0, "rank_mean", "cache", "cache", 256, 1024, -0.05, 0.05, 10});
  t.checks.push_back(paired("rank_mean", 512, 1.1, 1.2));
  d = decide_on(one_cache(4), CallShape{Op::bcast, 512, 1, 0, true}, OmpiVersion::v4_1, t);
  ck_assert(d && d->kept_default && d->kept_by_other_objective);
}
END_TEST

// A user who narrows the list to a component gets it wherever it serves the call.
START_TEST(narrowed_list_runs_it) {
  const AlgorithmMask sm = AlgorithmMask{1} << kSm;
  std::optional<Decision> d =
      decide_on(one_cache(4), CallShape{Op::barrier, 0, 1, 0, true}, OmpiVersion::v4_1, one_channel_table(), sm);
  ck_assert(d && d->pick.algorithm == kSm && !d->ompi_default);
  d = decide_on(two_nodes(2), CallShape{Op::barrier, 0, 1, 0, true}, OmpiVersion::v4_1, every_channel_table(), sm);
  ck_assert(!d);  // nothing can run: the component hands the call back
}
END_TEST

int main() {
  Suite *s = suite_create("components");
  TCase *tc = tcase_create("components");
  for (const TTest *test : {registry_entries, predicted_as_the_default, where_each_is_a_candidate,
                            checks_make_it_the_pick, paired_checks_judge_it, narrowed_list_runs_it})
    tcase_add_test(tc, test);
  suite_add_tcase(s, tc);
  return modeltuned_run_suite(s, CK_NORMAL);
}
