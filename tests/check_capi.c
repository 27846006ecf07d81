/* The C API the component calls (model/capi/modeltuned_model.h), from C and without MPI: every
 * failure is a return value and one line, never an exception or a crash. */
#include "tests/support/run_suite.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/capi/modeltuned_model.h"

static const char *orfeo = MODELTUNED_SRCDIR "/calib/tables/orfeo-epyc.json";

static mt_place on(int node, int package, int l3) {
  mt_place p = {node, package, package, l3, -1};
  return p;
}

/* Every algorithm allowed, for each op. */
#define ALL ((const uint32_t[MT_OPS]){UINT32_MAX, UINT32_MAX, UINT32_MAX})

START_TEST(table_load_and_checksum) {
  char err[512] = "";
  mt_table *a = mt_table_load(orfeo, err, sizeof err);
  mt_table *b = mt_table_load(orfeo, err, sizeof err);
  ck_assert_msg(a && b, "load failed: %s", err);
  ck_assert(mt_table_checksum(a) == mt_table_checksum(b) && mt_table_checksum(a) != 0);
  mt_table_free(a);
  mt_table_free(b);
  ck_assert(NULL == mt_table_load("/nonexistent/table.json", err, sizeof err));
  ck_assert_msg(strstr(err, "/nonexistent/table.json") && !strchr(err, '\n'), "message: %s", err);
}
END_TEST

