// modeltuned: the offline command-line tool (no MPI). Each subcommand lives in its own file and
// registers itself through tools/commands.hpp.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "config.h"
#include "common/cli.hpp"
#include "model/collectives/family.hpp"
#include "tools/commands.hpp"

namespace {

// CLI11 answers "A subcommand is required" to an unknown command or option too: say which.
std::string no_command(int argc, char **argv) {
  if (argc < 2) return "give a command: fit, explain, export-rules, validate, ab or calibrate";
  const std::string first = argv[1];
  if (!first.empty() && first[0] == '-')
    return "unknown option " + first +
           ": give a command first (fit, explain, export-rules, validate, ab or calibrate), then its options";
  return "unknown command '" + first + "': the commands are fit, explain, export-rules, validate, ab and calibrate";
}

// CLI11's "The following arguments were not expected: ./app 4 --np mpirun": a word that is not
// an option, as when a command is given without its --.
bool stray_word(const CLI::ParseError &e) {
  if (!dynamic_cast<const CLI::ExtrasError *>(&e)) return false;
  const std::string text = e.what();
  const size_t colon = text.find(": ");
  size_t at = colon == std::string::npos ? text.size() : colon + 2;
  while (at < text.size()) {
    const size_t end = std::min(text.find(' ', at), text.size());
    if (end > at && text[at] != '-') return true;
    at = end + 1;
  }
  return false;
}

// `modeltuned ab|calibrate ... -- COMMAND ...`: the user's command is not ours to parse (nor its -np).
std::optional<std::vector<std::string>> take_command(std::vector<std::string> &args) {
  if (args.empty() || (args.front() != "ab" && args.front() != "calibrate")) return std::nullopt;
  const auto dashes = std::find(args.begin(), args.end(), "--");
  if (dashes == args.end()) return std::nullopt;
  std::vector<std::string> command(dashes + 1, args.end());
  args.erase(dashes, args.end());
  return command;
}

}  // namespace

int main(int argc, char **argv) {
  CLI::App app{fmt::format("modeltuned: calibration tables, model-based {} algorithm selection for Open MPI, and "
                           "the A/B against Open MPI's own decisions ({})",
                           modeltuned::collective_names("/", "/"), PACKAGE_VERSION),
               "modeltuned"};
  modeltuned::cli::use_usage_line(app);
  app.set_version_flag("--version", PACKAGE_VERSION);
  app.require_subcommand(1);
  modeltuned::tools::add_fit_command(app);
  modeltuned::tools::add_validate_command(app);
  modeltuned::tools::add_explain_command(app);
  modeltuned::tools::add_export_rules_command(app);
  std::vector<std::string> args(argv + 1, argv + argc);
  const auto user_command = take_command(args);
  const bool calibrating = !args.empty() && args.front() == "calibrate";
  modeltuned::tools::add_ab_command(app, calibrating ? std::nullopt : user_command);
  modeltuned::tools::add_calibrate_command(app, calibrating ? user_command : std::nullopt);
  // mpirun spells the rank count -np; CLI11 only takes one-letter single-dash names.
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
    // `modeltuned ab mpirun -np 4 ...`: the command without its --.
    if (!chosen.empty() && chosen.front()->get_name() == "ab" && !user_command && stray_word(e)) {
      std::fprintf(stderr,
                   "modeltuned ab: give the command to compare after --, e.g. modeltuned ab -- mpirun -np 4 "
                   "modeltuned-latency (see modeltuned ab --help)\n");
      return modeltuned::cli::kUsageError;
    }
    if (!chosen.empty() && chosen.front()->get_name() == "calibrate" && !user_command && stray_word(e)) {
      std::fprintf(stderr,
                   "modeltuned calibrate: give the calibration command after --, e.g. modeltuned calibrate -- mpirun "
                   "-np 16 --bind-to core modeltuned-calibrate -o table.json (see modeltuned calibrate --help)\n");
      return modeltuned::cli::kUsageError;
    }
    return modeltuned::cli::handle(app, e, chosen.empty() ? "modeltuned" : "modeltuned " + chosen.front()->get_name());
  }
  return 0;
}
