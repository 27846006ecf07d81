// Tests of modeltuned-bench: a tiny run under mpirun (np 3) must write a complete, consistent CSV,
// a summary that agrees with the CSV's medians, and report which algorithm ran exactly as
// modeltuned's own per-call trace (coll_modeltuned_verbose 20) shows it; --quick must measure
// only the default and modeltuned; a bad flag must end the job quickly with one line naming it
// and status 2.
//
// Paths come from the build (tests/bench.mk) and can be overridden from the environment:
// MODELTUNED_TEST_BUILDDIR, MODELTUNED_TEST_SRCDIR, MODELTUNED_TEST_MPIRUN,
// MODELTUNED_TEST_OMPI_MCA_DIR, MODELTUNED_TEST_TABLE, MODELTUNED_TEST_RUN_TIMEOUT.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "model/registry/registry.hpp"
#include "tests/support/mpi_launch.hpp"
#include "common/stats.hpp"

// Last: check.h defines a fail() macro that breaks the standard headers.
#include "tests/support/run_suite.h"

namespace fs = std::filesystem;
using modeltuned::Op;

namespace {

using namespace modeltuned::test;

constexpr int kRunTimeoutSeconds = 40;  // one mpirun of the bench (MODELTUNED_TEST_RUN_TIMEOUT overrides)

std::vector<std::string> split(const std::string &text, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, sep)) out.push_back(item);
  return out;
}

bool starts_with(const std::string &s, const std::string &p) { return s.rfind(p, 0) == 0; }

struct Run : LaunchResult {
  std::string describe() const {
    std::string d = "command: " + command + "\nexit status: " + std::to_string(exit_status) +
                    (timed_out ? " (killed after timeout)" : "") + "\nmpirun output:\n" +
                    launcher_output.substr(0, 3000);
    for (const auto &[rank, text] : rank_stderr)
      d += "\nrank " + std::to_string(rank) + " stderr:\n" + text.substr(0, 1500);
    if (rank_stdout.count(0)) d += "\nrank 0 stdout:\n" + rank_stdout.at(0).substr(0, 6000);
    return d;
  }
};

[[noreturn]] void fail_run(const Run &r, const std::string &what) {
  std::fprintf(stderr, "---- %s\n%s\n----\n", what.c_str(), r.describe().c_str());
  ck_abort_msg("%s (command and output in the test log)", what.c_str());
  std::abort();
}
void expect(bool ok, const Run &r, const std::string &what) {
  if (!ok) fail_run(r, what);
}

// mpirun in its own process group (killed as a whole on timeout), hermetic environment, each
// rank's output in its own files.
Run run_bench(const fs::path &scratch, int np, const std::vector<std::string> &mca,
              const std::vector<std::string> &args) {
  Launch launch;
  launch.np = np;
  launch.timeout_seconds = run_timeout_seconds(kRunTimeoutSeconds);
  launch.mpirun_args = {"--mca", "coll_modeltuned_calibration_file", table_path()};
  launch.mpirun_args.insert(launch.mpirun_args.end(), mca.begin(), mca.end());
  launch.program = builddir() + "/tools/bench/modeltuned-bench";
  launch.program_args = args;
  Run result;
  static_cast<LaunchResult &>(result) = launch_mpi(scratch, launch);
  return result;
}

// ---- the tiny run ------------------------------------------------------------------------

constexpr int kRanks = 3, kReps = 6, kWarmup = 1;
const std::vector<long> kBcastSizes = {1, 100, 4096, 65536};
const std::vector<long> kReduceSizes = {100, 4096, 65536};  // 1 B holds no MPI_INT: left out

// As the bench lists them: one algorithm per number, the Open MPI line's under test.
std::vector<std::string> variants_of(Op op) {
  modeltuned::set_registry_release(modeltuned::parse_ompi_version(ompi_series()).value());
  std::vector<std::string> v = {"default", "modeltuned"};
  for (const auto &a : modeltuned::algorithm_registry())
    if (a.op == op && modeltuned::listed_for_release(a)) v.emplace_back(a.name);
  return v;
}

