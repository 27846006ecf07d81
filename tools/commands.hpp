// Subcommands of the modeltuned command-line tool; each registers itself on the app.
#pragma once
#include <CLI/CLI.hpp>

namespace modeltuned::tools {

// `modeltuned fit`: builds a calibration table from OSU-style CSVs (tools/modeltuned_fit.cpp).
void add_fit_command(CLI::App &app);

}  // namespace modeltuned::tools
