// modeltuned: the offline command-line tool (no MPI). Each subcommand lives in its own file and
// registers itself through tools/commands.hpp.
#include <cstdio>

#include <CLI/CLI.hpp>

#include "config.h"
#include "tools/commands.hpp"

int main(int argc, char **argv) {
  CLI::App app{"modeltuned: calibration tables and model-based bcast/reduce algorithm selection "
               "for Open MPI (" PACKAGE_VERSION ")"};
  app.set_version_flag("--version", PACKAGE_VERSION);
  app.require_subcommand(1);
  modeltuned::tools::add_fit_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return app.exit(e);
  }
  return 0;
}