// "1B", "4KiB", "64KiB", "1MiB" as the bench prints sizes in its notes.
long label_bytes(const std::string &label) {
  size_t used = 0;
  long v = std::stol(label, &used);
  const std::string unit = label.substr(used);
  return unit == "KiB" ? v << 10 : unit == "MiB" ? v << 20 : v;
}

struct Row {  // one line of the summary table
  double default_us, modeltuned_us, best_us, versus_best, versus_default;
  std::string default_ci, modeltuned_ci, best_ci, ran, best_name;
};

std::pair<double, double> ci_bounds(const std::string &token) {  // "[1.23,4.56]"
  double lo = 0, hi = 0;
  if (std::sscanf(token.c_str(), "[%lf,%lf]", &lo, &hi) != 2) return {NAN, NAN};
  return {lo, hi};
}

using Key = std::tuple<std::string, long, std::string>;  // op, bytes, variant

START_TEST(tiny_run_is_consistent) {
  Scratch scratch("modeltuned-bench-test");
  const fs::path csv = scratch.dir / "raw.csv", png = scratch.dir / "ab.png";
  std::vector<std::string> args = {"--sizes",
                                   "1,100,4K,64K",
                                   "--reps",
                                   std::to_string(kReps),
                                   "--warmup",
                                   std::to_string(kWarmup),
                                   "--seed",
                                   "7",
                                   "--rotate-buffers",
                                   "2",
                                   "--csv",
                                   csv.string()};
  const bool plotting = *MODELTUNED_TEST_GNUPLOT != '\0';
  if (plotting) args.insert(args.end(), {"--plot", png.string()});
  Run r = run_bench(scratch.dir, kRanks, {"--mca", "coll_modeltuned_verbose", "20"}, args);
  expect(!r.timed_out && r.exit_status == 0, r, "the bench did not finish cleanly");
  std::fprintf(stderr, "tiny run took %.1f s\n", r.seconds);

  // CSV: the exact header, every (op, size, variant, rep) once, positive times.
  const auto lines = split(read_text(csv), '\n');
  expect(!lines.empty() && lines[0] == "op,size,variant,rep,time_us,rank_mean_us", r,
         "CSV header is not op,size,variant,rep,time_us,rank_mean_us");
  std::map<Key, std::vector<double>> times;
  std::set<std::tuple<std::string, long, std::string, int>> seen;
  for (size_t i = 1; i < lines.size(); ++i) {
    const auto f = split(lines[i], ',');
    expect(f.size() == 6, r, "CSV line " + std::to_string(i + 1) + " has not 6 fields: " + lines[i]);
    const long bytes = std::stol(f[1]);
    const int rep = std::stoi(f[3]);
    const double t = std::stod(f[4]);
    expect(t > 0 && std::isfinite(t), r, "CSV line " + std::to_string(i + 1) + ": time is not positive: " + lines[i]);
    expect(seen.insert({f[0], bytes, f[2], rep}).second, r,
           "CSV line " + std::to_string(i + 1) + " repeats: " + lines[i]);
    times[{f[0], bytes, f[2]}].push_back(t);
  }
  size_t expected_rows = 0;
  for (Op op : {Op::bcast, Op::reduce}) {
    const std::string name(modeltuned::op_name(op));
    for (long bytes : op == Op::bcast ? kBcastSizes : kReduceSizes)
      for (const auto &v : variants_of(op)) {
        expected_rows += kReps;
        for (int rep = 0; rep < kReps; ++rep)
          expect(seen.count({name, bytes, v, rep}), r,
                 "CSV lacks " + name + " " + std::to_string(bytes) + " " + v + " rep " + std::to_string(rep));
      }
  }
  expect(seen.size() == expected_rows, r,
         "CSV has " + std::to_string(seen.size()) + " rows, expected " + std::to_string(expected_rows));

  // Summary table and notes, from rank 0's stdout.
  const std::string out = r.rank_stdout[0];
  expect(out.find("algorithms that ran: read from modeltuned's MPI_T call counters") != std::string::npos, r,
         "the bench did not verify what ran through modeltuned's MPI_T counters");
  std::map<std::pair<std::string, long>, Row> rows;
  std::set<Key> handed_back;  // forced variants the bench says were handed to Open MPI's default
  for (const auto &line : split(out, '\n')) {
    if (starts_with(line, "note: ")) {
      std::istringstream in(line.substr(6));
      std::string op, forced, name, rest;
      in >> op >> forced >> name;
      const size_t at = line.find(" at: ");
      if (forced != "forced" || at == std::string::npos) continue;
      for (const auto &label : split(line.substr(at + 5), ' ')) {
        expect(label.find('(') == std::string::npos, r, "a forced variant ran something unexpected: " + line);
        handed_back.insert({op, label_bytes(label), name});
      }
      continue;
    }
    if (!starts_with(line, "bcast ") && !starts_with(line, "reduce ")) continue;
    std::istringstream in(line);
    std::string op;
    long bytes;
    Row row;
    in >> op >> bytes >> row.default_us >> row.default_ci >> row.modeltuned_us >> row.modeltuned_ci >> row.ran >>
        row.best_us >> row.best_ci >> row.best_name;
    std::string vb, vd;
    in >> vb >> vd;
    expect(static_cast<bool>(in), r, "summary line does not parse: " + line);
    expect(vb.find('[') != std::string::npos && vd.find('[') != std::string::npos, r,
           "a ratio without the range its intervals allow: " + line);
    row.versus_best = std::stod(vb);
    row.versus_default = std::stod(vd);
    rows[{op, bytes}] = row;
  }
  expect(rows.size() == kBcastSizes.size() + kReduceSizes.size(), r,
         "summary has " + std::to_string(rows.size()) + " rows");

  // Printed to 2 decimals from unrounded times; the CSV holds 3 decimals.
  auto close = [](double printed, double exact) { return std::fabs(printed - exact) <= 0.006 + 1e-9; };
  for (const auto &[where, row] : rows) {
    const auto &[op, bytes] = where;
    const std::string at = op + " " + std::to_string(bytes) + " B: ";
    auto med = [&](const std::string &v) { return modeltuned::median(times[{op, bytes, v}]); };
    expect(close(row.default_us, med("default")), r, at + "summary default median disagrees with the CSV");
    expect(close(row.modeltuned_us, med("modeltuned")), r, at + "summary modeltuned median disagrees with the CSV");
    // With 6 repetitions the 95% interval of the median is [min, max] (coverage 1 - 2/64).
    for (const auto &[v, ci] : {std::pair{std::string("default"), row.default_ci}, {"modeltuned", row.modeltuned_ci}}) {
      const auto &t = times[{op, bytes, v}];
      const auto [lo, hi] = ci_bounds(ci);
      expect(close(lo, *std::min_element(t.begin(), t.end())) && close(hi, *std::max_element(t.begin(), t.end())), r,
             at + v + " interval " + ci + " is not [min, max] of its 6 repetitions");
    }
    double best = INFINITY;
    for (const auto &v : variants_of(op == "bcast" ? Op::bcast : Op::reduce))
      if (v != "default" && v != "modeltuned" && !handed_back.count({op, bytes, v})) best = std::min(best, med(v));
    expect(!handed_back.count({op, bytes, row.best_name}) && close(row.best_us, med(row.best_name)) &&
               close(row.best_us, best),
           r, at + "best forced (" + row.best_name + ") is not the fastest forced median of the CSV");
    expect(std::fabs(row.versus_default - row.modeltuned_us / row.default_us) <= 0.006 + 0.01 * row.versus_default, r,
           at + "modeltuned/default ratio disagrees with the medians");
    expect(std::fabs(row.versus_best - row.modeltuned_us / row.best_us) <= 0.006 + 0.01 * row.versus_best, r,
           at + "modeltuned/best ratio disagrees with the medians");
  }

  // What ran, from modeltuned's own trace of every call on every rank: forced variants ran their
  // algorithm except where the bench says they were handed back; modeltuned ran what the summary
  // says; the default variant never went through modeltuned.
  std::map<Key, std::map<std::string, int>> traced;  // (op, bytes, variant) -> algorithm -> calls
  for (const auto &[rank, text] : r.rank_stderr)
    for (const auto &line : split(text, '\n')) {
      const size_t at = line.find("coll:modeltuned:");
      if (at == std::string::npos) continue;
      std::istringstream in(line.substr(at + 16));
      std::string op_word, token, name, algorithm;
      long bytes = -1;
      in >> op_word;
      if (op_word != "bcast" && op_word != "reduce") continue;
      while (in >> token) {
        if (starts_with(token, "name=")) name = token.substr(5);
        if (starts_with(token, "bytes=")) bytes = std::stol(token.substr(6));
        if (starts_with(token, "algorithm=")) algorithm = token.substr(10);
      }
      const std::string prefix = "bench-" + op_word + "-";
      if (!starts_with(name, prefix)) continue;
      traced[{op_word, bytes, name.substr(prefix.size())}][algorithm]++;
    }
  const int calls_per_rank = kReps + kWarmup + 1;  // the bench's first untimed call makes the decision
  for (Op op : {Op::bcast, Op::reduce}) {
    const std::string name(modeltuned::op_name(op));
    for (long bytes : op == Op::bcast ? kBcastSizes : kReduceSizes)
      for (const auto &v : variants_of(op)) {
        const auto &algs = traced[{name, bytes, v}];
        const std::string at = name + " " + std::to_string(bytes) + " B " + v + ": ";
        if (v == "default") {
          expect(algs.empty(), r, at + "modeltuned traced calls on the default variant");
          continue;
        }
        const std::string want = v == "modeltuned"                     ? rows[{name, bytes}].ran
                                 : handed_back.count({name, bytes, v}) ? "fallback"
                                                                       : v;
        expect(algs.size() == 1 && algs.begin()->first == want && algs.begin()->second == kRanks * calls_per_rank, r,
               at + "modeltuned's trace shows other calls than the bench reported (" + want + " on every call)");
      }
  }

  if (plotting) {
    const std::string png_bytes = read_text(png);
    expect(png_bytes.size() > 10000 && starts_with(png_bytes, "\x89PNG"), r, "--plot wrote no PNG image");
  }
}
END_TEST

