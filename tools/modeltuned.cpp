// modeltuned: the offline command-line tool (no MPI). Each subcommand lives in its own file and
// registers itself through tools/commands.hpp.
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "config.h"
#include "tools/commands.hpp"

int main(int argc, char **argv) {
  CLI::App app{"modeltuned: calibration tables and model-based bcast/reduce algorithm selection "
               "for Open MPI (" PACKAGE_VERSION ")"};
  app.set_version_flag("--version", PACKAGE_VERSION);
  app.require_subcommand(1);
  modeltuned::tools::add_fit_command(app);
  modeltuned::tools::add_validate_command(app);
  modeltuned::tools::add_explain_command(app);
  // mpirun spells the rank count -np; CLI11 only takes one-letter single-dash names.
  std::vector<std::string> args(argv + 1, argv + argc);
  for (std::string &a : args)
    if (a == "-np") a = "--np";
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments last-first
  try {
    app.parse(args);
  } catch (const CLI::ParseError &e) {
    return app.exit(e);
  }
  return 0;
}
