// `modeltuned explain`: what modeltuned would decide for an emulated job, offline: every candidate
// with its predicted latency, the pick, and what Open MPI 4.1's fixed rules would run instead.
// The decision is made by the same Selector the component uses, so for the same placement,
// table and call it is the component's decision.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <hwloc.h>
#include <nlohmann/json.hpp>

#include "common/cli.hpp"
#include "model/collectives/family.hpp"
#include "tools/commands.hpp"
#include "tools/lib/emulate.hpp"
#include "tools/lib/explain.hpp"
#include "tools/lib/stage_sum.hpp"

namespace modeltuned::tools {
namespace {

struct ExplainOptions {
  std::string machine;    // "orfeo-epyc"
  std::string synthetic;  // "node:2 pack:2 ..."
  std::string topology;   // hwloc XML of one node
  int nodes = 0;          // with --topology / to override --machine
  std::string hosts;      // "nodeA:2,nodeB:2" or "8x4": nodes and their slots, as a hostfile
  std::string map_by = "core";
  std::string bind_to = "auto";
  int np = 0;
  std::string table;
  std::string op = "bcast";
  std::string sizes = "1,1K,64K,1M";
  size_t type_size = 1;
  int root = 0;
  bool noncommutative = false;
  std::string algorithms;
  std::string variant = "schedule";
  int top = 0;
  bool json = false;
  std::string decisions;     // a real run's decision file instead of an emulated job
  std::string ompi = "4.1";  // the Open MPI line whose default is shown
  bool without_han = false;  // as under --mca coll ^han
};

// "64K" -> 65536; K, M, G are powers of 1024 (message sizes).
size_t parse_size(const std::string &text) {
  size_t pos = 0;
  double value = 0;
  try {
    value = std::stod(text, &pos);
  } catch (const std::exception &) {
    throw std::invalid_argument(fmt::format("--sizes: '{}' is not a size (e.g. 1, 64K, 1M)", text));
  }
  std::string suffix = text.substr(pos);
  double scale = suffix.empty() || suffix == "B"                     ? 1
                 : suffix == "K" || suffix == "KiB" || suffix == "k" ? 1024.0
                 : suffix == "M" || suffix == "MiB"                  ? 1024.0 * 1024
                 : suffix == "G" || suffix == "GiB"                  ? 1024.0 * 1024 * 1024
                                                                     : -1;
  if (scale < 0 || value < 0 || std::floor(value * scale) != value * scale)
    throw std::invalid_argument(fmt::format("--sizes: '{}' is not a whole number of bytes (suffixes K, M, G)", text));
  return static_cast<size_t>(value * scale);
}

// --algorithms' help: every collective's algorithms, as the component's parameters take them.
std::string algorithms_help() {
  std::string text =
      fmt::format("restrict candidates, like coll_modeltuned_<op>_algorithms ({}):", collective_names(", ", " or "));
  for (const CollectiveFamily *family : collective_families())
    text += fmt::format(" {} {};", op_name(family->op), algorithm_names(family->op));
  text.pop_back();
  return text;
}

std::vector<size_t> parse_sizes(const std::string &list) {
  std::vector<size_t> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!item.empty()) out.push_back(parse_size(item));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (out.empty()) throw std::invalid_argument("--sizes: give at least one size, e.g. 1,64K,1M");
  return out;
}

// One node's shape from an hwloc XML (lstopo --of xml), assuming a regular hierarchy.
MachineShape machine_from_xml(const std::string &path, int nodes) {
  hwloc_topology_t topo;
  hwloc_topology_init(&topo);
  if (hwloc_topology_set_xml(topo, path.c_str()) != 0 || hwloc_topology_load(topo) != 0) {
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

MachineShape node_shape(const ExplainOptions &o) {
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

MachineShape machine_of(const ExplainOptions &o) {
  MachineShape m = node_shape(o);
  if (!o.hosts.empty()) apply_hosts(m, o.hosts);
  return m;
}

std::string default_table(const ExplainOptions &o) {
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

// A guard's record of the decision file: a pick it took back.
std::string format_guard_event(const nlohmann::json &e) {
  return fmt::format(
      "communicator {} (cid {}), world rank {}: the guard took back {} {} of {}-{} B at root {} at call {}: it "
      "took {:.3f} us against Open MPI's default's {:.3f} us ({}) in {} windows; the default runs from then on\n",
      e.value("comm", std::string("?")), e.value("cid", -1), e.value("world_rank", -1), e.value("op", std::string("?")),
      e.value("pick", std::string("?")), e.value("bytes_from", 0ull), e.value("bytes_below", 1ull) - 1,
      e.value("root", -1), e.value("call", 0ull), e.value("pick_us", 0.0), e.value("default_us", 0.0),
      e.value("default", std::string("?")), e.value("windows", 0));
}

// `--decisions FILE`: a real run's decisions (coll_modeltuned_decision_file), printed like a what-if,
// and what the guard took back.
int print_decision_file(const std::string &path, int top, bool json) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(fmt::format("--decisions {}: cannot read it", path));
  std::string line;
  int n = 0, line_number = 0;
  nlohmann::json all = nlohmann::json::array();
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty()) continue;
    nlohmann::json d;
    try {
      d = nlohmann::json::parse(line);
      if (d.contains("event")) {  // the guard's: printed after the decision it changed
        if (json)
          all.push_back(d);
        else
          fmt::print("{}", format_guard_event(d));
        continue;
      }
      if (!d.contains("op") || !d.contains("candidates") || !d.contains("pick"))
        throw std::invalid_argument("missing op, pick or candidates");
    } catch (const std::exception &e) {
      throw std::invalid_argument(
          fmt::format("--decisions {}:{}: not a decision record ({}); the file must come "
                      "from coll_modeltuned_decision_file",
                      path, line_number, e.what()));
    }
    ++n;
    if (json) {
      all.push_back(d);
      continue;
    }
    fmt::print("communicator {} (cid {}, {} ranks, channels {}), world rank {}:\n", d.value("comm", std::string("?")),
               d.value("cid", -1), d.value("comm_size", 0), d.value("channels", std::string("?")),
               d.value("world_rank", -1));
    fmt::print("{}", format_decision(d, top));
  }
  if (json) std::cout << all.dump(2) << "\n";
  if (n == 0) throw std::invalid_argument(fmt::format("--decisions {}: no decisions in it", path));
  return 0;
}

int run_explain(const ExplainOptions &o) {
  if (!o.decisions.empty()) return print_decision_file(o.decisions, o.top, o.json);
  const MachineShape machine = machine_of(o);
  if (o.np < 2) throw std::invalid_argument("-n/--np: give the number of ranks (at least 2)");
  const Placement placement = emulate_placement(machine, o.np, o.map_by, parse_bind_to(o.bind_to));
  const std::string table_path = default_table(o);
  const CalibrationTable table = load_calibration(table_path);
  const std::optional<Op> collective = find_collective(o.op);
  if (!collective) throw std::invalid_argument(fmt::format("--op '{}': use {}", o.op, collective_names(", ", " or ")));
  const Op op = *collective;
  if (o.type_size < 1) throw std::invalid_argument("--type-size must be at least 1");
  if (o.root < 0 || o.root >= o.np)
    throw std::invalid_argument(fmt::format("--root {}: must be in 0..{}", o.root, o.np - 1));
  const TreeSchedule schedule =
      o.variant == "schedule" ? TreeSchedule{nullptr}
      : o.variant == "stage_sum"
          ? stage_sum_us
          : throw std::invalid_argument(fmt::format("--variant '{}': use schedule or stage_sum", o.variant));
  const AlgorithmMask allowed = parse_algorithm_list(op, o.algorithms);
  for (int c = 0; c < kChannels; ++c)
    if ((placement.channels_used() & (1u << c)) && !table.channels[c].present)
      throw std::invalid_argument(
          fmt::format("{}: the placement uses the '{}' channel, which this table does not calibrate "
                      "(the component would step aside)",
                      table_path, kChannelNames[c]));

  // A collective that moves no data has one call to explain, whatever --sizes says.
  const std::vector<size_t> sizes = collective_family(op).moves_data ? parse_sizes(o.sizes) : std::vector<size_t>{0};
  WhatIf what_if{op, sizes, o.type_size, o.root, !o.noncommutative, allowed, schedule};
  if (auto v = parse_ompi_version(o.ompi))
    what_if.ompi = *v;
  else
    throw std::invalid_argument(fmt::format("--ompi '{}': use 4.1 or 5.0", o.ompi));
  what_if.han_enabled = !o.without_han;
  const nlohmann::json decisions = explain_what_if(table, placement, what_if);
  if (o.json)
    std::cout << decisions.dump(2) << "\n";
  else
    for (const nlohmann::json &d : decisions) fmt::print("{}", format_decision(d, o.top));
  return 0;
}

}  // namespace

void add_explain_command(CLI::App &app) {
  auto o = std::make_shared<ExplainOptions>();
  CLI::App *cmd = app.add_subcommand(
      "explain",
      "Show every candidate's predicted latency, modeltuned's pick and Open MPI's default for an emulated job");
  cmd->footer(
      "Examples:\n"
      "  modeltuned explain --machine orfeo-epyc --map-by core -n 256 --op bcast --sizes 1,64K,1M\n"
      "  modeltuned explain --machine orfeo-epyc --nodes 8 -n 1024 --op reduce    (8 full nodes of 128 cores)\n"
      "  modeltuned explain --machine orfeo-epyc --hosts 8x4 --map-by node -n 32  (4 ranks on each of 8 nodes)");
  auto machine = cmd->add_option("--machine", o->machine, "a known machine: orfeo-epyc (2 x AMD EPYC 7H12 per node)");
  auto synthetic = cmd->add_option("--synthetic", o->synthetic, "machine as \"node:2 pack:2 numa:4 l3:4 core:4\"");
  auto topology = cmd->add_option("--topology", o->topology, "one node's hwloc XML (lstopo --of xml); see --nodes")
                      ->check(CLI::ExistingFile);
  machine->excludes(synthetic)->excludes(topology);
  synthetic->excludes(topology);
  cmd->add_option("--nodes", o->nodes, "number of identical nodes (default: 2 for orfeo-epyc, 1 for --topology)")
      ->check(cli::whole_number(1));
  cmd->add_option("--hosts", o->hosts,
                  "the job's nodes as a hostfile lists them: NAME:SLOTS,... (e.g. nodeA:2,nodeB:2,nodeC:1, as "
                  "modeltuned-emulate-nodes takes them) or COUNTxSLOTS (8x4: 8 nodes, 4 ranks each); each node is "
                  "one --machine/--synthetic/--topology node")
      ->excludes("--nodes");
  cmd->add_option("--map-by", o->map_by, "mpirun --map-by: core (slot), l3cache, numa, socket, node, or ppr:N:OBJ")
      ->capture_default_str();
  cmd->add_option("--bind-to", o->bind_to,
                  "mpirun --bind-to: auto (Open MPI 4.1's default), core, l3cache, numa, socket, none")
      ->capture_default_str();
  cmd->add_option("-n,--np", o->np, "number of ranks")->check(cli::whole_number(2));
  cmd->add_option("--decisions", o->decisions,
                  "print a real run's decisions (the file coll_modeltuned_decision_file wrote) instead");
  cmd->add_option("--table", o->table,
                  "calibration table (default: the shipped one for --machine orfeo-epyc, else the one the "
                  "component would use: $XDG_CONFIG_HOME/modeltuned/calibration.json, then SYSCONFDIR's)");
  cmd->add_option("--op", o->op, collective_names(", ", " or "))->capture_default_str();
  cmd->add_option("--sizes", o->sizes, "message sizes in bytes, comma-separated; K, M, G suffixes")
      ->capture_default_str();
  cmd->add_option("--type-size", o->type_size, "datatype size in bytes (segment counts depend on it)")
      ->check(cli::whole_number<size_t>(1))
      ->capture_default_str();
  cmd->add_option("--root", o->root, "root rank")->check(cli::whole_number(0))->capture_default_str();
  cmd->add_flag("--noncommutative", o->noncommutative, "the reduction operation is not commutative");
  cmd->add_option("--algorithms", o->algorithms, algorithms_help());
  cmd->add_option("--variant", o->variant,
                  "cost model: schedule (default, the component's) or stage_sum (the report's eq. 2-3)")
      ->capture_default_str();
  cmd->add_option("--top", o->top, "show only the N best candidates per size (0: all)")
      ->check(cli::whole_number(0))
      ->capture_default_str();
  cmd->add_option("--ompi", o->ompi,
                  "the Open MPI line the component runs under (4.1 or 5.0): its default decision "
                  "is shown and weighed, as the component does")
      ->capture_default_str();
  cmd->add_flag("--without-han", o->without_han,
                "as under --mca coll ^han: under 5.0, han otherwise runs bcast and reduce on a communicator across "
                "nodes, and where a node holds two or more of its ranks the component leaves both to it");
  cmd->add_flag("--json", o->json, "machine-readable output");
  cmd->callback([o]() {
    try {
      std::exit(run_explain(*o));
    } catch (const std::exception &e) {
      fmt::print(stderr, "modeltuned explain: {}\n", e.what());
      std::exit(2);
    }
  });
}

}  // namespace modeltuned::tools
