// Where the ranks of MPI_COMM_WORLD are bound, and which ranks the calibration pairs up on each
// channel.
#pragma once
#include <array>
#include <string>
#include <vector>

#include <mpi.h>
#include <nlohmann/json.hpp>

#include "model/topology/placement.hpp"

namespace modeltuned::calibrate {

// Object counts of the hwloc topology a rank sees, for the provenance of the table.
struct TopologySummary {
  int packages = 0, numa = 0, l3 = 0, cores = 0, pus = 0;
  bool emulated = false;          // loaded from HWLOC_XMLFILE / a synthetic description
  std::string mapping_policy;     // how emulated bindings were derived; empty on a real system
  std::string signature() const;  // "pack:2 numa:8 l3:16 core:64 pu:64", lstopo --input style
  nlohmann::json to_json() const;
};

struct WorldPlacement {
  Placement placement;             // indexed by MPI_COMM_WORLD rank
  std::vector<std::string> hosts;  // distinct processor names, indexed by RankPlace::node
  TopologySummary topology;        // of this rank's topology
  // Ranks whose binding spans several cores (unbound) or that share a core with another
  // rank: their channels are guesses, so rank 0 warns.
  std::vector<int> unbound_ranks, core_sharing_ranks;
};

// Collective over MPI_COMM_WORLD. Each rank reads its binding with hwloc; when the topology is
// not the running system (HWLOC_XMLFILE), the real binding means nothing in it, so the binding is
// emulated: node-local rank i goes round-robin over the objects of Open MPI's mapping policy
// (OMPI_MCA_rmaps_base_mapping_policy, i.e. mpirun --map-by; default core), like Open MPI would
// map and bind to core on that machine. Throws std::runtime_error when hwloc fails.
WorldPlacement discover_world_placement();

// Rank 0's view of one channel: the peers it reaches through it, in rank order.
struct ChannelPeers {
  Channel channel;
  std::vector<int> peers;
  // The relay ring's two forwarding ranks (0 -> first -> second -> 0), -1 with fewer than two
  // peers: the first peer, and the next one reached from it through this channel too when there
  // is one (every hop on the channel), else the second peer.
  std::array<int, 2> relay{-1, -1};
  int max_p() const { return static_cast<int>(peers.size()) + 1; }
};
// Channels rank 0 reaches, ordered by channel.
std::vector<ChannelPeers> channels_from_rank0(const Placement &placement);

// What the calibrator says of the placement: rank 0's peers on a channel ("ranks 1-7"), up to 8
// ranks, where to add ranks for more peers on a channel, and the table's provenance of it.
std::string describe_peers(const std::vector<int> &peers);
std::string describe_ranks(const std::vector<int> &ranks);
const char *more_ranks_where(Channel c);
nlohmann::json placement_provenance(const WorldPlacement &world, const std::vector<ChannelPeers> &channels);

}  // namespace modeltuned::calibrate