// --quick (what modeltuned-demo measured): Open MPI's default and modeltuned only, at powers of
// 4 up to --max-bytes, every repetition in the CSV, and no forced algorithm in the summary.
START_TEST(quick_measures_default_and_modeltuned_only) {
  Scratch scratch("modeltuned-bench-test");
  const fs::path csv = scratch.dir / "quick.csv";
  Run r = run_bench(scratch.dir, 2, {},
                    {"--quick", "--max-bytes", "64", "--reps", "3", "--seed", "1", "--csv", csv.string()});
  expect(!r.timed_out && r.exit_status == 0, r, "--quick did not finish cleanly");
  std::map<std::pair<std::string, std::string>, std::set<long>> sizes;  // (op, variant) -> sizes
  size_t rows = 0;
  for (const auto &line : split(read_text(csv), '\n')) {
    const auto f = split(line, ',');
    if (f.size() != 6 || f[0] == "op") continue;
    sizes[{f[0], f[2]}].insert(std::stol(f[1]));
    ++rows;
  }
  const std::set<long> bcast = {1, 4, 16, 64}, reduce = {4, 16, 64};
  const decltype(sizes) want = {{{"bcast", "default"}, bcast},
                                {{"bcast", "modeltuned"}, bcast},
                                {{"reduce", "default"}, reduce},
                                {{"reduce", "modeltuned"}, reduce}};
  expect(sizes == want && rows == 3 * (2 * bcast.size() + 2 * reduce.size()), r,
         "--quick measured other variants or sizes than default and modeltuned at 1, 4, 16, 64 B");
  size_t summary_rows = 0;
  for (const auto &line : split(r.rank_stdout[0], '\n')) {
    if (!starts_with(line, "bcast ") && !starts_with(line, "reduce ")) continue;
    std::istringstream in(line);
    std::vector<std::string> t;
    for (std::string token; in >> token;) t.push_back(token);
    expect(t.size() == 11 && t[7] == "-" && t[8] == "-", r, "--quick reported a forced algorithm: " + line);
    ++summary_rows;
  }
  expect(summary_rows == bcast.size() + reduce.size(), r, "--quick summary has other sizes");
}
END_TEST

