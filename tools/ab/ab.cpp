// `modeltuned ab`: the user's A/B across jobs. Runs the user's command alternately as a baseline
// job (Open MPI's own decisions, modeltuned excluded) and as given (modeltuned loaded), and
// reports modeltuned / baseline for the wall time and every size of the benchmark tables the jobs
// print, with confidence intervals over rounds. Unlike modeltuned-bench, which compares inside one
// job where modeltuned is loaded in both arms, this sees what being loaded costs.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "common/cli.hpp"
#include "tools/ab/analysis.hpp"
#include "tools/ab/completed.hpp"
#include "tools/ab/components.hpp"
#include "tools/ab/arms.hpp"
#include "tools/ab/files.hpp"
#include "tools/ab/jobs.hpp"
#include "tools/ab/options.hpp"
#include "tools/ab/plot.hpp"
#include "tools/ab/progress.hpp"
#include "tools/ab/report.hpp"
#include "tools/ab/tables.hpp"
#include "tools/commands.hpp"

namespace modeltuned::tools {
namespace {

using namespace modeltuned::ab;

constexpr double kPreflightTimeout = 60;
constexpr size_t kTailLines = 20;

// ompi_info with the modeltuned job's environment and the mca_base_ settings (the component
// path) the command line gives mpirun: does Open MPI find modeltuned there? One line when it does
// not. (ompi_info reads the component path from the environment, not from its own --mca.)
void preflight(const Arm &modeltuned, const Workspace &work, Progress &progress) {
  const std::string ompi_info = find_on_path("ompi_info");
  if (ompi_info.empty()) return;
  Variables env = modeltuned.env;
  for (const auto &setting : mca_base_settings(modeltuned.argv)) env.push_back(setting);
  JobSpec job{{ompi_info}, environment_with(env), kPreflightTimeout};
  job.argv.insert(job.argv.end(), {"--parsable", "--param", "coll", "modeltuned"});
  const JobResult result = run_job(job, work.dir() / "preflight-ompi_info.txt", {});
  if (!result.ok())
    progress.note(fmt::format("modeltuned ab: warning: {} failed ({}); modeltuned's presence is not checked",
                              shell_words(job.argv), result.status(kPreflightTimeout)));
  else if (result.stdout_text.find("mca:coll:modeltuned:") == std::string::npos)
    progress.note(
        "modeltuned ab: warning: ompi_info does not list coll modeltuned with the modeltuned job's environment, so "
        "those jobs would run without it: set OMPI_MCA_mca_base_component_path (README, \"Using it\") or make "
        "install");
}

struct RoundPlan {
  bool warmup;
  int round;  // 1-based within the warm-up pairs or the counted rounds
  int total;
};

std::string label(const RoundPlan &p, const std::string &arm) {
  return fmt::format("{} {}/{} {}", p.warmup ? "warm-up" : "round", p.round, p.total, arm);
}

// One job; a failure ends the tool with its status and the end of its output, but for a baseline
// job that may fail, which is kept with the tables it printed.
JobRecord run_arm(const Arm &arm, bool may_fail, const RoundPlan &plan, int order, const AbOptions &o,
                  const Workspace &work, Progress &progress, RunsCsv &runs) {
  const auto log = work.dir() / job_file_name(plan.warmup, plan.round, arm.name);
  progress.start(label(plan, arm.name));
  const JobResult result =
      run_job({arm.argv, environment_with(arm.env), o.timeout_s}, log, [&progress] { progress.tick(); });
  progress.done(result.wall_s);
  runs.add(plan.warmup, plan.round, arm.name, order, result.wall_s, result.status(o.timeout_s));
  if (!result.ok() && !may_fail) {
    progress.clear();
    std::string message = fmt::format("{}: {}; the last lines of its output ({}):", label(plan, arm.name),
                                      result.status(o.timeout_s), work.kept() ? log.string() : "not kept");
    for (const std::string &line : last_lines(log, kTailLines)) message += "\n" + line;
    throw RunError(message);
  }
  JobRecord record{result.wall_s, {}, {}, result.ok() ? "" : result.status(o.timeout_s)};
  if (!plan.warmup) {
    try {
      record.tables = parse_tables(result.stdout_text, o.column);
      record.diagnostic_in_stdout = diagnostic_line(result.stdout_text);
    } catch (const RunError &e) {
      throw RunError(fmt::format("{}: {}", label(plan, arm.name), e.what()));
    }
  }
  return record;
}

// check_same_tables, with the likely cause where a job's stdout holds a process's diagnostics.
void check_tables_of(const JobRecord &record, const std::string &job, const std::vector<SizeTable> &reference,
                     const std::string &reference_job, const std::string &reference_diagnostic) {
  try {
    check_same_tables(reference, reference_job, record.tables, job);
  } catch (const RunError &e) {
    const std::string &line = record.diagnostic_in_stdout.empty() ? reference_diagnostic : record.diagnostic_in_stdout;
    if (line.empty()) throw;
    throw RunError(
        fmt::format("{}; a job's stdout holds diagnostic output, which can break a row (Open MPI 5.0's "
                    "mpirun splices ranks' stderr into stdout): keep verbose output off in measured "
                    "jobs (coll_modeltuned_decision_file records decisions). The line: {}",
                    e.what(), line.substr(0, 160)));
  }
}

// The warm-up rounds, then the counted rounds. A round runs each arm once, in turn: the baseline,
// modeltuned, then each --component-arm's; round r starts at arm (r - 1) mod arms, so that with two
// the baseline runs first in odd rounds (1, 3, ...) and drift hits every arm alike. Every counted
// job's tables but those of jobs that may fail are checked against the first's as it ends.
std::vector<Round> run_rounds(const Arms &arms, const AbOptions &o, const Workspace &work, Progress &progress) {
  RunsCsv runs(work.dir() / "runs.csv");
  std::vector<const Arm *> turn{&arms.baseline, &arms.modeltuned};
  for (const Arm &arm : arms.components) turn.push_back(&arm);
  std::vector<Round> rounds;
  std::vector<SizeTable> reference;
  std::string reference_job, reference_diagnostic;
  for (int i = 0; i < o.warmup + o.rounds; ++i) {
    const bool warmup = i < o.warmup;
    const RoundPlan plan{warmup, warmup ? i + 1 : i - o.warmup + 1, warmup ? o.warmup : o.rounds};
    Round round;
    round.components.resize(arms.components.size());
    for (size_t order = 0; order < turn.size(); ++order) {
      const size_t k = (static_cast<size_t>(plan.round - 1) + order) % turn.size();
      const Arm &arm = *turn[k];
      // a component's job is scored where it completed (score_completed), as a baseline may be
      const bool may_fail = k >= 2 || (k == 0 && o.baseline_may_fail);
      JobRecord record = run_arm(arm, may_fail, plan, static_cast<int>(order + 1), o, work, progress, runs);
      if (warmup) continue;
      JobRecord &slot = k == 0 ? round.baseline : k == 1 ? round.modeltuned : round.components[k - 2];
      if (!may_fail && reference_job.empty())
        reference = record.tables, reference_job = label(plan, arm.name),
        reference_diagnostic = record.diagnostic_in_stdout;
      else if (!may_fail)
        check_tables_of(record, label(plan, arm.name), reference, reference_job, reference_diagnostic);
      slot = std::move(record);
    }
    if (!warmup) rounds.push_back(std::move(round));
  }
  return rounds;
}

void write_outputs(const AbOptions &o, const Workspace &work, const std::vector<Round> &rounds, const Analysis &a) {
  write_sizes_csv(work.dir() / "sizes.csv", rounds);
  write_summary_csv(work.dir() / "summary.csv", a);
  if (o.plot)
    fmt::print(stderr, "modeltuned ab: {}\n",
               calib::draw_figures(work.dir(), ratio_figures(a, o.thresholds, o.level)).summary);
}

int run_ab(AbOptions o) {
  const char *coll = std::getenv("OMPI_MCA_coll");
  const Arms arms = make_arms(o, coll ? std::optional<std::string>(coll) : std::nullopt);
  std::sort(o.thresholds.begin(), o.thresholds.end());
  const Workspace work(o.out);
  Progress progress(!o.quiet, static_cast<int>(2 + arms.components.size()) * (o.warmup + o.rounds));
  if (!o.no_preflight) preflight(arms.modeltuned, work, progress);
  std::vector<Round> rounds = run_rounds(arms, o, work, progress);
  progress.clear();
  const std::vector<Round> as_run = arms.components.empty() ? std::vector<Round>{} : rounds;
  const std::vector<std::string> scored = o.baseline_may_fail ? score_completed(rounds) : std::vector<std::string>{};
  const Analysis analysis = analyse(rounds, o.level);
  std::string modeltuned_change;
  for (const auto &[name, value] : o.modeltuned_env)
    modeltuned_change += fmt::format("{}{}={}", modeltuned_change.empty() ? "" : ", ", name, value);
  const ReportContext context{o.rounds,          o.warmup, shell_words(o.command), arms.baseline_change,
                              modeltuned_change, o.level,  o.thresholds,           scored};
  print_report(stdout, context, analysis);
  write_outputs(o, work, rounds, analysis);
  write_component_comparisons(arms, as_run, context, work.dir());
  if (o.fail_above && any_significantly_above(analysis, *o.fail_above)) {
    fmt::print(stderr, "modeltuned ab: significantly slower than {:g} (--fail-above)\n", *o.fail_above);
    return 1;
  }
  return 0;
}

}  // namespace

void add_ab_command(CLI::App &app, const std::optional<std::vector<std::string>> &command) {
  auto o = std::make_shared<AbOptions>();
  auto raw = std::make_shared<RawOptions>();
  o->command_given = command.has_value();
  if (command) o->command = *command;
  CLI::App *cmd = app.add_subcommand(
      "ab",
      "modeltuned ab [OPTIONS] -- COMMAND [ARGS...]: run a command alternately with Open MPI's own decisions "
      "and with modeltuned, and compare their times (no MPI in the tool itself)");
  define_options(*cmd, *o, *raw);
  cmd->callback([o, raw] {
    try {
      finish_options(*o, *raw);
      std::exit(run_ab(*o));
    } catch (const UsageError &e) {
      fmt::print(stderr, "modeltuned ab: {} (see modeltuned ab --help)\n", e.what());
      std::exit(cli::kUsageError);
    } catch (const Interrupted &e) {
      fmt::print(stderr, "modeltuned ab: {}; the running job was killed\n", e.what());
      std::exit(130);
    } catch (const std::exception &e) {
      fmt::print(stderr, "modeltuned ab: {}\n", e.what());
      std::exit(1);
    }
  });
}

}  // namespace modeltuned::tools
