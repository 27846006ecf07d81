#include "tools/lib/job.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <hwloc.h>

#include "common/cli.hpp"

namespace modeltuned::tools {
namespace {

// Whether the file holds an hwloc topology at all: hwloc's XML reader says why it rejects any other
// on stderr itself (newer releases whatever HWLOC_XML_VERBOSE says), beside the tool's own line.
bool holds_topology(const std::string &path) {
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return in.good() || in.eof() ? text.find("<topology") != std::string::npos : false;
}

// One node's shape from an hwloc XML (lstopo --of xml), assuming a regular hierarchy.
MachineShape machine_from_xml(const std::string &path, int nodes) {
  hwloc_topology_t topo;
  hwloc_topology_init(&topo);
  if (!holds_topology(path) || hwloc_topology_set_xml(topo, path.c_str()) != 0 || hwloc_topology_load(topo) != 0) {
    hwloc_topology_destroy(topo);
    throw std::invalid_argument(
        fmt::format("--topology {}: not a readable hwloc XML (make one with lstopo --of xml)", path));
  }
  auto count = [&](hwloc_obj_type_t type) { return std::max(1, hwloc_get_nbobjs_by_type(topo, type)); };
  const int packages = count(HWLOC_OBJ_PACKAGE), numa = count(HWLOC_OBJ_NUMANODE), l3 = count(HWLOC_OBJ_L3CACHE),
            cores = count(HWLOC_OBJ_CORE);
  hwloc_topology_destroy(topo);
  MachineShape m{nodes > 0 ? nodes : 1,
                 packages,
                 std::max(1, numa / packages),
                 std::max(1, l3 / std::max(numa, packages)),
                 std::max(1, cores / std::max(l3, 1)),
                 {}};
  if (m.cores_per_node() != cores)
    throw std::invalid_argument(
        fmt::format("--topology {}: {} cores do not split evenly into {} packages, {} NUMA nodes, {} L3 caches; "
                    "describe the node with --synthetic instead",
                    path, cores, packages, numa, l3));
  return m;
}

MachineShape node_shape(const JobOptions &o) {
  int given = !o.machine.empty() + !o.synthetic.empty() + !o.topology.empty();
  if (given != 1)
    throw std::invalid_argument(
        "give exactly one of --machine orfeo-epyc, --synthetic \"node:2 pack:2 ...\" or --topology FILE.xml");
  if (!o.machine.empty()) {
    if (o.machine != "orfeo-epyc")
      throw std::invalid_argument(fmt::format("--machine '{}': known machines: orfeo-epyc", o.machine));
    return orfeo_epyc(o.nodes > 0 ? o.nodes : 2);
  }
  if (!o.synthetic.empty()) {
    MachineShape m = parse_machine(o.synthetic);
    if (o.nodes > 0) m.nodes = o.nodes;
    return m;
  }
  return machine_from_xml(o.topology, o.nodes);
}

}  // namespace

size_t parse_size(const std::string &text, std::string_view option) {
  size_t pos = 0;
  double value = 0;
  try {
    value = std::stod(text, &pos);
  } catch (const std::exception &) {
    throw std::invalid_argument(fmt::format("{}: '{}' is not a size (e.g. 1, 64K, 1M)", option, text));
  }
  std::string suffix = text.substr(pos);
  double scale = suffix.empty() || suffix == "B"                     ? 1
                 : suffix == "K" || suffix == "KiB" || suffix == "k" ? 1024.0
                 : suffix == "M" || suffix == "MiB"                  ? 1024.0 * 1024
                 : suffix == "G" || suffix == "GiB"                  ? 1024.0 * 1024 * 1024
                                                                     : -1;
  if (scale < 0 || value < 0 || std::floor(value * scale) != value * scale)
    throw std::invalid_argument(
        fmt::format("{}: '{}' is not a whole number of bytes (suffixes K, M, G)", option, text));
  return static_cast<size_t>(value * scale);
}

void add_job_options(CLI::App &cmd, JobOptions &o) {
  auto machine = cmd.add_option("--machine", o.machine, "a known machine: orfeo-epyc (2 x AMD EPYC 7H12 per node)");
  auto synthetic = cmd.add_option("--synthetic", o.synthetic, "machine as \"node:2 pack:2 numa:4 l3:4 core:4\"");
  auto topology = cmd.add_option("--topology", o.topology, "one node's hwloc XML (lstopo --of xml); see --nodes")
                      ->check(CLI::ExistingFile);
  machine->excludes(synthetic)->excludes(topology);
  synthetic->excludes(topology);
  cmd.add_option("--nodes", o.nodes, "number of identical nodes (default: 2 for orfeo-epyc, 1 for --topology)")
      ->check(cli::whole_number(1));
  cmd.add_option("--hosts", o.hosts,
                 "the job's nodes as a hostfile lists them: NAME:SLOTS,... (e.g. nodeA:2,nodeB:2,nodeC:1, as "
                 "modeltuned-emulate-nodes takes them) or COUNTxSLOTS (8x4: 8 nodes, 4 ranks each); each node is "
                 "one --machine/--synthetic/--topology node")
      ->excludes("--nodes");
  cmd.add_option("--map-by", o.map_by, "mpirun --map-by: core (slot), l3cache, numa, socket, node, or ppr:N:OBJ")
      ->capture_default_str();
  cmd.add_option("--bind-to", o.bind_to,
                 "mpirun --bind-to: auto (Open MPI 4.1's default), core, l3cache, numa, socket, none")
      ->capture_default_str();
  cmd.add_option("-n,--np", o.np, "number of ranks")->check(cli::whole_number(2));
  cmd.add_option("--table", o.table,
                 "calibration table (default: the shipped one for --machine orfeo-epyc, else the one the "
                 "component would use: $XDG_CONFIG_HOME/modeltuned/calibration.json, then SYSCONFDIR's)");
}

MachineShape machine_of(const JobOptions &o) {
  MachineShape m = node_shape(o);
  if (!o.hosts.empty()) apply_hosts(m, o.hosts);
  return m;
}

Placement job_placement(const JobOptions &o) {
  const MachineShape machine = machine_of(o);
  if (o.np < 2) throw std::invalid_argument("-n/--np: give the number of ranks (at least 2)");
  return emulate_placement(machine, o.np, o.map_by, parse_bind_to(o.bind_to));
}

std::string job_table_path(const JobOptions &o) {
  if (!o.table.empty()) return o.table;
  if (o.machine == "orfeo-epyc") {  // installed, or else the source tree's
    const char *installed = MODELTUNED_PKGDATADIR "/orfeo-epyc.json";
    return std::ifstream(installed).good() ? installed : MODELTUNED_SRCDIR "/calib/tables/orfeo-epyc.json";
  }
  // The component's search order: $XDG_CONFIG_HOME (~/.config), then the system directory.
  const char *xdg = std::getenv("XDG_CONFIG_HOME");
  const char *home = std::getenv("HOME");
  const std::string user = xdg && *xdg ? std::string(xdg) + "/modeltuned/calibration.json"
                           : home      ? std::string(home) + "/.config/modeltuned/calibration.json"
                                       : "";
  for (const std::string &candidate : {user, std::string(MODELTUNED_SYSCONFDIR "/modeltuned/calibration.json")})
    if (!candidate.empty() && std::ifstream(candidate).good()) return candidate;
  throw std::invalid_argument(
      "--table FILE: no table given and none in ~/.config/modeltuned/calibration.json or " MODELTUNED_SYSCONFDIR
      "/modeltuned/calibration.json (calibrate with modeltuned-calibrate)");
}

CalibrationTable load_job_table(const std::string &path, const Placement &placement) {
  CalibrationTable table = load_calibration(path);
  for (int c = 0; c < kChannels; ++c)
    if ((placement.channels_used() & (1u << c)) && !table.channels[c].present)
      throw std::invalid_argument(
          fmt::format("{}: the placement uses the '{}' channel, which this table does not calibrate "
                      "(the component would step aside)",
                      path, kChannelNames[c]));
  return table;
}

}  // namespace modeltuned::tools