// --op allreduce measures the default, modeltuned and every allreduce algorithm forced through
// modeltuned, and the MPI_T counters show the forced ones ran (or were handed back, with a note).
START_TEST(allreduce_variants_run) {
  Scratch scratch("modeltuned-bench-test");
  const fs::path csv = scratch.dir / "allreduce.csv";
  Run r = run_bench(scratch.dir, kRanks, {},
                    {"--op", "allreduce", "--sizes", "4,64K", "--reps", "3", "--seed", "5", "--csv", csv.string()});
  expect(!r.timed_out && r.exit_status == 0, r, "--op allreduce did not finish cleanly");
  std::set<std::tuple<std::string, long, std::string>> seen;
  for (const auto &line : split(read_text(csv), '\n')) {
    const auto f = split(line, ',');
    if (f.size() == 6 && f[0] != "op") seen.insert({f[0], std::stol(f[1]), f[2]});
  }
  for (long bytes : {4L, 65536L})
    for (const auto &v : variants_of(Op::allreduce))
      expect(seen.count({"allreduce", bytes, v}), r, "CSV lacks allreduce " + std::to_string(bytes) + " " + v);
  expect(seen.size() == 2 * variants_of(Op::allreduce).size(), r, "CSV has other ops or sizes than allreduce 4, 64K");
  expect(r.rank_stdout[0].find("algorithms that ran: read from modeltuned's MPI_T call counters") != std::string::npos,
         r, "the bench did not verify what ran through modeltuned's MPI_T counters");
}
END_TEST

