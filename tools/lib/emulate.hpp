// Placements of emulated jobs, for the tools: where Open MPI 4.1 puts and binds each rank of
// `mpirun -np N --map-by X` on identical nodes, so the model can be asked about machines it does
// not run on.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "model/topology/placement.hpp"

namespace modeltuned::tools {

// Identical nodes, each a regular hierarchy (hwloc's synthetic description, flattened).
struct MachineShape {
  int nodes = 1;
  int packages = 1;  // per node
  int numa_per_package = 1;
  int l3_per_numa = 1;
  int cores_per_l3 = 1;
  // Ranks each node takes, as a hostfile's "NAME slots=N" (size == nodes); empty: one per core.
  std::vector<int> slots_per_node;
  int cores_per_node() const { return packages * numa_per_package * l3_per_numa * cores_per_l3; }
  int cores() const { return nodes * cores_per_node(); }
  int slots(int node) const { return slots_per_node.empty() ? cores_per_node() : slots_per_node[node]; }
  int total_slots() const;
  bool operator==(const MachineShape &) const = default;
};

// Two ORFEO EPYC nodes per node count: 2 x AMD EPYC 7H12, 4 NUMA (NPS4) x 2 CCD x 2 CCX (L3) x 4
// cores per socket (data/orfeo-epyc/README.md).
MachineShape orfeo_epyc(int nodes = 2);

// "node:2 pack:2 numa:4 l3:4 core:4" (levels in this order, each optional, default 1; hwloc's
// synthetic names package and l3cache are accepted). Throws std::invalid_argument naming the
// bad token.
MachineShape parse_machine(std::string_view description);
std::string describe(const MachineShape &m);

// A hostfile's worth of nodes: "nodeA:2,nodeB:2,nodeC:1" (NAME:SLOTS, as modeltuned-emulate-nodes
// takes them) or "8x4" (8 nodes of 4 slots). Sets nodes and slots_per_node of `m`; each node has
// m's shape, and no more slots than cores. Throws std::invalid_argument naming the bad entry.
void apply_hosts(MachineShape &m, std::string_view hosts);

enum class MapBy { core, l3, numa, socket, node };
enum class BindTo { automatic, core, l3, numa, socket, none };
MapBy parse_map_by(std::string_view s);    // throws std::invalid_argument
BindTo parse_bind_to(std::string_view s);  // throws std::invalid_argument

// Open MPI 4.1's mapper with one slot per core (or the hosts' slots): map-by core (slot)/l3/numa/
// socket fill a node's slots (round-robin over the objects of that kind) before the next; map-by
// node deals ranks to the nodes with free slots in turn. Automatic binding, as measured with 4.1.4: core when np <= 2,
// otherwise the mapping object (numa for map-by node). Throws std::invalid_argument when np exceeds the cores.
Placement emulate_placement(const MachineShape &machine, int np, MapBy map_by, BindTo bind_to = BindTo::automatic);

// Same, with mpirun's --map-by text: core, l3cache, numa, socket, node, or ppr:N:OBJ (N ranks on
// consecutive cores of each OBJ in turn, OBJ one of core, l3cache, numa, socket, node; bound to
// cores unless told otherwise). Throws std::invalid_argument naming the bad text.
Placement emulate_placement(const MachineShape &machine, int np, std::string_view map_by,
                            BindTo bind_to = BindTo::automatic);

}  // namespace modeltuned::tools
