// The emulated job that `modeltuned explain` and `modeltuned export-rules` reason about: its nodes
// (a known machine, hwloc's synthetic description or one node's XML), how mpirun maps and binds
// its ranks, and the calibration table the component would read; their command-line options.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

// Declared, not included: CLI11's header costs seconds per file, and only the definitions use it.
namespace CLI {
class App;
}  // namespace CLI

#include "model/calibration/table.hpp"
#include "model/topology/placement.hpp"
#include "tools/lib/emulate.hpp"

namespace modeltuned::tools {

struct JobOptions {
  std::string machine;    // "orfeo-epyc"
  std::string synthetic;  // "node:2 pack:2 ..."
  std::string topology;   // hwloc XML of one node
  int nodes = 0;          // with --topology / to override --machine
  std::string hosts;      // "nodeA:2,nodeB:2" or "8x4": nodes and their slots, as a hostfile
  std::string map_by = "core";
  std::string bind_to = "auto";
  int np = 0;
  std::string table;
};

// "64K" -> 65536; K, M, G are powers of 1024 (message sizes); std::invalid_argument naming `option`.
size_t parse_size(const std::string &text, std::string_view option);

// --machine, --synthetic, --topology, --nodes, --hosts, --map-by, --bind-to, -n/--np and --table.
void add_job_options(CLI::App &cmd, JobOptions &o);

// The job's nodes and the placement of its ranks; std::invalid_argument naming the bad option.
MachineShape machine_of(const JobOptions &o);
Placement job_placement(const JobOptions &o);

// --table, else the shipped table of --machine orfeo-epyc, else the one the component would read
// ($XDG_CONFIG_HOME/modeltuned/calibration.json, then SYSCONFDIR's); std::invalid_argument when none.
std::string job_table_path(const JobOptions &o);

// The table, refused (std::invalid_argument) when the placement uses a channel it does not
// calibrate: the component would step aside there.
CalibrationTable load_job_table(const std::string &path, const Placement &placement);

}  // namespace modeltuned::tools
