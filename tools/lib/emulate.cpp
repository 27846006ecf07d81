#include "tools/lib/emulate.hpp"

#include <charconv>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

namespace modeltuned::tools {

MachineShape orfeo_epyc(int nodes) { return MachineShape{nodes, 2, 4, 4, 4, {}}; }

MachineShape parse_machine(std::string_view description) {
  MachineShape m;
  std::istringstream in{std::string(description)};
  std::string token;
  bool any = false;
  while (in >> token) {
    size_t colon = token.find(':');
    int value = 0;
    std::string_view key = std::string_view(token).substr(0, colon);
    std::string_view number = colon == std::string::npos ? "" : std::string_view(token).substr(colon + 1);
    auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (colon == std::string::npos || ec != std::errc() || end != number.data() + number.size() || value < 1)
      throw std::invalid_argument(fmt::format("machine description: '{}' is not <level>:<count >= 1>", token));
    if (key == "node" || key == "nodes")
      m.nodes = value;
    else if (key == "pack" || key == "package" || key == "socket")
      m.packages = value;
    else if (key == "numa" || key == "numanode")
      m.numa_per_package = value;
    else if (key == "l3" || key == "l3cache")
      m.l3_per_numa = value;
    else if (key == "core")
      m.cores_per_l3 = value;
    else if (key == "pu") {
      if (value != 1) throw std::invalid_argument("machine description: only pu:1 is supported (one rank per core)");
    } else
      throw std::invalid_argument(
          fmt::format("machine description: unknown level '{}'; use node, pack, numa, l3, core", key));
    any = true;
  }
  if (!any) throw std::invalid_argument("machine description is empty; e.g. \"node:2 pack:2 numa:4 l3:4 core:4\"");
  return m;
}

std::string describe(const MachineShape &m) {
  return fmt::format("node:{} pack:{} numa:{} l3:{} core:{}", m.nodes, m.packages, m.numa_per_package, m.l3_per_numa,
                     m.cores_per_l3);
}

int MachineShape::total_slots() const {
  int total = 0;
  for (int n = 0; n < nodes; ++n) total += slots(n);
  return total;
}

void apply_hosts(MachineShape &m, std::string_view hosts) {
  auto number = [&](std::string_view text, std::string_view entry) {
    int value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < 1)
      throw std::invalid_argument(
          fmt::format("--hosts '{}': '{}' is not NAME:SLOTS or COUNTxSLOTS with whole numbers >= 1", hosts, entry));
    return value;
  };
  std::vector<int> slots;
  if (size_t x = hosts.find('x'); x != std::string_view::npos && hosts.find(':') == std::string_view::npos) {
    slots.assign(number(hosts.substr(0, x), hosts), number(hosts.substr(x + 1), hosts));
  } else {
    size_t start = 0;
    while (start <= hosts.size()) {
      size_t comma = hosts.find(',', start);
      std::string_view entry =
          hosts.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
      size_t colon = entry.rfind(':');
      if (colon == std::string_view::npos || colon == 0)
        throw std::invalid_argument(fmt::format("--hosts '{}': '{}' is not NAME:SLOTS (e.g. nodeA:2)", hosts, entry));
      slots.push_back(number(entry.substr(colon + 1), entry));
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
  }
  for (int s : slots)
    if (s > m.cores_per_node())
      throw std::invalid_argument(
          fmt::format("--hosts '{}': {} slots on a node of {} cores; one rank per core", hosts, s, m.cores_per_node()));
  m.nodes = static_cast<int>(slots.size());
  m.slots_per_node = std::move(slots);
}

MapBy parse_map_by(std::string_view s) {
  if (s == "core" || s == "slot") return MapBy::core;
  if (s == "l3" || s == "l3cache") return MapBy::l3;
  if (s == "numa") return MapBy::numa;
  if (s == "socket" || s == "package") return MapBy::socket;
  if (s == "node") return MapBy::node;
  throw std::invalid_argument(fmt::format("--map-by '{}': use core (slot), l3cache, numa, socket or node", s));
}

BindTo parse_bind_to(std::string_view s) {
  if (s == "auto" || s.empty()) return BindTo::automatic;
  if (s == "core") return BindTo::core;
  if (s == "l3" || s == "l3cache") return BindTo::l3;
  if (s == "numa") return BindTo::numa;
  if (s == "socket" || s == "package") return BindTo::socket;
  if (s == "none") return BindTo::none;
  throw std::invalid_argument(fmt::format("--bind-to '{}': use auto, core, l3cache, numa, socket or none", s));
}

// Hierarchy levels of one rank bound as `bind_to`, from the core it was mapped to.
static RankPlace place_on(const MachineShape &machine, int node, int c, BindTo bind_to) {
  const int cores_per_numa = machine.l3_per_numa * machine.cores_per_l3;
  const int cores_per_package = machine.numa_per_package * cores_per_numa;
  RankPlace p;
  p.node = node;
  if (bind_to != BindTo::none) {
    p.package = c / cores_per_package;
    if (bind_to != BindTo::socket) {
      p.numa = p.package * machine.numa_per_package + (c % cores_per_package) / cores_per_numa;
      if (bind_to != BindTo::numa) {
        p.l3 = c / machine.cores_per_l3;
        if (bind_to == BindTo::core) p.core = c;
      }
    }
  } else if (machine.packages == 1) {
    p.package = 0;  // unbound, but there is only one package to be in
  }
  return p;
}

Placement emulate_placement(const MachineShape &machine, int np, std::string_view map_by, BindTo bind_to) {
  if (!map_by.starts_with("ppr:")) return emulate_placement(machine, np, parse_map_by(map_by), bind_to);
  if (!machine.slots_per_node.empty())
    throw std::invalid_argument(
        fmt::format("--map-by '{}': with --hosts, map by slot, core, l3cache, numa, socket or node", map_by));
  // ppr:N:OBJ
  std::string_view rest = map_by.substr(4);
  size_t colon = rest.find(':');
  int per = 0;
  std::string_view count = rest.substr(0, colon);
  auto [end, ec] = std::from_chars(count.data(), count.data() + count.size(), per);
  if (colon == std::string_view::npos || ec != std::errc() || end != count.data() + count.size() || per < 1)
    throw std::invalid_argument(fmt::format("--map-by '{}': ppr takes ppr:<ranks per object>:<object>", map_by));
  const MapBy object = parse_map_by(rest.substr(colon + 1));
  const int cores_per_numa = machine.l3_per_numa * machine.cores_per_l3;
  const int object_cores = object == MapBy::core     ? 1
                           : object == MapBy::l3     ? machine.cores_per_l3
                           : object == MapBy::numa   ? cores_per_numa
                           : object == MapBy::socket ? machine.numa_per_package * cores_per_numa
                                                     : machine.cores_per_node();
  if (per > object_cores)
    throw std::invalid_argument(
        fmt::format("--map-by '{}': {} ranks do not fit on one object of {} cores", map_by, per, object_cores));
  const int objects = machine.nodes * machine.cores_per_node() / object_cores;
  if (np > per * objects)
    throw std::invalid_argument(
        fmt::format("-np {}: --map-by '{}' places at most {} ranks on this machine", np, map_by, per * objects));
  if (bind_to == BindTo::automatic) bind_to = BindTo::core;
  std::vector<RankPlace> ranks;
  for (int r = 0; r < np; ++r) {
    const int global_core = (r / per) * object_cores + r % per;
    ranks.push_back(
        place_on(machine, global_core / machine.cores_per_node(), global_core % machine.cores_per_node(), bind_to));
  }
  return Placement(std::move(ranks));
}

Placement emulate_placement(const MachineShape &machine, int np, MapBy map_by, BindTo bind_to) {
  const int per_node = machine.cores_per_node();
  if (np < 1 || np > machine.total_slots())
    throw std::invalid_argument(machine.slots_per_node.empty()
                                    ? fmt::format("-np {}: the machine ({}) has {} cores; one rank per core", np,
                                                  describe(machine), machine.cores())
                                    : fmt::format("-np {}: the hosts have {} slots", np, machine.total_slots()));
  if (bind_to == BindTo::automatic) {
    if (np <= 2)
      bind_to = BindTo::core;
    else
      switch (map_by) {
        case MapBy::core:
          bind_to = BindTo::core;
          break;
        case MapBy::l3:
          bind_to = BindTo::l3;
          break;
        case MapBy::numa:
        case MapBy::node:
          bind_to = BindTo::numa;
          break;
        case MapBy::socket:
          bind_to = BindTo::socket;
          break;
      }
  }
  const int cores_per_numa = machine.l3_per_numa * machine.cores_per_l3;
  const int cores_per_package = machine.numa_per_package * cores_per_numa;

  // Core (index within the node) and node of each rank.
  std::vector<int> node_of(np), core_of(np);
  if (map_by == MapBy::node) {
    std::vector<int> used(machine.nodes, 0);
    int node = 0;
    for (int r = 0; r < np; ++r) {
      while (used[node] >= machine.slots(node)) node = (node + 1) % machine.nodes;  // full: skipped
      int j = used[node]++;
      node_of[r] = node;
      // Successive ranks on a node take successive binding objects (measured with 4.1.4: NUMA
      // domains 0, 1, 2, ...); within a core binding, successive cores.
      int object_cores = bind_to == BindTo::core     ? 1
                         : bind_to == BindTo::l3     ? machine.cores_per_l3
                         : bind_to == BindTo::socket ? cores_per_package
                                                     : cores_per_numa;
      int objects = per_node / object_cores;
      core_of[r] = (j % objects) * object_cores + (j / objects) % object_cores;
      node = (node + 1) % machine.nodes;
    }
  } else {
    int object_cores = map_by == MapBy::core   ? 1
                       : map_by == MapBy::l3   ? machine.cores_per_l3
                       : map_by == MapBy::numa ? cores_per_numa
                                               : cores_per_package;
    int objects = per_node / object_cores;
    for (int r = 0, node = 0, first_on_node = 0; r < np; ++r) {
      while (r - first_on_node >= machine.slots(node)) first_on_node += machine.slots(node++);
      node_of[r] = node;
      int j = r - first_on_node;  // round-robin over the node's objects, then the next core in each
      core_of[r] = (j % objects) * object_cores + j / objects;
    }
  }

  std::vector<RankPlace> ranks(np);
  for (int r = 0; r < np; ++r) ranks[r] = place_on(machine, node_of[r], core_of[r], bind_to);
  return Placement(std::move(ranks));
}

}  // namespace modeltuned::tools
