// Private driver for `make orfeo-table` until tools/modeltuned exists: `fit-driver fit ...`.
#include "tools/commands.hpp"

int main(int argc, char **argv) {
  CLI::App app("modeltuned calibration fit (private driver)");
  app.require_subcommand(1);
  modeltuned::tools::add_fit_command(app);
  CLI11_PARSE(app, argc, argv);
  return 0;
}
