#include <unistd.h>

#include <cstdio>
// Adding an algorithm is one registry entry: a test-only algorithm registered here, predicted
// faster than any real one, must be enumerated and picked by the selector, shown by explain,
// respected by the fixed-rule emulation's fallbacks, and listed by the C API the component builds
// its dispatch table and parameter help from.
#include <cstring>
#include <optional>
#include <string>

#include "model/calibration/table.hpp"
#include "model/capi/modeltuned_model.h"
#include "model/select/ompi_fixed.hpp"
#include "model/select/selector.hpp"
#include "tools/lib/explain.hpp"

// Last: check.h defines a `fail` macro that breaks the standard streams.
#include "tests/support/run_suite.h"

using namespace modeltuned;

namespace {

constexpr int kDummyId = 12;
constexpr int kDummyFanouts[] = {2, 5};
constexpr size_t kDummyMinCount = 64;

// Its plan: the linear algorithm's tree, which the evaluator does not even read.
Plan dummy_plan(const Placement &placement, int, int root) { return linear_plan(placement, root); }
// A nanosecond per unit of fan-out: faster than anything real, and fan-out 2 beats 5.
double dummy_evaluate(const Evaluation &e, const Plan &) { return 1e-3 * e.candidate.fanout; }
// Pretends Open MPI runs the linear bcast below kDummyMinCount elements.
std::optional<Candidate> dummy_runs_instead(const Candidate &c, const CallShape &call, int) {
  if (call.count >= kDummyMinCount) return std::nullopt;
  return Candidate{c.op, find_algorithm(c.op, "linear")->id, 0, 0};
}

// Registered once per process (check forks each test; without forking this keeps one copy).
const AlgorithmSpec &dummy() {
  static const AlgorithmSpec &registered = []() -> const AlgorithmSpec & {
    AlgorithmSpec s;
    s.op = Op::bcast;
    s.id = kDummyId;
    s.name = "test_instant";
    s.tuned_name = "test-instant";
    s.description = "a test-only algorithm predicted to take nanoseconds";
    s.parameters.fanout_name = "fanout";
    s.parameters.fanouts = kDummyFanouts;
    s.order_preserving = true;
    s.ompi_function = "test_coll_base_bcast_intra_instant";
    s.convention = CallingConvention::bcast_segsize_fanout;
    s.plan = dummy_plan;
    s.evaluate = dummy_evaluate;
    s.runs_instead = dummy_runs_instead;
    return register_algorithm(s);
  }();
  return registered;
}

const CalibrationTable &orfeo() {
  static const CalibrationTable table = [] {  // without checks: they cover no test algorithm (docs/model.md#margin)
    CalibrationTable t = load_calibration(MODELTUNED_SRCDIR "/calib/tables/orfeo-epyc.json");
    t.checks.clear();
    return t;
  }();
  return table;
}

// Eight ranks sharing an L3 (the cache channel only).
Placement eight_ranks() { return Placement(std::vector<RankPlace>(8, RankPlace{0, 0, 0, 0, -1})); }

}  // namespace

START_TEST(selector_considers_and_picks_it) {
  dummy();
  const CallShape call{Op::bcast, 1000, 1, 0, true};
  int dummies = 0;
  for (const Candidate &c : enumerate_candidates(call, 8, kAllAlgorithms, OmpiVersion::v4_1))
    if (c.algorithm == kDummyId) {
      ++dummies;
      ck_assert(c.segsize == 0 && (c.fanout == 2 || c.fanout == 5));
    }
  ck_assert_int_eq(dummies, 2);
  auto d = decide(orfeo(), eight_ranks(), call, kAllAlgorithms);
  ck_assert(d && d->pick == (Candidate{Op::bcast, kDummyId, 0, 2}));
  ck_assert(d->predictions[1].candidate == (Candidate{Op::bcast, kDummyId, 0, 5}));
  ck_assert(d->predictions.size() > 10);  // the real algorithms were predicted too
  // Names, tuned's name and number restrict to it; a list without it leaves it out.
  for (const char *list : {"test_instant", "test-instant", "12"})
    ck_assert_uint_eq(parse_algorithm_list(Op::bcast, list), AlgorithmMask{1} << kDummyId);
  auto without = decide(orfeo(), eight_ranks(), call, parse_algorithm_list(Op::bcast, "binomial,chain"));
  for (const Prediction &p : without->predictions) ck_assert_int_ne(p.candidate.algorithm, kDummyId);
}
END_TEST

