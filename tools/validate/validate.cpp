// `modeltuned validate`: the model against the ORFEO EPYC measurements (docs/validation.md).
// Calibrates from p2p.csv + nbft.csv only, predicts every measured osu_bcast / osu_reduce point
// with the algorithm Open MPI ran, and compares: accuracy (R^2 at 1 B, R^2 of log latency and
// median absolute percentage error over all sizes), the seed report's linear regression (eq. 12)
// in and out of sample, and algorithm selection on the measured latencies. This file runs the
// phases and registers the command; the phases live beside it in tools/validate/.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "calib/fit.hpp"
#include "common/cli.hpp"
#include "model/select/margin.hpp"
#include "tools/commands.hpp"
#include "tools/validate/accuracy.hpp"
#include "tools/validate/calibration.hpp"
#include "tools/validate/csv_output.hpp"
#include "tools/validate/measurements.hpp"
#include "tools/validate/models.hpp"
#include "tools/validate/options.hpp"
#include "tools/validate/plots.hpp"
#include "tools/validate/protocol.hpp"
#include "tools/validate/report.hpp"
#include "tools/validate/selection.hpp"

namespace modeltuned::tools::validate {
namespace {

// The models scored against OSU's `latency` column, in the order of the tables.
const std::vector<std::string> kModelOrder = {"p2p", "p2p-stage-sum", "linear-in", "linear-out", "p2p-rank-mean"};
// The completion model, calibrated on nbft.csv's `max` column and scored against the collectives'.
const std::string kCompletionModel = "p2p-completion";

// OSU's `latency` is the mean over ranks of each rank's time; the model predicts when the
// collective completes. Compare that with the slowest rank (`max`), calibrated consistently from
// nbft.csv's `max` column.
Predictions predict_completion(const calib::Samples &samples, const ValidateOptions &o, const Measured &measured_max) {
  calib::Samples completion_samples;
  completion_samples.p2p = samples.p2p;
  calib::read_osu_flat_csv((fs::path(o.data_dir) / "nbft.csv").string(), FlatTreeKind::fanout, completion_samples,
                           "max");
  const CalibrationTable completion_table =
      fit_validation_table(completion_samples, o, "modeltuned validate, nbft.csv max column", measured_max);
  Predictions completion;
  predict_p2p(completion_table, measured_max, {{kCompletionModel, nullptr, Metric::completion}}, completion);
  return completion;
}

// The component's tables carry checks fitted where a protocol fits them (held-out: P <= 126, so
// both nodes' worth of measurements stay unseen), one table per objective: rank mean against
// `latency`, completion against `max`. The component runs with one table (the shipped one is fitted
// on nbft's latency column), so both are the latency table; completion is scored with that
// table's completion predictions.
struct CheckedTables {
  CalibrationTable latency, max;
};

// `predictions` is not const: a model that --variant leaves out gets an empty entry here, hence
// selection rows with no cases and empty lines in the plots for it.
CheckedTables fit_component_checks(const Protocol &protocol, const CalibrationTable &table, const Measured &measured,
                                   const Measured &measured_max, Predictions &predictions) {
  CheckedTables checked{table, table};
  const auto fits = [&](int p) { return protocol.fits(p); };
  const bool exact = !protocol.check_sizes.empty();  // as the calibrator measures them: per size
  checked.latency.checks = fit_checks(measured, predictions["p2p-rank-mean"], "rank_mean", fits, exact);
  checked.max.checks = fit_checks(measured_max, predictions["p2p"], "completion", fits, exact);
  checked.latency.checks_source = checked.max.checks_source =
      exact ? fmt::format(
                  "ORFEO EPYC bcast_/reduce_{{core,socket,node}}.csv at P = {} (modeltuned validate "
                  "--calibrated-on {}: the sizes modeltuned-calibrate measures on {} ranks)",
                  protocol.sizes_text(), protocol.allocation, protocol.allocation)
            : fmt::format(
                  "ORFEO EPYC bcast_/reduce_{{core,socket,node}}.csv at P <= {} (modeltuned validate; "
                  "scored on P >= {})",
                  kOutOfSampleFitMaxP, kOutOfSampleMinP);
  return checked;
}

// --checks-out: both objectives' checks, for the shipped table (calib/local.mk).
void write_checks(const std::string &path, const CheckedTables &checked) {
  CalibrationTable both = checked.latency;
  both.checks.insert(both.checks.end(), checked.max.checks.begin(), checked.max.checks.end());
  if (fs::path(path).has_parent_path()) fs::create_directories(fs::path(path).parent_path());
  const nlohmann::json residuals = nlohmann::json::parse(to_json_text(both))["checks"]["residuals"];
  std::ofstream out(path);
  out << nlohmann::json{{"source", checked.latency.checks_source}, {"residuals", residuals}}.dump(1) << '\n';
  if (!out) throw ValidateError(fmt::format("{}: cannot write; check --checks-out", path));
}

// Per op and mapping, scored against `latency`: each model alone, p2p with the default as a
// candidate, and the component's rules (the held-out-error margin alone, checks scored on
// P >= 130, checks on the fitting cases); then the same against `max`, with the completion model
// alone first. The margin comes from the latency table's held-out error in both.
std::vector<SelectionRow> select_all(const std::vector<Case> &cases, const std::vector<Case> &cases_max,
                                     const std::vector<ModelDef> &models, Predictions &predictions,
                                     const std::map<Key, double> &completion, const CalibrationTable &table,
                                     const CheckedTables &checked) {
  const double margin_latency = margin_factor(held_out_uncertainty(table));
  const auto second_node = [](int p) { return p >= kOutOfSampleMinP; };
  const auto first_node = [](int p) { return p <= kOutOfSampleFitMaxP; };
  const ChecksRule held_latency{&checked.latency, Metric::rank_mean, second_node},
      held_max{&checked.max, Metric::completion, second_node},
      fitted_latency{&checked.latency, Metric::rank_mean, first_node},
      fitted_max{&checked.max, Metric::completion, first_node};
  std::vector<SelectionRow> sel;
  for (Op op : {Op::bcast, Op::reduce})
    for (int m = 0; m < kMappingCount; ++m) {
      for (const auto &model : models) sel.push_back(select_on(cases, predictions[model.name], model.name, op, m));
      if (predictions.count("p2p")) sel.push_back(select_on(cases, predictions["p2p"], "p2p+default", op, m, true));
      if (predictions.count("p2p-rank-mean")) {
        const auto &rank_mean = predictions["p2p-rank-mean"];
        sel.push_back(select_on(cases, rank_mean, "p2p-margin", op, m, true, margin_latency));
        sel.push_back(select_on(cases, rank_mean, "component", op, m, true, 0, held_latency));
        sel.push_back(select_on(cases, rank_mean, "component-fitted", op, m, true, 0, fitted_latency));
      }
      SelectionRow completion_row = select_on(cases_max, completion, kCompletionModel, op, m);
      completion_row.scored_against = "max";
      sel.push_back(completion_row);
      for (auto [name, rule] : {std::pair{"p2p-margin", ChecksRule{}}, std::pair{"component", held_max},
                                std::pair{"component-fitted", fitted_max}}) {
        SelectionRow row =
            select_on(cases_max, predictions["p2p"], name, op, m, true, rule.table ? 0 : margin_latency, rule);
        row.scored_against = "max";
        sel.push_back(row);
      }
    }
  return sel;
}

// The rows of a calibrated-on protocol, per op and mapping and OSU column: the component with
// checks fitted on the protocol's sizes only, the baseline that runs what was measured fastest at
// the nearest of them, and the measured best.
std::vector<SelectionRow> select_calibrated_on(const Protocol &protocol, const std::vector<Case> &cases,
                                               const std::vector<Case> &cases_max, const Measured &measured,
                                               const Measured &measured_max, Predictions &predictions,
                                               const CalibrationTable &table) {
  const auto scores = [&](int p) { return protocol.scores(p); };
  const CheckedTables checked = fit_component_checks(protocol, table, measured, measured_max, predictions);
  std::vector<SelectionRow> sel;
  for (Op op : {Op::bcast, Op::reduce})
    for (int m = 0; m < kMappingCount; ++m)
      for (const char *column : {"max", "latency"}) {
        const bool max = std::string(column) == "max";
        const std::vector<Case> &scored = max ? cases_max : cases;
        const ChecksRule rule{max ? &checked.max : &checked.latency, max ? Metric::completion : Metric::rank_mean,
                              scores};
        SelectionRow rows[] = {
            select_on(scored, predictions[max ? "p2p" : "p2p-rank-mean"], "component", op, m, true, 0, rule),
            select_nearest(scored, protocol, op, m), select_oracle(scored, protocol, op, m)};
        for (SelectionRow &row : rows) {
          row.scored_against = column;
          row.protocol = protocol.name;
          row.check_sizes = protocol.sizes_text();
          row.calibration_seconds = calibration_seconds(measured_max, protocol, m, kCalibratorRounds);
          sel.push_back(std::move(row));
        }
      }
  return sel;
}

// What Open MPI's fixed rules pick, per op and mapping.
std::vector<FixedRulesRow> fixed_rules_all(const std::vector<Case> &cases) {
  std::vector<FixedRulesRow> fixed;
  for (Op op : {Op::bcast, Op::reduce})
    for (int m = 0; m < kMappingCount; ++m) fixed.push_back(fixed_rules(cases, op, m));
  return fixed;
}

// predictions.csv: every model of the tables, the completion model last.
void write_all_predictions(const fs::path &path, const Measured &measured, const Measured &measured_max,
                           const Predictions &predictions, const std::map<Key, double> &completion) {
  Predictions all = predictions;
  all[kCompletionModel] = completion;
  std::vector<std::string> names = kModelOrder;
  names.push_back(kCompletionModel);
  write_predictions_csv(path, measured, measured_max, all, names);
}

// The figures of every model that has predictions, but the out-of-sample regression (it predicts
// P >= 130 only).
std::vector<std::string> plot_models(const fs::path &dir, const Measured &measured, const Predictions &predictions) {
  std::vector<std::string> plotted;
  for (const auto &name : kModelOrder)
    if (name != "linear-out" && predictions.count(name)) plotted.push_back(name);
  return write_plots(dir, measured, predictions, plotted);
}

void run_validate(const ValidateOptions &o) {
  if (o.variant != "schedule" && o.variant != "stage_sum" && o.variant != "both")
    throw ValidateError("--variant must be schedule, stage_sum or both");
  // Calibration, and the measurements the relay term is fitted on.
  const fs::path data(o.data_dir), out_dir(o.out_dir);
  calib::Samples samples;
  calib::read_osu_p2p_csv((data / "p2p.csv").string(), samples);
  calib::read_osu_flat_csv((data / "nbft.csv").string(), FlatTreeKind::fanout, samples);
  const Measured measured_max = read_measured(data, "max");
  const CalibrationTable table = fit_validation_table(samples, o, "modeltuned validate", measured_max);
  if (o.relay_from_chains)  // what was fitted is recorded in the table's provenance
    std::printf("relay from chains at P <= %d: %s\n", kOutOfSampleFitMaxP,
                table.provenance.at("relay").at("channels").dump().c_str());
  const Measured measured = read_measured(data, "latency");

  // Accuracy: every model against `latency`, then the completion model against `max`.
  const std::vector<ModelDef> models = point_to_point_models(o.variant);
  Predictions predictions;
  predict_p2p(table, measured, models, predictions);
  predict_regression(measured, predictions);
  std::vector<AccuracyRow> acc = accuracy(measured, predictions, kModelOrder);
  Predictions completion = predict_completion(samples, o, measured_max);
  for (auto &row : accuracy(measured_max, completion, {kCompletionModel})) acc.push_back(row);
  const std::map<Key, double> &completion_us = completion[kCompletionModel];

  // Selection: what each model and the component would pick, and what Open MPI's fixed rules do.
  const CheckedTables checked = fit_component_checks(held_out_protocol(), table, measured, measured_max, predictions);
  if (!o.checks_out.empty())  // the first calibrated-on protocol's, else the held-out ones
    write_checks(o.checks_out, o.calibrated_on.empty()
                                   ? checked
                                   : fit_component_checks(calibrated_on(o.calibrated_on.front()), table, measured,
                                                          measured_max, predictions));
  const std::vector<Case> cases = selection_cases(measured);
  const std::vector<Case> cases_max = selection_cases(measured_max);
  std::vector<SelectionRow> sel = select_all(cases, cases_max, models, predictions, completion_us, table, checked);
  for (int n : o.calibrated_on)
    for (SelectionRow &row :
         select_calibrated_on(calibrated_on(n), cases, cases_max, measured, measured_max, predictions, table))
      sel.push_back(std::move(row));
  const std::vector<FixedRulesRow> fixed = fixed_rules_all(cases);

  fs::create_directories(out_dir);
  write_accuracy_csv(out_dir / "accuracy.csv", acc);
  write_selection_csv(out_dir / "selection.csv", sel);
  write_decisions_csv(out_dir / "decisions.csv", sel);
  write_all_predictions(out_dir / "predictions.csv", measured, measured_max, predictions, completion_us);
  const std::vector<std::string> plots =
      o.plots && !o.quick ? plot_models(out_dir / "plots", measured, predictions) : std::vector<std::string>{};
  write_report(out_dir / "report.md", o, table, acc, sel, fixed, plots);
  std::printf(
      "%zu measured points, %zu selection cases; wrote "
      "%s/{report.md,accuracy.csv,selection.csv,decisions.csv,predictions.csv}%s\n",
      measured.size(), cases.size(), o.out_dir.c_str(), plots.empty() ? "" : " and plots/");
}

}  // namespace
}  // namespace modeltuned::tools::validate

