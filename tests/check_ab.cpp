// modeltuned ab's pieces without MPI: the size-table parser on OSU, IMB and modeltuned-latency
// output, the time column, the matching of tables across jobs, the coll-list rewriting of the
// baseline job, Student's t quantile, the interval on a known data set, the significance rule,
// and the job runner (status, output, timeout).
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/stats.hpp"
#include "tools/ab/analysis.hpp"
#include "tools/ab/arms.hpp"
#include "tools/ab/jobs.hpp"
#include "tools/ab/report.hpp"
#include "tools/ab/tables.hpp"

// Last: check.h defines macros (fail, ...) that clash with the standard library.
#include "tests/support/run_suite.h"

using namespace modeltuned;
using namespace modeltuned::ab;
namespace fs = std::filesystem;

namespace {

const char *kOsu =
    "# OSU MPI Broadcast Latency Test v7.3\n"
    "# Datatype: MPI_CHAR.\n"
    "# Size       Avg Latency(us)\n"
    "1                       1.05\n"
    "2                       1.10\n"
    "4                       1.20\n"
    "1048576               512.75\n";

const char *kOsuFull =
    "# OSU MPI Reduce Latency Test v7.3\n"
    "# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations\n"
    "4                       2.00              1.50              2.50        1000\n"
    "8                       3.00              2.50              3.50        1000\n";

const char *kImb =
    "#----------------------------------------------------------------\n"
    "# Benchmarking Bcast \n"
    "# #processes = 2 \n"
    "# ( 2 additional processes waiting in MPI_Barrier)\n"
    "#----------------------------------------------------------------\n"
    "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n"
    "            0         1000         0.03         0.04         0.03\n"
    "            1         1000         0.60         0.93         0.77\n"
    "            2         1000         0.61         0.91         0.75\n"
    "\n"
    "\n"
    "# All processes entering MPI_Finalize\n";

const char *kLatency =
    "# modeltuned-latency: MPI_Bcast on 2 ranks (MPI_BYTE), average of 20 iterations\n"
    "# Size       Avg Latency(us)\n"
    "1                       0.80\n"
    "2                       1.04\n"
    "\n"
    "# modeltuned-latency: MPI_Reduce on 2 ranks (MPI_INT, MPI_SUM), average of 20 iterations\n"
    "# Size       Avg Latency(us)\n"
    "4                       0.40\n"
    "8                       0.44\n"
    "\n"
    "# modeltuned-latency: MPI_Allreduce on 2 ranks (MPI_INT, MPI_SUM), average of 20 iterations\n"
    "# Size       Avg Latency(us)\n"
    "4                       0.55\n"
    "8                       0.61\n";

bool near(double a, double b, double tolerance) { return std::abs(a - b) <= tolerance; }

// The message of the RunError `f` throws ("" when it throws none).
template <class F>
std::string run_error(F f) {
  try {
    f();
  } catch (const RunError &e) {
    return e.what();
  }
  return "";
}

template <class F>
std::string usage_error(F f) {
  try {
    f();
  } catch (const UsageError &e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

// Strings by value: ck_assert_str_eq on a temporary's c_str() would read freed memory.
#define EXPECT_TEXT(got, want)                                                                      \
  do {                                                                                              \
    const std::string got_text = (got), want_text = (want);                                         \
    ck_assert_msg(got_text == want_text, "'%s', wanted '%s'", got_text.c_str(), want_text.c_str()); \
  } while (0)

}  // namespace

START_TEST(osu_table) {
  const auto tables = parse_tables(kOsu);
  ck_assert_uint_eq(tables.size(), 1);
  ck_assert_str_eq(tables[0].name.c_str(), "OSU MPI Broadcast Latency Test v7.3");
  ck_assert_int_eq(tables[0].column, 2);
  ck_assert(tables[0].sizes == (std::vector<uint64_t>{1, 2, 4, 1048576}));
  ck_assert(tables[0].values == (std::vector<double>{1.05, 1.10, 1.20, 512.75}));
}
END_TEST

START_TEST(imb_table_takes_t_avg) {
  const auto tables = parse_tables(kImb);
  ck_assert_uint_eq(tables.size(), 1);
  ck_assert_str_eq(tables[0].name.c_str(), "Benchmarking Bcast");
  ck_assert_int_eq(tables[0].column, 5);
  ck_assert(tables[0].sizes == (std::vector<uint64_t>{0, 1, 2}));
  ck_assert(tables[0].values == (std::vector<double>{0.03, 0.77, 0.75}));
  // --column overrides the header: t_min.
  const auto t_min = parse_tables(kImb, 3);
  ck_assert(t_min[0].values == (std::vector<double>{0.03, 0.60, 0.61}));
}
END_TEST

START_TEST(latency_tables) {
  const auto tables = parse_tables(kLatency);
  ck_assert_uint_eq(tables.size(), 3);
  ck_assert_str_eq(tables[0].name.c_str(),
                   "modeltuned-latency: MPI_Bcast on 2 ranks (MPI_BYTE), average of 20 iterations");
  ck_assert(contains(tables[1].name, "MPI_Reduce"));
  ck_assert(contains(tables[2].name, "MPI_Allreduce"));
  ck_assert(tables[2].sizes == (std::vector<uint64_t>{4, 8}));
  ck_assert(tables[2].values == (std::vector<double>{0.55, 0.61}));
}
END_TEST

START_TEST(column_choice) {
  ck_assert(parse_tables(kOsuFull)[0].values == (std::vector<double>{2.00, 3.00}));     // OSU's average
  ck_assert(parse_tables(kOsuFull, 4)[0].values == (std::vector<double>{2.50, 3.50}));  // the maximum
  const std::string error = run_error([] { parse_tables(kOsuFull, 6); });
  ck_assert_msg(
      contains(error, "OSU MPI Reduce Latency Test v7.3") && contains(error, "size 4") && contains(error, "column 6"),
      "%s", error.c_str());
}
END_TEST

START_TEST(what_is_not_a_row) {
  const char *text =
      "Size 1 2\n"        // letters first
      "# 1 2\n"           // a comment
      "-1 2.0\n"          // a negative size
      "1.5 2.0\n"         // not a whole number
      "64 fast\n"         // no number after the size
      "8\n"               // no number after the size
      "16 4.0\n"          // a row: its own table, without a title
      "warning: noise\n"  // ends it
      "32 5.0 6.0\n";
  const auto tables = parse_tables(text);
  ck_assert_uint_eq(tables.size(), 2);
  ck_assert_str_eq(tables[0].name.c_str(), "table 1");
  ck_assert(tables[0].sizes == (std::vector<uint64_t>{16}));
  ck_assert_str_eq(tables[1].name.c_str(), "table 2");  // the first table's title is not inherited
  ck_assert(tables[1].values == (std::vector<double>{5.0}));
  ck_assert_uint_eq(parse_tables("no numbers here\n").size(), 0);
}
END_TEST

START_TEST(tables_must_match) {
  const auto osu = parse_tables(kOsu), latency = parse_tables(kLatency);
  EXPECT_TEXT(run_error([&] { check_same_tables(osu, "round 1/6 baseline", osu, "round 2/6 modeltuned"); }), "");
  std::string error = run_error([&] { check_same_tables(latency, "round 1/6 baseline", osu, "round 1/6 modeltuned"); });
  ck_assert_msg(contains(error, "round 1/6 modeltuned printed 1 size table") && contains(error, "round 1/6 baseline") &&
                    contains(error, "printed 3"),
                "%s", error.c_str());
  auto shifted = osu;
  shifted[0].sizes[2] = 8;
  error = run_error([&] { check_same_tables(osu, "round 1/6 baseline", shifted, "round 3/6 baseline"); });
  ck_assert_msg(contains(error, "table 1 (OSU MPI Broadcast Latency Test v7.3)") && contains(error, "row 3") &&
                    contains(error, "round 1/6 baseline") && contains(error, "round 3/6 baseline"),
                "%s", error.c_str());
  auto shorter = osu;
  shorter[0].sizes.pop_back();
  shorter[0].values.pop_back();
  error = run_error([&] { check_same_tables(osu, "round 1/6 baseline", shorter, "round 2/6 modeltuned"); });
  ck_assert_msg(contains(error, "4 sizes, 1 to 1M") && contains(error, "3 sizes, 1 to 4"), "%s", error.c_str());
}
END_TEST

START_TEST(coll_list_rewriting) {
  EXPECT_TEXT(baseline_coll_list("^han", "x"), "^han,modeltuned");
  EXPECT_TEXT(baseline_coll_list("^", "x"), "^modeltuned");
  EXPECT_TEXT(baseline_coll_list("", "x"), "^modeltuned");
  EXPECT_TEXT(baseline_coll_list("tuned,modeltuned,basic,self", "x"), "tuned,basic,self");
  std::string error = usage_error([] { baseline_coll_list("tuned,basic", "--mca coll tuned,basic (in the command)"); });
  ck_assert_msg(contains(error, "--mca coll tuned,basic") && contains(error, "without modeltuned"), "%s",
                error.c_str());
  ck_assert(contains(usage_error([] { baseline_coll_list("modeltuned", "x"); }), "modeltuned alone"));
  ck_assert(contains(usage_error([] { baseline_coll_list("^han,modeltuned", "x"); }), "excludes modeltuned"));
}
END_TEST

START_TEST(arms_from_command_and_environment) {
  AbOptions o;
  o.command = {"mpirun", "-np", "2", "--mca", "coll", "^inter", "-x", "OMPI_MCA_coll=tuned,modeltuned", "./bench"};
  o.modeltuned_env = {{"A", "1"}};
  o.baseline_env = {{"B", "2"}};
  Arms arms = make_arms(o, std::string("^ignored"));  // the command line's lists win over the environment
  ck_assert(arms.modeltuned.argv == o.command);
  ck_assert(arms.modeltuned.env == (Variables{{"A", "1"}}));
  ck_assert_str_eq(arms.baseline.argv[5].c_str(), "^inter,modeltuned");
  ck_assert_str_eq(arms.baseline.argv[7].c_str(), "OMPI_MCA_coll=tuned");
  ck_assert(arms.baseline.env == (Variables{{"B", "2"}}));
  ck_assert_msg(contains(arms.baseline_change, "--mca coll ^inter,modeltuned"), "%s", arms.baseline_change.c_str());

  o.command = {"mpirun", "./bench"};
  arms = make_arms(o, std::nullopt);
  ck_assert(arms.baseline.argv == o.command);
  ck_assert(arms.baseline.env == (Variables{{"OMPI_MCA_coll", "^modeltuned"}, {"B", "2"}}));
  arms = make_arms(o, std::string("^han"));
  ck_assert(arms.baseline.env.front() == (std::pair<std::string, std::string>{"OMPI_MCA_coll", "^han,modeltuned"}));
  const std::string error = usage_error([&] { make_arms(o, std::string("self,tuned")); });
  ck_assert_msg(contains(error, "OMPI_MCA_coll=self,tuned (in the environment)"), "%s", error.c_str());
  // What the preflight's ompi_info gets from the command line.
  ck_assert(mca_base_settings({"mpirun", "--mca", "mca_base_component_path", "/a:/b", "-x",
                               "OMPI_MCA_mca_base_verbose=1", "--mca", "coll", "^x", "-mca", "mca_base_x"}) ==
            (Variables{{"OMPI_MCA_mca_base_component_path", "/a:/b"}, {"OMPI_MCA_mca_base_verbose", "1"}}));
}
END_TEST

START_TEST(mca_settings_become_environment) {
  AbOptions o;
  o.command = {"mpirun", "app"};
  o.command_given = true;
  RawOptions raw;
  raw.baseline_mca = {{"coll_sm_priority", "90"}};
  raw.modeltuned_mca = {{"coll_modeltuned_verbose", "1"}};
  raw.baseline_env = {"OMPI_MCA_coll_sm_priority=95"};
  finish_options(o, raw);
  ck_assert_uint_eq(o.baseline_env.size(), 2);
  ck_assert_str_eq(o.baseline_env[0].first.c_str(), "OMPI_MCA_coll_sm_priority");
  ck_assert_str_eq(o.baseline_env[0].second.c_str(), "90");
  ck_assert_str_eq(o.baseline_env[1].second.c_str(), "95");  // after it: the --baseline-env value wins
  ck_assert_uint_eq(o.modeltuned_env.size(), 1);
  ck_assert_str_eq(o.modeltuned_env[0].first.c_str(), "OMPI_MCA_coll_modeltuned_verbose");
  const Arms arms = make_arms(o, std::nullopt);
  bool in_baseline = false, in_modeltuned = false;
  for (const auto &[name, value] : arms.baseline.env) in_baseline |= name == "OMPI_MCA_coll_sm_priority";
  for (const auto &[name, value] : arms.modeltuned.env) in_modeltuned |= name == "OMPI_MCA_coll_sm_priority";
  ck_assert(in_baseline && !in_modeltuned);
  RawOptions bad;
  bad.baseline_mca = {{"coll sm", "1"}};
  AbOptions o2 = o;
  o2.baseline_env.clear();
  o2.modeltuned_env.clear();
  bool refused = false;
  try {
    finish_options(o2, bad);
  } catch (const UsageError &e) {
    refused = std::string(e.what()).find("'coll sm' is not an MCA parameter name") != std::string::npos;
  }
  ck_assert(refused);
}
END_TEST

START_TEST(student_t_quantiles) {
  ck_assert(near(student_t_quantile(0.975, 1), 12.7062, 5e-4));
  ck_assert(near(student_t_quantile(0.975, 5), 2.5706, 5e-5));
  ck_assert(near(student_t_quantile(0.975, 30), 2.0423, 5e-5));
  ck_assert(near(student_t_quantile(0.995, 10), 3.1693, 5e-5));
  ck_assert(near(student_t_quantile(0.95, 2), 2.9200, 5e-5));
  ck_assert(near(student_t_quantile(0.975, 1e6), 1.95996, 5e-5));  // the normal's
  ck_assert(near(student_t_quantile(0.025, 5), -2.5706, 5e-5));
  ck_assert(near(student_t_quantile(0.5, 7), 0, 1e-12));
  ck_assert(near(student_t_cdf(2.5706, 5), 0.975, 1e-5));
  ck_assert(near(incomplete_beta(2, 3, 0.4), 0.5248, 1e-12));  // 1 - P(Binomial(4, 0.4) <= 1)
  ck_assert(std::isnan(student_t_quantile(1, 5)) && std::isnan(student_t_quantile(0.9, 0)));
}
END_TEST

START_TEST(interval_on_known_data) {
  // ln r = ln 1.1, ln 1.2, ln 1.0, ln 1.15: mean 0.104349, sd 0.079008, t(0.975, 3) = 3.182446.
  const RatioCi ci = ratio_ci({1.1, 1.2, 1.0, 1.15}, 0.95);
  ck_assert_uint_eq(ci.n, 4);
  ck_assert(near(ci.geomean, 1.1099871, 1e-6));
  ck_assert(near(ci.low, 0.9802532, 1e-6));
  ck_assert(near(ci.high, 1.2568910, 1e-6));
  // Symmetric in log space: the inverse ratios get the inverse interval.
  const RatioCi inverse = ratio_ci({1 / 1.1, 1 / 1.2, 1 / 1.0, 1 / 1.15}, 0.95);
  ck_assert(near(inverse.low, 1 / ci.high, 1e-12) && near(inverse.high, 1 / ci.low, 1e-12));
  ck_assert(std::isnan(ratio_ci({1.1}, 0.95).low));
  ck_assert(std::isnan(ratio_ci({1.1, 0}, 0.95).geomean));
  ck_assert(near(geometric_mean({2, 8}), 4, 1e-12));
}
END_TEST

START_TEST(significance_rule) {
  const RatioCi slow{1.2, 1.12, 1.28, 4}, unclear{1.04, 0.99, 1.09, 4}, fast{0.8, 0.75, 0.85, 4};
  ck_assert(significantly_above(slow, 1.10) && !significantly_above(slow, 1.12));  // the low bound must be above
  ck_assert(!significantly_above(unclear, 1.00) && !significantly_below(unclear, 1.00));
  ck_assert(significantly_below(fast, 1 / 1.10) && !significantly_below(fast, 0.85));
  const std::vector<double> thresholds = {1.00, 1.05, 1.10};
  EXPECT_TEXT(significance_mark(slow, thresholds), "slower >1.10");
  EXPECT_TEXT(significance_mark(RatioCi{1.07, 1.06, 1.08, 4}, thresholds), "slower >1.05");
  EXPECT_TEXT(significance_mark(unclear, thresholds), "");
  EXPECT_TEXT(significance_mark(fast, thresholds), "faster <0.909");
}
END_TEST

// Two rounds of one table: size 1 as fast in both arms, size 2 1.2x slower in modeltuned.
START_TEST(analysis_of_rounds) {
  auto job = [](double wall, double t1, double t2) {
    SizeTable t{"bench", 2, {1, 2}, {t1, t2}};
    return JobRecord{wall, {t}};
  };
  const std::vector<Round> rounds = {{job(1.0, 10, 20), job(1.1, 10, 24.2)}, {job(2.0, 10, 20), job(2.0, 10, 23.8)}};
  const Analysis a = analyse(rounds, 0.95);
  ck_assert(near(a.wall.geomean, std::sqrt(1.1), 1e-12));
  ck_assert_uint_eq(a.tables.size(), 1);
  const TableResult &t = a.tables[0];
  ck_assert(near(t.sizes[0].ratio.geomean, 1, 1e-12) && near(t.sizes[0].ratio.low, 1, 1e-12));
  ck_assert(near(t.sizes[1].ratio.geomean, std::sqrt(1.21 * 1.19), 1e-12));
  ck_assert(near(t.sizes[1].baseline, 20, 1e-12) && near(t.sizes[1].modeltuned, std::sqrt(24.2 * 23.8), 1e-9));
  ck_assert(near(t.ratios[0], std::sqrt(1.21), 1e-12) && near(t.ratios[1], std::sqrt(1.19), 1e-12));
  ck_assert(any_significantly_above(a, 1.05) && !any_significantly_above(a, 1.2));  // size 2: [1.08, 1.33]
}
END_TEST

START_TEST(job_status_and_output) {
  const fs::path log = fs::temp_directory_path() / ("check-ab-" + std::to_string(getpid()) + ".txt");
  const auto env = environment_with({{"AB_TEST", "value"}});
  JobResult r = run_job({{"/bin/sh", "-c", "echo out $AB_TEST; echo err >&2; exit 3"}, env, 0}, log, {});
  ck_assert(r.end == JobResult::End::exited && r.code == 3 && !r.ok());
  ck_assert_str_eq(r.stdout_text.c_str(), "out value\n");
  ck_assert(last_lines(log, 20) == (std::vector<std::string>{"out value", "err"}));
  EXPECT_TEXT(r.status(0), "exit status 3");
  r = run_job({{"/bin/sh", "-c", "kill -9 $$"}, env, 0}, log, {});
  ck_assert(r.end == JobResult::End::signalled && r.code == 9);
  // The timeout ends the whole process group, the shell's child included.
  r = run_job({{"/bin/sh", "-c", "sleep 30; echo late"}, env, 0.3}, log, {});
  ck_assert(r.end == JobResult::End::timed_out && r.wall_s < 10);
  ck_assert_str_eq(r.stdout_text.c_str(), "");
  r = run_job({{"/nonexistent/program"}, env, 0}, log, {});
  ck_assert(r.end == JobResult::End::exited && r.code == 127);
  ck_assert(contains(last_lines(log, 1).at(0), "cannot run /nonexistent/program"));
  fs::remove(log);
}
END_TEST

int main() {
  Suite *s = suite_create("ab");
  TCase *tables = tcase_create("tables");
  tcase_add_test(tables, osu_table);
  tcase_add_test(tables, imb_table_takes_t_avg);
  tcase_add_test(tables, latency_tables);
  tcase_add_test(tables, column_choice);
  tcase_add_test(tables, what_is_not_a_row);
  tcase_add_test(tables, tables_must_match);
  suite_add_tcase(s, tables);
  TCase *arms = tcase_create("arms");
  tcase_add_test(arms, coll_list_rewriting);
  tcase_add_test(arms, arms_from_command_and_environment);
  tcase_add_test(arms, mca_settings_become_environment);
  tcase_add_test(arms, job_status_and_output);
  suite_add_tcase(s, arms);
  TCase *statistics = tcase_create("statistics");
  tcase_add_test(statistics, student_t_quantiles);
  tcase_add_test(statistics, interval_on_known_data);
  tcase_add_test(statistics, significance_rule);
  tcase_add_test(statistics, analysis_of_rounds);
  suite_add_tcase(s, statistics);
  return modeltuned_run_suite(s, CK_VERBOSE);
}
