// `modeltuned export-rules`: modeltuned's decisions for an emulated job as tuned's own rules file,
// for an Open MPI that cannot load the component (tools/lib/rules.hpp says what a rule can carry).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "common/cli.hpp"
#include "config.h"

#include "model/collectives/family.hpp"
#include "model/schedule/ompi_version.hpp"
#include "tools/commands.hpp"
#include "tools/lib/job.hpp"
#include "tools/lib/rules.hpp"

namespace modeltuned::tools {
namespace {

struct ExportOptions {
  JobOptions job;
  std::string ompi = "4.1";
  std::string format = "classic";
  std::vector<std::string> ops;
  size_t type_size = 8;
  int root = 0;
  bool commutative_only = false;
  std::string max_bytes;
  bool without_han = false;
  std::string output;
};

// --ops as CLI11 split it at commas; none given: every collective.
std::vector<Op> parse_ops(const std::vector<std::string> &names) {
  std::vector<Op> ops;
  for (const std::string &name : names) {
    const std::optional<Op> op = find_collective(name);
    if (!op) throw std::invalid_argument(fmt::format("--ops '{}': use {}", name, collective_names(", ", " or ")));
    ops.push_back(*op);
  }
  if (names.empty())
    for (const CollectiveFamily *family : collective_families()) ops.push_back(family->op);
  return ops;
}

// Who wrote the file, from what, for which job, and how to use it; then what it cannot say.
std::vector<std::string> header(const ExportOptions &o, const std::string &table, const RuleSet &rules) {
  std::vector<std::string> lines = {
      fmt::format("Open MPI {} tuned rules written by modeltuned export-rules {} from the calibration table", o.ompi,
                  PACKAGE_VERSION),
      fmt::format("{}, for a job of {} ranks on {} (--map-by {} --bind-to {}).",
                  std::filesystem::weakly_canonical(table).string(), rules.job_ranks, describe(machine_of(o.job)),
                  o.job.map_by, o.job.bind_to),
      "Use it with plain Open MPI (modeltuned not loaded):",
      "  mpirun --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename FILE ...",
      "Message sizes are tuned's: bytes of the message (allgather: of all ranks' blocks together; alltoall: of all "
      "the blocks one rank sends).",
      ""};
  for (std::string &line : rules_caveats(rules)) lines.push_back(std::move(line));
  return lines;
}

int run_export(const ExportOptions &o) {
  const Placement placement = job_placement(o.job);
  const std::string table_path = job_table_path(o.job);
  const CalibrationTable table = load_job_table(table_path, placement);
  RuleOptions options;
  options.ops = parse_ops(o.ops);
  options.type_size = o.type_size;
  options.root = o.root;
  options.commutative_only = o.commutative_only;
  options.max_bytes = o.max_bytes.empty() ? 0 : parse_size(o.max_bytes, "--max-bytes");
  options.han_enabled = !o.without_han;
  if (auto v = parse_ompi_version(o.ompi)) {
    options.ompi = *v;
    set_registry_release(*v);  // names and numbers as that release has them
  } else
    throw std::invalid_argument(fmt::format("--ompi '{}': use {}", o.ompi, ompi_version_names()));
  if (o.root >= placement.size())
    throw std::invalid_argument(fmt::format("--root {}: must be in 0..{}", o.root, placement.size() - 1));
  const RuleSet rules = export_rules(table, placement, options);
  const std::vector<std::string> lines = header(o, table_path, rules);
  const std::string text = o.format == "json" ? format_json(rules, lines)
                                              : format_classic(rules, options.ompi == OmpiVersion::v4_1 ? 1 : 2, lines);
  if (o.output.empty() || o.output == "-") {
    std::cout << text;
    return 0;
  }
  const std::string partial = o.output + ".partial";
  std::ofstream(partial) << text;
  if (!std::ifstream(partial).good() || std::rename(partial.c_str(), o.output.c_str()) != 0)
    throw std::invalid_argument(fmt::format("-o {}: cannot write it", o.output));
  return 0;
}

}  // namespace

void add_export_rules_command(CLI::App &app) {
  auto o = std::make_shared<ExportOptions>();
  CLI::App *cmd = app.add_subcommand(
      "export-rules",
      "Write modeltuned's decisions for an emulated job as tuned's rules file (coll_tuned_dynamic_rules_filename), "
      "for an Open MPI that cannot load modeltuned");
  cmd->footer(
      "The rules for a communicator of m ranks are modeltuned's decisions for the job's first m ranks, one per "
      "power-of-two size class, up to the largest size the table's checks measured; elsewhere Open MPI's fixed "
      "rule decides. The file's header says what a rule cannot carry (placement, root, the checks' margin at run "
      "time, the guard) and which decisions it leaves out.\n"
      "Examples:\n"
      "  modeltuned export-rules --machine orfeo-epyc --nodes 1 -n 128 -o rules.conf\n"
      "  modeltuned export-rules --topology node.xml --map-by core -n 16 --ompi 5.0 -o rules.conf\n"
      "  mpirun --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename rules.conf ...");
  add_job_options(*cmd, o->job);
  cmd->add_option("--ompi", o->ompi,
                  "the Open MPI line the rules are for: 4.1 (classic format version 1) or 5.0 (version 2, 5.0.7 "
                  "on); its algorithms and fixed rules are the ones weighed")
      ->capture_default_str();
  cmd->add_option("--format", o->format,
                  "classic (coll_tuned_dynamic_rules_filename's format of 4.1 and 5.0) or json (Open MPI 6.0's)")
      ->check(CLI::IsMember({"classic", "json"}))
      ->capture_default_str();
  cmd->add_option("--ops", o->ops,
                  fmt::format("the collectives to write rules for, comma-separated (default: all: {})",
                              collective_names(", ", ", ")))
      ->delimiter(',');
  cmd->add_option("--type-size", o->type_size,
                  "bytes of the reductions' element (8: MPI_DOUBLE); bcast, allgather and alltoall decide on bytes")
      ->check(cli::whole_number<size_t>(1))
      ->capture_default_str();
  cmd->add_option("--root", o->root, "the root bcast and reduce are decided at")
      ->check(cli::whole_number(0))
      ->capture_default_str();
  cmd->add_flag("--commutative-only", o->commutative_only,
                "the application reduces with commutative operations only: also write reduce and allreduce "
                "algorithms that are not order-preserving (tuned applies rules to every operation)");
  cmd->add_option("--max-bytes", o->max_bytes,
                  "the largest message decided (K, M, G suffixes; default: the largest the table's checks measured, "
                  "8M without checks)");
  cmd->add_flag("--without-han", o->without_han, "as under --mca coll ^han (see modeltuned explain --help)");
  cmd->add_option("-o,--output", o->output, "the file to write (default: standard output)");
  cmd->callback([o]() {
    try {
      std::exit(run_export(*o));
    } catch (const std::exception &e) {
      fmt::print(stderr, "modeltuned export-rules: {}\n", e.what());
      std::exit(2);
    }
  });
}

}  // namespace modeltuned::tools
