// Subcommands of the modeltuned command-line tool; each registers itself on the app.
#pragma once
#include <CLI/CLI.hpp>

namespace modeltuned::tools {

// `modeltuned fit`: builds a calibration table from OSU-style CSVs (tools/modeltuned_fit.cpp).
void add_fit_command(CLI::App &app);
// `modeltuned validate`: the model against the ORFEO EPYC measurements (tools/validate/).
void add_validate_command(CLI::App &app);

// `modeltuned explain`: predictions, pick and Open MPI's default for an emulated job
// (tools/modeltuned_explain.cpp).
void add_explain_command(CLI::App &app);

}  // namespace modeltuned::tools
