// Placements of emulated jobs, for the tools: where Open MPI 4.1 puts and binds each rank of
// `mpirun -np N --map-by X` on identical nodes, so the model can be asked about machines it does
// not run on.
#pragma once
#include <string>
#include <string_view>

#include "model/topology/placement.hpp"

namespace modeltuned::tools {

// Identical nodes, each a regular hierarchy (hwloc's synthetic description, flattened).
struct MachineShape {
  int nodes = 1;
  int packages = 1;          // per node
  int numa_per_package = 1;
  int l3_per_numa = 1;
  int cores_per_l3 = 1;
  int cores_per_node() const { return packages * numa_per_package * l3_per_numa * cores_per_l3; }
  int cores() const { return nodes * cores_per_node(); }
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

enum class MapBy { core, l3, numa, socket, node };
enum class BindTo { automatic, core, l3, numa, socket, none };
MapBy parse_map_by(std::string_view s);    // throws std::invalid_argument
BindTo parse_bind_to(std::string_view s);  // throws std::invalid_argument

// Open MPI 4.1's mapper with one slot per core: map-by core/l3/numa/socket fill a node (round-
// robin over the objects of that kind) before the next; map-by node deals ranks to nodes in
// turn. Automatic binding, as measured with 4.1.4: core when np <= 2, otherwise the mapping
// object (numa for map-by node). Throws std::invalid_argument when np exceeds the cores.
Placement emulate_placement(const MachineShape &machine, int np, MapBy map_by,
                            BindTo bind_to = BindTo::automatic);

// Same, with mpirun's --map-by text: core, l3cache, numa, socket, node, or ppr:N:OBJ (N ranks on
// consecutive cores of each OBJ in turn, OBJ one of core, l3cache, numa, socket, node; bound to
// cores unless told otherwise). Throws std::invalid_argument naming the bad text.
Placement emulate_placement(const MachineShape &machine, int np, std::string_view map_by,
                            BindTo bind_to = BindTo::automatic);

}  // namespace modeltuned::tools
