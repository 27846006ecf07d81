// Subcommands of the modeltuned command-line tool; each registers itself on the app.
#pragma once
#include <optional>
#include <string>
#include <vector>

// Declared, not included: CLI11's header costs seconds per file, and only the definitions use it.
namespace CLI {
class App;
}  // namespace CLI

namespace modeltuned::tools {

// `modeltuned fit`: builds a calibration table from OSU-style CSVs (tools/fit/fit.cpp).
void add_fit_command(CLI::App &app);
// `modeltuned validate`: the model against the ORFEO EPYC measurements (tools/validate/).
void add_validate_command(CLI::App &app);

// `modeltuned explain`: predictions, pick and Open MPI's default for an emulated job
// (tools/explain/explain.cpp).
void add_explain_command(CLI::App &app);

// `modeltuned export-rules`: the decisions for an emulated job as tuned's rules file
// (tools/export_rules/export_rules.cpp).
void add_export_rules_command(CLI::App &app);

// `modeltuned ab`: the user's command as a baseline job and a modeltuned job, alternated, and
// their ratio (tools/ab/). `command`: the words after `--`, which the main program takes off
// before CLI11 parses the rest (nullopt when there was no `--`).
void add_ab_command(CLI::App &app, const std::optional<std::vector<std::string>> &command);

// `modeltuned calibrate`: the user's calibration command, run again after a run that a crashing or
// hanging trial ended (tools/calibrate/). `command` as for ab.
void add_calibrate_command(CLI::App &app, const std::optional<std::vector<std::string>> &command);

}  // namespace modeltuned::tools
