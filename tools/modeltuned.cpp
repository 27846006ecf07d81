// modeltuned: the offline command-line tool (no MPI). Each subcommand lives in its own file and
// registers itself through tools/commands.hpp.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "config.h"
#include "common/cli.hpp"
#include "tools/commands.hpp"

namespace {

// CLI11 answers "A subcommand is required" to an unknown command or option too: say which.
std::string no_command(int argc, char **argv) {
  if (argc < 2) return "give a command: fit, explain or validate";
  const std::string first = argv[1];
  if (!first.empty() && first[0] == '-')
    return "unknown option " + first + ": give a command first (fit, explain or validate), then its options";
  return "unknown command '" + first + "': the commands are fit, explain and validate";
}

}  // namespace

int main(int argc, char **argv) {
  CLI::App app{
      "modeltuned: calibration tables and model-based bcast/reduce algorithm selection "
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
    const auto chosen = app.get_subcommands();
    if (chosen.empty() && dynamic_cast<const CLI::RequiredError *>(&e)) {
      std::fprintf(stderr, "modeltuned: %s (see modeltuned --help)\n", no_command(argc, argv).c_str());
      return modeltuned::cli::kUsageError;
    }
    return modeltuned::cli::handle(app, e, chosen.empty() ? "modeltuned" : "modeltuned " + chosen.front()->get_name());
  }
  return 0;
}