START_TEST(decide_and_explain) {
  char err[512] = "";
  mt_table *t = mt_table_load(orfeo, err, sizeof err);
  mt_place places[8];
  for (int r = 0; r < 8; ++r) places[r] = on(r / 4, 0, r % 4 / 2); /* 2 nodes, 2 L3 each */
  /* Every algorithm but scatter_allgather_ring (9) and Rabenseifner (7): narrowed lists, so Open
   * MPI's default is no candidate and the fastest prediction runs (docs/model.md#margin). */
  mt_comm_model *m = mt_comm_model_create(
      t, 8, places, (uint32_t[MT_OPS]){UINT32_MAX & ~(1u << 9), UINT32_MAX & ~(1u << 7), UINT32_MAX}, 0, err,
      sizeof err);
  ck_assert_msg(m != NULL, "%s", err);
  { /* All allowed: the margin applies; a kept default is algorithm 0, labelled as such. */
    mt_comm_model *all = mt_comm_model_create(t, 8, places, ALL, 0, err, sizeof err);
    mt_decision_report r = {.want_json = 1};
    mt_decision a;
    ck_assert_int_eq(mt_decide(all, &(mt_call){MT_OP_BCAST, 0, 1, 1, 1, 0}, &a, &r), 0);
    /* The shipped table's checks cover ORFEO's own communicator shapes, not this one: the
     * default is kept, unchecked, margin 0 (docs/model.md#margin). */
    ck_assert_msg(r.margin >= 0 && r.json && strstr(r.json, "\"margin\":") && strstr(r.json, "\"margin_basis\":"),
                  "margin %g", r.margin);
    if (0 == a.algorithm)
      ck_assert_msg(0 == strncmp(r.pick, "ompi_default:", 13) && strstr(r.json, "\"kept_default\":true"), "%s", r.pick);
    else
      ck_assert(strstr(r.json, "\"kept_default\":false") && a.algorithm >= 1 && a.algorithm <= 9);
    free(r.json);
    /* Unchecked here, bcast cannot leave the default; with bcast's and reduce's lists narrowed
     * (m), those two can. Computed once, the same the second time. */
    int cannot = 0, keeps = 0, again_cannot = 0, again_keeps = 0;
    ck_assert_int_eq(mt_comm_model_ops_left(all, MT_OBJECTIVE_COMPLETION, &cannot, &keeps), 0);
    ck_assert(cannot & (1 << MT_OP_BCAST));
    ck_assert_int_eq(mt_comm_model_ops_left(m, MT_OBJECTIVE_COMPLETION, &cannot, &keeps), 0);
    ck_assert_int_eq(cannot & ((1 << MT_OP_BCAST) | (1 << MT_OP_REDUCE)), 0);
    ck_assert_int_eq(mt_comm_model_ops_left(m, MT_OBJECTIVE_COMPLETION, &again_cannot, &again_keeps), 0);
    ck_assert(cannot == again_cannot && keeps == again_keeps);
    mt_comm_model_free(all);
  }
  char channels[64];
  mt_comm_model_channels(m, channels, sizeof channels);
  ck_assert_str_eq(channels, "cache,core,node");
  mt_decision d;
  mt_decision_report report = {.want_json = 1};
  ck_assert_int_eq(mt_decide(m, &(mt_call){MT_OP_BCAST, 0, 65536, 1, 1, 0}, &d, &report), 0);
  ck_assert(d.algorithm >= 1 && d.algorithm <= 9 && d.predicted_us > 0);
  ck_assert(d.runner_up_algorithm != d.algorithm && d.runner_up_us >= d.predicted_us);
  /* One call gives the log line's labels and the decision file's JSON, all about the same pick. */
  char label[96];
  mt_describe(MT_OP_BCAST, d.algorithm, d.segsize, d.fanout, label, sizeof label);
  ck_assert_str_eq(report.pick, label);
  mt_describe(MT_OP_BCAST, d.runner_up_algorithm, d.runner_up_segsize, d.runner_up_fanout, label, sizeof label);
  ck_assert_str_eq(report.runner_up, label);
  const char *json = report.json;
  ck_assert(json && json[0] == '{' && strstr(json, "\"candidates\"") && strstr(json, "\"ompi_default\"") &&
            !strchr(json, '\n'));
  char pick[160]; /* nlohmann::json orders keys: "algorithm" first, "label" among the rest */
  snprintf(pick, sizeof pick, "\"pick\":{\"algorithm\":%d,", d.algorithm);
  ck_assert_msg(strstr(json, pick), "no %s in %s", pick, json);
  snprintf(pick, sizeof pick, "\"label\":\"%s\"", report.pick);
  ck_assert_msg(strstr(strstr(json, "\"pick\":"), pick), "no %s in the pick of %s", pick, json);
  free(report.json);
  /* Without want_json: the labels only. */
  report = (mt_decision_report){.want_json = 0, .json = (char *)"stale"};
  ck_assert_int_eq(mt_decide(m, &(mt_call){MT_OP_BCAST, 0, 65536, 1, 1, 0}, &d, &report), 0);
  ck_assert(report.json == NULL && strcmp(report.pick, "none") != 0);
  /* Non-commutative: only linear (1) and in-order binary (6). */
  ck_assert_int_eq(mt_decide(m, &(mt_call){MT_OP_REDUCE, 3, 1000, 8, 0, 0}, &d, NULL), 0);
  ck_assert(d.algorithm == 1 || d.algorithm == 6);
  /* Same inputs, same answer (every rank must agree). */
  mt_decision again;
  mt_decide(m, &(mt_call){MT_OP_BCAST, 0, 65536, 1, 1, 0}, &d, NULL);
  mt_decide(m, &(mt_call){MT_OP_BCAST, 0, 65536, 1, 1, 0}, &again, NULL);
  ck_assert(0 == memcmp(&d, &again, sizeof d));
  mt_comm_model_free(m);

  /* Nothing allowed that can run: -1, and the component falls back. */
  uint32_t only_rabenseifner;
  ck_assert_int_eq(mt_parse_algorithms(MT_OP_REDUCE, "rabenseifner", &only_rabenseifner, err, sizeof err), 0);
  m = mt_comm_model_create(t, 8, places, (uint32_t[MT_OPS]){UINT32_MAX, only_rabenseifner, UINT32_MAX}, 0, err,
                           sizeof err);
  ck_assert_int_eq(mt_decide(m, &(mt_call){MT_OP_REDUCE, 0, 2, 4, 1, 0}, &d, NULL),
                   -1); /* count < 8: linear would run */
  /* The report still says so, and the JSON records the decision that nothing can run. */
  report = (mt_decision_report){.want_json = 1};
  ck_assert_int_eq(mt_decide(m, &(mt_call){MT_OP_REDUCE, 0, 2, 4, 1, 0}, &d, &report), -1);
  ck_assert_str_eq(report.pick, "none");
  ck_assert_str_eq(report.runner_up, "none");
  ck_assert_msg(report.json && strstr(report.json, "\"ompi_default\""), "json: %s", report.json);
  free(report.json);
  mt_comm_model_free(m);
  mt_table_free(t);
}
END_TEST