// --op barrier: one row of size 0 per variant; two_proc, which Open MPI runs on two ranks only, is
// handed back at np 3 and says so; the counters count the timed barriers only, not the barrier
// that lines the ranks up before each of them.
START_TEST(barrier_variants_run) {
  Scratch scratch("modeltuned-bench-test");
  const fs::path csv = scratch.dir / "barrier.csv";
  Run r = run_bench(scratch.dir, kRanks, {}, {"--op", "barrier", "--reps", "3", "--seed", "5", "--csv", csv.string()});
  expect(!r.timed_out && r.exit_status == 0, r, "--op barrier did not finish cleanly");
  std::set<std::string> seen;
  for (const auto &line : split(read_text(csv), '\n')) {
    const auto f = split(line, ',');
    if (f.size() == 6 && f[0] != "op") {
      expect(f[0] == "barrier" && f[1] == "0", r, "CSV row of another op or size: " + line);
      seen.insert(f[2]);
    }
  }
  for (const auto &v : variants_of(Op::barrier)) expect(seen.count(v), r, "CSV lacks barrier " + v);
  expect(r.rank_stdout[0].find("barrier forced two_proc was handed to Open MPI's default at: 0B") != std::string::npos,
         r, "two_proc at np 3 was not reported as handed back");
  expect(r.rank_stdout[0].find("partly-modeltuned") == std::string::npos, r,
         "the counters counted barriers that were not timed");
}
END_TEST