namespace modeltuned::tools {

void add_validate_command(CLI::App &app) {
  auto options = std::make_shared<validate::ValidateOptions>();
  CLI::App *cmd = app.add_subcommand("validate",
                                     "Predict the ORFEO EPYC bcast/reduce measurements from point-to-point "
                                     "calibration alone and compare (docs/validation.md)");
  cmd->add_option("--data", options->data_dir, "directory with p2p.csv, nbft.csv, bcast_*.csv, reduce_*.csv")
      ->required();
  cmd->add_option("--out", options->out_dir, "output directory (report.md, accuracy.csv, selection.csv, plots/)")
      ->required();
  cmd->add_option("--variant", options->variant, "model variant: schedule, stage_sum or both")->capture_default_str();
  cmd->add_flag("--plots,!--no-plots", options->plots, "write gnuplot PNGs (default on)");
  cmd->add_option("--contention-from", options->contention_from_bytes,
                  "derive the concurrent-transfer curves from the fan-out fits at and above this many bytes "
                  "(0: none; model/calibration/contention.hpp)")
      ->capture_default_str();
  cmd->add_option("--checks-out", options->checks_out,
                  "also write the checks (both objectives) to this JSON file, which `modeltuned fit --checks` "
                  "puts into a table: those of the first --calibrated-on protocol, else those fitted on P <= 126");
  cmd->add_flag("--relay-from-chains", options->relay_from_chains,
                "fit each mapping's relay cost on the forced chain bcasts at P <= 126 (max column) and put it "
                "in the tables; the data set has no relay measurement (docs/validation.md)");
  cmd->add_option("--calibrated-on", options->calibrated_on,
                  "also score the component as calibrated on an allocation of N ranks (comma-separated list): "
                  "checks fitted on the communicator sizes modeltuned-calibrate measures there only, scored on "
                  "every other size from the smallest / 2 to N, beside the nearest-measurement baseline and the "
                  "measured best (selection.csv's protocol column)")
      ->delimiter(',')
      ->check(cli::whole_number(4, 256));
  cmd->add_flag("--quick", options->quick, "no plots (for the regression guard)");
  cmd->add_option("--reduce-us-per-byte", options->reduce_us_per_byte,
                  "local reduction cost, us per byte (default: the shipped table's estimate)")
      ->check(cli::number(0))
      ->capture_default_str();
  cmd->callback([options] {
    try {
      validate::run_validate(*options);
    } catch (const std::exception &e) {
      std::fprintf(stderr, "modeltuned validate: %s\n", e.what());
      std::exit(2);
    }
  });
}

}  // namespace modeltuned::tools