START_TEST(missing_channel_is_refused) {
  /* A table of one channel, and ranks on two nodes. */
  char path[] = "/tmp/modeltuned-capi-XXXXXX";
  int fd = mkstemp(path);
  ck_assert(fd >= 0);
  const char *text =
      "{\"format\":\"modeltuned-calibration\",\"version\":1,\"channels\":{\"cache\":{"
      "\"p2p\":[{\"alpha_us\":0.5,\"beta_us_per_byte\":0.0001}],"
      "\"fanout\":[{\"bytes\":1,\"alpha_us\":0.4,\"beta_us\":0.2,\"max_p\":4}]}},"
      "\"reduce\":{\"us_per_byte\":0.0001,\"source\":\"test\"}}";
  ck_assert(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
  close(fd);
  char err[512] = "";
  mt_table *t = mt_table_load(path, err, sizeof err);
  unlink(path);
  ck_assert_msg(t != NULL, "%s", err);
  mt_place places[2] = {on(0, 0, 0), on(1, 0, 0)};
  ck_assert(NULL == mt_comm_model_create(t, 2, places, ALL, 0, err, sizeof err));
  ck_assert_msg(strstr(err, "'node'"), "message: %s", err);
  mt_table_free(t);
}
END_TEST

START_TEST(algorithm_lists) {
  char err[512] = "";
  uint32_t mask = 0;
  ck_assert_int_eq(mt_parse_algorithms(MT_OP_BCAST, "", &mask, err, sizeof err), 0);
  ck_assert_uint_eq(mask, UINT32_MAX);
  ck_assert_int_eq(mt_parse_algorithms(MT_OP_BCAST, "binomial, 2", &mask, err, sizeof err), 0);
  ck_assert_uint_eq(mask, (1u << 6) | (1u << 2));
  ck_assert_int_eq(mt_parse_algorithms(MT_OP_BCAST, "bogus", &mask, err, sizeof err), -1);
  ck_assert_msg(strstr(err, "bogus") && strstr(err, "binomial (6)") && strstr(err, "linear or basic_linear (1)"),
                "message: %s", err);
  /* tuned's names are accepted too. */
  ck_assert_int_eq(mt_parse_algorithms(MT_OP_BCAST, "basic_linear,split_binary_tree", &mask, err, sizeof err), 0);
  ck_assert_uint_eq(mask, (1u << 1) | (1u << 4));
  ck_assert_int_eq(mt_parse_algorithms(MT_OP_REDUCE, "in-order_binary", &mask, err, sizeof err), 0);
  ck_assert_uint_eq(mask, 1u << 6);
  ck_assert_str_eq(mt_algorithm_name(MT_OP_REDUCE, 6), "in_order_binary");
  char label[64];
  mt_describe(MT_OP_BCAST, 2, 16384, 4, label, sizeof label);
  ck_assert_str_eq(label, "chain(fanout=4,segsize=16KiB)");
}
END_TEST

/* The registry's listing, from which the component builds its dispatch table. */
START_TEST(algorithm_listing) {
  /* tuned's 9, then coll/sm's, coll/adapt's, coll/xhc's and coll/acoll's */
  ck_assert_int_eq(mt_algorithm_count(MT_OP_BCAST), 13);
  /* Under 4.1 (the default line): 6.0's k-nomial reduce is listed (the component finds no
   * function for it), 6.0's k-radix Bruck is not (4.1's Bruck has its number). */
  ck_assert_int_eq(mt_algorithm_count(MT_OP_REDUCE), 12);
  ck_assert_int_eq(mt_algorithm_count(MT_OP_ALLGATHER), 9);
  mt_algorithm_info a;
  ck_assert_int_eq(mt_algorithm_at(MT_OP_BCAST, 3, &a), 0);
  ck_assert_int_eq(a.id, 4);
  ck_assert_str_eq(a.name, "split_bintree");
  ck_assert_str_eq(a.tuned_name, "split_binary_tree");
  ck_assert_str_eq(a.ompi_function, "ompi_coll_base_bcast_intra_split_bintree");
  ck_assert_int_eq(a.convention, MT_CALL_BCAST_SEGSIZE);
  ck_assert_int_eq(mt_algorithm_at(MT_OP_REDUCE, 1, &a), 0);
  ck_assert_str_eq(a.ompi_function, "ompi_coll_base_reduce_intra_chain");
  ck_assert_int_eq(a.convention, MT_CALL_REDUCE_SEGSIZE_FANOUT_REQUESTS);
  ck_assert_int_eq(mt_algorithm_at(MT_OP_REDUCE, 6, &a), 0);
  ck_assert_str_eq(a.name, "rabenseifner");
  ck_assert_str_eq(a.ompi_function, "ompi_coll_base_reduce_intra_redscat_gather");
  ck_assert_int_eq(mt_algorithm_at(MT_OP_REDUCE, 7, &a), 0);
  ck_assert_str_eq(a.name, "knomial");
  ck_assert_int_eq(a.convention, MT_CALL_REDUCE_SEGSIZE_REQUESTS_RADIX);
  ck_assert_int_eq(mt_algorithm_at(MT_OP_REDUCE, 8, &a), 0);
  ck_assert_str_eq(a.name, "sm");
  ck_assert_str_eq(a.component, "sm");
  ck_assert_str_eq(a.until, "5.0");
  ck_assert_str_eq(a.ompi_function, "mca_coll_modeltuned_sm_reduce");
  ck_assert_int_eq(a.convention, MT_CALL_REDUCE);
  ck_assert_int_eq(mt_algorithm_at(MT_OP_REDUCE, 10, &a), 0);
  ck_assert_str_eq(a.component, "xhc");
  ck_assert_str_eq(a.since, "6.0");
  ck_assert_int_eq(mt_algorithm_at(MT_OP_REDUCE, 11, &a), 0);
  ck_assert_str_eq(a.component, "acoll");
  ck_assert_str_eq(a.ompi_function, "mca_coll_modeltuned_acoll_reduce");
  ck_assert_int_eq(mt_algorithm_at(MT_OP_REDUCE, 12, &a), -1);
  ck_assert_int_eq(mt_algorithm_at(MT_OP_ALLGATHER, 1, &a), 0);
  ck_assert_str_eq(a.name, "bruck");
  /* Under 6.0, number 2 is the k-radix Bruck. */
  ck_assert_int_eq(mt_set_ompi_version("6.0.0rc2"), 0);
  ck_assert_int_eq(mt_algorithm_count(MT_OP_ALLGATHER), 9);
  ck_assert_int_eq(mt_algorithm_at(MT_OP_ALLGATHER, 1, &a), 0);
  ck_assert_str_eq(a.name, "k_bruck");
  ck_assert_int_eq(a.convention, MT_CALL_ALLGATHER_RADIX);
  ck_assert_int_eq(mt_set_ompi_version("4.1"), 0);
  ck_assert_int_eq(mt_algorithm_at(MT_OP_BCAST, -1, &a), -1);
}
END_TEST

START_TEST(topology_signature) {
  char err[512] = "", msg[512] = "";
  mt_table *t = mt_table_load(orfeo, err, sizeof err);
  ck_assert_int_eq(mt_table_topology_mismatch(t, 2, 8, 32, 128, 128, msg, sizeof msg), 0);
  ck_assert_int_eq(mt_table_topology_mismatch(t, 1, 1, 1, 2, 2, msg, sizeof msg), 1);
  ck_assert_msg(strstr(msg, "modeltuned-calibrate"), "message: %s", msg);
  mt_table_free(t);
}
END_TEST

/* Where han is below modeltuned, the model applies han's rule: it runs its own algorithms where a
 * node holds two or more of the ranks, and hands calls to tuned where each holds one; the direct
 * default's rule too (mt_fixed_rule). */
START_TEST(han_rule_and_fixed_rule) {
  char err[512] = "";
  mt_table *t = mt_table_load(orfeo, err, sizeof err);
  ck_assert_msg(t != NULL, "%s", err);
  mt_place two_per_node[4], one_per_node[2];
  for (int r = 0; r < 4; ++r) two_per_node[r] = on(r / 2, 0, 0);
  for (int r = 0; r < 2; ++r) one_per_node[r] = on(r, 0, 0);
  const int both = (1 << MT_OP_BCAST) | (1 << MT_OP_REDUCE);
  mt_comm_model *hier = mt_comm_model_create(t, 4, two_per_node, ALL, both, err, sizeof err);
  mt_comm_model *flat = mt_comm_model_create(t, 2, one_per_node, ALL, both, err, sizeof err);
  mt_comm_model *bcast_only = mt_comm_model_create(t, 4, two_per_node, ALL, 1 << MT_OP_BCAST, err, sizeof err);
  ck_assert(hier && flat && bcast_only);
  ck_assert_int_eq(mt_comm_model_han_default_ops(hier), both);
  ck_assert_int_eq(mt_comm_model_han_default_ops(flat), 0);
  ck_assert_int_eq(mt_comm_model_han_default_ops(bcast_only), 1 << MT_OP_BCAST);
  mt_comm_model_free(hier);
  mt_comm_model_free(flat);
  mt_comm_model_free(bcast_only);
  mt_table_free(t);
  int32_t fanout = -1; /* coll_tuned_decision_fixed.c: k-nomial below 128 ranks at 1 KiB, radix 4 */
  ck_assert_int_eq(mt_fixed_rule(MT_OP_BCAST, 1000, 100, 1, &fanout), 7);
  ck_assert_int_eq(fanout, 4);
  ck_assert_int_eq(mt_fixed_rule(MT_OP_REDUCE, 1000, 100, 0, &fanout), 6); /* in-order binary */
  ck_assert_int_eq(fanout, 0);
}
END_TEST

int main(void) {
  Suite *s = suite_create("capi");
  TCase *tc = tcase_create("capi");
  tcase_add_test(tc, table_load_and_checksum);
  tcase_add_test(tc, decide_and_explain);
  tcase_add_test(tc, missing_channel_is_refused);
  tcase_add_test(tc, algorithm_lists);
  tcase_add_test(tc, algorithm_listing);
  tcase_add_test(tc, topology_signature);
  tcase_add_test(tc, han_rule_and_fixed_rule);
  suite_add_tcase(s, tc);
  return modeltuned_run_suite(s, CK_NORMAL);
}
