// modeltuned ab's command line. The help is the reference for what the tool does; the user guide
// ("Check it on your machine") shows it at work.
#include "tools/ab/options.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include <fmt/format.h>

#include "common/cli.hpp"

namespace modeltuned::ab {
namespace {

constexpr const char *kFooter = R"(The command runs N rounds after the warm-up pairs. Each round runs it twice, as
  baseline    Open MPI's own decisions: OMPI_MCA_coll=^modeltuned in its environment, or, when
              the command line holds a coll list (--mca coll V, -mca, --gmca, -x OMPI_MCA_coll=V)
              or the environment already sets OMPI_MCA_coll, that list with modeltuned taken out
              (^a,b gets ,modeltuned; an include list loses modeltuned; an include list without
              modeltuned is refused: both jobs would run without it);
  modeltuned  the command as given;
baseline first in odd rounds (1, 3, ...), modeltuned first in even ones, so drift hits both alike.
Each --component-arm adds a third (fourth, ...) job to every round, the baseline with that
component switched on; the jobs of a round then run in turn, each round starting one job later.
Each job runs without a shell, its stdout and stderr kept in one file, its wall time measured.

Its stdout is read for size tables (OSU, IMB, modeltuned-latency): runs of lines whose first
field is a whole number of bytes followed by numbers. The time is column 2 (OSU's average
latency), IMB's t_avg column under an IMB header, or --column. The k-th table of every job is
compared with the k-th of every other; they must list the same sizes. Keep verbose output off in
the jobs: Open MPI 5.0's mpirun can splice ranks' stderr into stdout mid-line, breaking a row
(coll_modeltuned_decision_file=dir/decisions-%p.jsonl records the decisions instead).

Report (stdout): ratio = modeltuned / baseline, per round paired; for the wall time, each table
(per round, the geometric mean over its sizes) and each size: the geometric mean over rounds
and its --level confidence interval (Student's t on ln ratio). "slower >X" marks a size whose
whole interval is above X (significantly slower than X) for the largest such --threshold X,
"faster <1/X" (0.952 for 1.05) one whose whole interval is below 1/X; below the rows, per
threshold, the sizes that are.

Exit status: 0 after a successful run; 1 when a job fails (non-zero status, signal, --timeout;
its last 20 lines are shown; a baseline job under --baseline-may-fail is scored where it completed
instead), the jobs' tables differ, or --fail-above is exceeded; 2 for a usage
error.

Examples:
  modeltuned ab -- mpirun -np 4 modeltuned-latency
  modeltuned ab --table table.json --rounds 10 -- mpirun -np 16 osu_bcast -m 1:1048576
  modeltuned ab --modeltuned-env OMPI_MCA_coll_modeltuned_calibration_file=/nonexistent \
                --fail-above 1.05 --out ab -- mpirun -np 8 ./app   (loaded but declining)
  modeltuned ab --baseline-mca coll_sm_priority 90 -- mpirun -np 4 modeltuned-latency
                                        (against Open MPI with coll/sm switched on)
  modeltuned ab --component-arm sm --component-arm adapt --out ab -- mpirun -np 4 modeltuned-latency
                                        (three comparisons from the same rounds of four jobs))";

// NAME=VALUE with NAME a shell variable name.
std::pair<std::string, std::string> variable(const std::string &option, const std::string &text) {
  const size_t eq = text.find('=');
  bool valid = eq != std::string::npos && eq > 0 && !std::isdigit(static_cast<unsigned char>(text[0]));
  for (size_t i = 0; valid && i < eq; ++i) valid = std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_';
  if (!valid) throw UsageError(fmt::format("{}: '{}' is not NAME=VALUE", option, text));
  return {text.substr(0, eq), text.substr(eq + 1)};
}

// An MCA parameter NAME VALUE as the environment variable OMPI_MCA_NAME=VALUE.
std::pair<std::string, std::string> mca_variable(const std::string &option,
                                                 const std::pair<std::string, std::string> &setting) {
  const std::string &name = setting.first;
  bool valid = !name.empty() && std::isalpha(static_cast<unsigned char>(name[0]));
  for (const char c : name) valid = valid && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (!valid)
    throw UsageError(fmt::format("{}: '{}' is not an MCA parameter name (letters, digits and _)", option, name));
  return {"OMPI_MCA_" + name, setting.second};
}

}  // namespace

void define_options(CLI::App &cmd, AbOptions &o, RawOptions &raw) {
  cmd.footer(kFooter);
  cmd.add_option("--rounds", o.rounds, "rounds compared, each one baseline and one modeltuned job")
      ->check(cli::whole_number(2))
      ->capture_default_str();
  cmd.add_option("--warmup", o.warmup, "pairs of jobs run first and not counted")
      ->check(cli::whole_number(0))
      ->capture_default_str();
  cmd.add_option("--modeltuned-env", raw.modeltuned_env, "NAME=VALUE: set in the modeltuned job only (repeatable)")
      ->take_all();
  cmd.add_option("--baseline-env", raw.baseline_env,
                 "NAME=VALUE: set in the baseline job only (repeatable; set last: it can replace OMPI_MCA_coll)")
      ->take_all();
  cmd.add_option("--modeltuned-mca", raw.modeltuned_mca,
                 "NAME VALUE: the MCA parameter NAME set in the modeltuned job only, as "
                 "--modeltuned-env OMPI_MCA_NAME=VALUE (repeatable)")
      ->take_all();
  cmd.add_option("--baseline-mca", raw.baseline_mca,
                 "NAME VALUE: the MCA parameter NAME set in the baseline job only, as --baseline-env "
                 "OMPI_MCA_NAME=VALUE (repeatable; e.g. coll_sm_priority 90: the baseline with coll/sm "
                 "switched on)")
      ->take_all();
  cmd.add_option("--table", o.table,
                 "calibration table for the modeltuned job: --modeltuned-env "
                 "OMPI_MCA_coll_modeltuned_calibration_file=FILE")
      ->check(CLI::ExistingFile);
  cmd.add_option("--timeout", o.timeout_s, "seconds a job may run before its process group is killed (0: no limit)")
      ->check(cli::number(0))
      ->capture_default_str();
  cmd.add_flag("--no-preflight", o.no_preflight,
               "do not ask ompi_info (with the modeltuned job's environment) whether modeltuned is found");
  cmd.add_flag("--quiet", o.quiet, "no progress on stderr");
  cmd.add_option("--column", o.column,
                 "the time column of the size tables, counting the size as 1 (default: IMB's t_avg, else 2)")
      ->check(cli::whole_number(2));
  cmd.add_option("--level", o.level, "confidence level of the intervals")
      ->check(cli::number(0.5, 0.9999))
      ->capture_default_str();
  cmd.add_option("--threshold", raw.thresholds,
                 "ratios X to report the sizes significantly slower than X and faster than 1/X "
                 "(repeatable; default 1.00, 1.05 and 1.10)")
      ->check(cli::number(1));
  cmd.add_option("--fail-above", o.fail_above,
                 "exit status 1 when a size or table (the wall time, where no table was found) is "
                 "significantly slower than X")
      ->check(cli::number(0));
  cmd.add_option("--out", o.out,
                 "keep in DIR each job's output (round-03-baseline.txt, ...), runs.csv, sizes.csv, summary.csv");
  cmd.add_flag("--baseline-may-fail", o.baseline_may_fail,
               "a baseline job that fails (a component switched on that crashes at some size) is scored on what "
               "it completed: each table up to the last size every baseline job completed, the tables none "
               "reached left out, all named in the report");
  cmd.add_option("--component-arm", o.components,
                 "COMPONENT: one more job per round, the baseline with coll/COMPONENT switched on "
                 "(OMPI_MCA_coll_COMPONENT_priority=90), scored where it completed; with --out, "
                 "against-COMPONENT/ (modeltuned against it) and COMPONENT-alone/ (it against the baseline) "
                 "hold report.txt, sizes.csv and summary.csv from the same rounds (repeatable)")
      ->take_all();
  cmd.add_flag("--plot", o.plot, "with --out: one figure per table, its ratio per size with intervals (gnuplot)");
}

void finish_options(AbOptions &o, const RawOptions &raw) {
  if (!o.command_given || o.command.empty())
    throw UsageError("give the command to compare after --, e.g. modeltuned ab -- mpirun -np 4 modeltuned-latency");
  // MCA settings first, NAME=VALUE after: a variable given both ways takes the --*-env value.
  for (const auto &setting : raw.modeltuned_mca) o.modeltuned_env.push_back(mca_variable("--modeltuned-mca", setting));
  for (const auto &setting : raw.baseline_mca) o.baseline_env.push_back(mca_variable("--baseline-mca", setting));
  for (const auto &text : raw.modeltuned_env) o.modeltuned_env.push_back(variable("--modeltuned-env", text));
  for (const auto &text : raw.baseline_env) o.baseline_env.push_back(variable("--baseline-env", text));
  if (!o.table.empty())
    o.modeltuned_env.emplace_back("OMPI_MCA_coll_modeltuned_calibration_file",
                                  std::filesystem::absolute(o.table).string());
  if (!raw.thresholds.empty()) o.thresholds = raw.thresholds;
  if (o.plot && o.out.empty()) throw UsageError("--plot needs --out DIR, where the figures are written");
  for (const std::string &c : o.components) {
    const bool name =
        !c.empty() && std::islower(static_cast<unsigned char>(c[0])) && std::all_of(c.begin(), c.end(), [](char ch) {
          return std::islower(static_cast<unsigned char>(ch)) || std::isdigit(static_cast<unsigned char>(ch)) ||
                 ch == '_';
        });
    if (!name || c == "baseline" || c == "modeltuned")
      throw UsageError(
          fmt::format("--component-arm {}: a collective component's name (sm, adapt, xhc, acoll, ...)", c));
    if (std::count(o.components.begin(), o.components.end(), c) > 1)
      throw UsageError(fmt::format("--component-arm {}: given twice", c));
  }
  if (!o.components.empty() && o.out.empty())
    throw UsageError("--component-arm needs --out DIR, where each component's comparisons are written");
}

}  // namespace modeltuned::ab