START_TEST(its_fallback_is_never_picked) {
  dummy();
  // Where Open MPI would run something else, the model predicts nothing and what_runs says what runs.
  const CallShape small{Op::bcast, kDummyMinCount - 1, 1, 0, true};
  auto d = decide(orfeo(), eight_ranks(), small, kAllAlgorithms);
  for (const Prediction &p : d->predictions) ck_assert_int_ne(p.candidate.algorithm, kDummyId);
  ck_assert(!predict_us(orfeo(), eight_ranks(), Candidate{Op::bcast, kDummyId, 0, 2}, small));
  ck_assert_int_eq(what_runs(Candidate{Op::bcast, kDummyId, 0, 2}, kDummyMinCount - 1, 1, 8, true).algorithm, 1);
  ck_assert_int_eq(what_runs(Candidate{Op::bcast, kDummyId, 0, 2}, kDummyMinCount, 1, 8, true).algorithm, kDummyId);
}
END_TEST

START_TEST(explain_shows_it) {
  dummy();
  tools::WhatIf what_if;
  what_if.op = Op::bcast;
  what_if.sizes = {1000};
  const nlohmann::json decisions = tools::explain_what_if(orfeo(), eight_ranks(), what_if);
  const nlohmann::json &pick = decisions.at(0).at("pick");
  const std::string name = pick.at("name").get<std::string>(), label = pick.at("label").get<std::string>();
  ck_assert_str_eq(name.c_str(), "test_instant");
  ck_assert_str_eq(label.c_str(), "test_instant(fanout=2)");
  const std::string text = tools::format_decision(decisions.at(0), 3);
  ck_assert_msg(text.find("modeltuned picks   test_instant(fanout=2)") != std::string::npos, "%s", text.c_str());
  ck_assert_msg(text.find("test_instant(fanout=5)") != std::string::npos, "%s", text.c_str());
}
END_TEST

START_TEST(c_api_lists_and_decides_it) {
  dummy();
  // tuned's 9 and the other components' 4 (sm, adapt, xhc, acoll), then the dummy
  ck_assert_int_eq(mt_algorithm_count(MT_OP_BCAST), 14);
  ck_assert_int_eq(mt_algorithm_count(MT_OP_REDUCE), 12);
  mt_algorithm_info info;
  ck_assert_int_eq(mt_algorithm_at(MT_OP_BCAST, 13, &info), 0);
  ck_assert_int_eq(info.id, kDummyId);
  ck_assert_str_eq(info.name, "test_instant");
  ck_assert_str_eq(info.tuned_name, "test-instant");
  ck_assert_str_eq(info.ompi_function, "test_coll_base_bcast_intra_instant");
  ck_assert_int_eq(info.convention, MT_CALL_BCAST_SEGSIZE_FANOUT);
  uint32_t mask = 0;
  char err[512] = "";
  ck_assert_int_eq(mt_parse_algorithms(MT_OP_BCAST, "test-instant", &mask, err, sizeof err), 0);
  ck_assert_uint_eq(mask, 1u << kDummyId);
  ck_assert_int_eq(mt_parse_algorithms(MT_OP_BCAST, "bogus", &mask, err, sizeof err), -1);
  ck_assert_msg(std::strstr(err, "test_instant or test-instant (12)"), "%s", err);
  // The component's path: load, model a communicator, decide.
  const std::string unchecked = "/tmp/modeltuned-registry-orfeo-" + std::to_string(getpid()) + ".json";
  save_calibration(orfeo(), unchecked);  // the ORFEO table without checks, as above
  mt_table *table = mt_table_load(unchecked.c_str(), err, sizeof err);
  std::remove(unchecked.c_str());
  ck_assert_msg(table, "%s", err);
  mt_place places[8];
  for (mt_place &p : places) p = mt_place{0, 0, 0, 0, -1};
  const uint32_t all[MT_OPS] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
  mt_comm_model *model = mt_comm_model_create(table, 8, places, all, 0, err, sizeof err);
  ck_assert_msg(model, "%s", err);
  mt_decision d;
  const mt_call call{MT_OP_BCAST, 0, 1000, 1, 1, 0};
  ck_assert_int_eq(mt_decide(model, &call, &d, nullptr), 0);
  ck_assert_int_eq(d.algorithm, kDummyId);
  ck_assert_int_eq(d.fanout, 2);
  char label[64];
  mt_describe(MT_OP_BCAST, d.algorithm, d.segsize, d.fanout, label, sizeof label);
  ck_assert_str_eq(label, "test_instant(fanout=2)");
  mt_comm_model_free(model);
  mt_table_free(table);
}
END_TEST

int main() {
  Suite *s = suite_create("registry");
  TCase *tc = tcase_create("registry");
  tcase_add_test(tc, selector_considers_and_picks_it);
  tcase_add_test(tc, its_fallback_is_never_picked);
  tcase_add_test(tc, explain_shows_it);
  tcase_add_test(tc, c_api_lists_and_decides_it);
  suite_add_tcase(s, tc);
  return modeltuned_run_suite(s, CK_NORMAL);
}