// A bad flag ends every rank with status 2 and one line naming the flag, without hanging or
// measuring; --help prints the help once and exits 0.
START_TEST(bad_flag_exits_2) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--root", "9"}, "--root 9"},
      {{"--variants", "nosuch"}, "--variants: 'nosuch' is not a variant"},
      // The variant is named even where the sizes are wrong too.
      {{"--variants", "default,nosuch", "--op", "reduce", "--sizes", "1"}, "'nosuch'"},
      {{"--sizes", "1,12Q"}, "--sizes: '12Q'"},
      {{"--reps", "0"}, "--reps: '0' is not a whole number in 1..1000000"},
      {{"--seed", "-1"}, "--seed: '-1'"},
      {{"--op", "scan"}, "--op: scan"},
      {{"--max-bytes", "2GiB"}, "--max-bytes: '2GiB'"},
      {{"--plot", "ab.jpg"}, "--plot ab.jpg"},
      {{"--bogus"}, "--bogus"},
      {{"--reps"}, "--reps needs a value"},
  };
  for (const auto &[args, want] : cases) {
    Scratch scratch("modeltuned-bench-test");
    Run r = run_bench(scratch.dir, kRanks, {}, args);
    std::string what;
    for (const auto &a : args) what += " " + a;
    expect(!r.timed_out, r, "the bench hung on" + what);
    expect(r.exit_status == 2, r, "the bench did not exit with status 2 on" + what);
    int lines = 0;
    for (const auto &[rank, text] : r.rank_stderr)
      for (const auto &line : split(text, '\n')) lines += line.find("modeltuned-bench:") != std::string::npos;
    expect(lines == 1 && r.rank_stderr[0].find(want) != std::string::npos, r,
           "expected exactly one line with '" + want + "' for" + what + ", got " + std::to_string(lines) + " lines");
    for (const auto &[rank, text] : r.rank_stdout) expect(text.empty(), r, "a rank printed output after" + what);
  }
  Scratch scratch("modeltuned-bench-test");
  Run r = run_bench(scratch.dir, kRanks, {}, {"--help"});
  expect(!r.timed_out && r.exit_status == 0, r, "--help did not exit with status 0");
  size_t usage = 0;
  for (const auto &[rank, text] : r.rank_stdout)
    for (const auto &line : split(text, '\n')) usage += starts_with(line, "Usage:");
  expect(usage == 1 && r.rank_stdout[0].find("--quick") != std::string::npos, r, "--help did not print the help once");
}
END_TEST

// Published values of the median's order-statistic interval (e.g. Conover, Practical
// Nonparametric Statistics, table A3): n = 30 -> 10th and 21st, n = 6 -> 1st and 6th.
START_TEST(median_interval) {
  std::vector<double> v;
  for (int i = 1; i <= 30; ++i) v.push_back(31 - i);  // unsorted on purpose
  auto ci = modeltuned::median_ci(v);
  ck_assert(ci.low && ci.high);
  ck_assert_double_eq(*ci.low, 10);
  ck_assert_double_eq(*ci.high, 21);
  ck_assert_double_eq(ci.median, 15.5);
  ck_assert(ci.coverage > 0.95 && ci.coverage < 0.96);
  auto six = modeltuned::median_ci({3, 1, 2, 6, 5, 4});
  ck_assert(six.low && *six.low == 1 && *six.high == 6);
  ck_assert(!modeltuned::median_ci({1, 2, 3, 4, 5}).low);  // 1 - 2/32 < 0.95
}
END_TEST

}  // namespace

int main() {
  Suite *s = suite_create("bench");
  TCase *tc = tcase_create("bench");
  tcase_set_timeout(tc, 2 * run_timeout_seconds(kRunTimeoutSeconds) + 10);
  tcase_add_test(tc, median_interval);
  tcase_add_test(tc, quick_measures_default_and_modeltuned_only);
  tcase_add_test(tc, tiny_run_is_consistent);
  tcase_add_test(tc, allreduce_variants_run);
  tcase_add_test(tc, barrier_variants_run);
  suite_add_tcase(s, tc);
  TCase *cli = tcase_create("command line");  // a dozen short runs in one test
  tcase_set_timeout(cli, 4 * run_timeout_seconds(kRunTimeoutSeconds));
  tcase_add_test(cli, bad_flag_exits_2);
  suite_add_tcase(s, cli);
  return modeltuned_run_suite(s, CK_VERBOSE);
}
