#include "calib/calibrate/rank_placement.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>
#include <hwloc.h>

namespace modeltuned::calibrate {
namespace {

struct TopologyDeleter {
  void operator()(hwloc_topology *t) const { hwloc_topology_destroy(t); }
};
using TopologyPtr = std::unique_ptr<hwloc_topology, TopologyDeleter>;
struct BitmapDeleter {
  void operator()(hwloc_bitmap_s *b) const { hwloc_bitmap_free(b); }
};
using BitmapPtr = std::unique_ptr<hwloc_bitmap_s, BitmapDeleter>;

TopologyPtr load_topology() {
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) throw std::runtime_error("hwloc_topology_init failed");
  TopologyPtr topo(raw);
  if (hwloc_topology_load(topo.get()) != 0)
    throw std::runtime_error(
        "hwloc_topology_load failed: check HWLOC_XMLFILE if set (it must be an lstopo --of xml file)");
  return topo;
}

// Logical index of the one object of `type` whose cpuset contains `binding`, else -1.
int32_t enclosing_index(hwloc_topology_t topo, hwloc_obj_type_t type, hwloc_const_cpuset_t binding) {
  const int n = hwloc_get_nbobjs_by_type(topo, type);
  for (int i = 0; i < n; ++i) {
    hwloc_obj_t obj = hwloc_get_obj_by_type(topo, type, i);
    if (obj->cpuset && hwloc_bitmap_isincluded(binding, obj->cpuset)) return static_cast<int32_t>(obj->logical_index);
  }
  return -1;
}

hwloc_obj_type_t mapping_object_type(const std::string &policy) {
  if (policy == "socket" || policy == "package") return HWLOC_OBJ_PACKAGE;
  if (policy == "numa") return HWLOC_OBJ_NUMANODE;
  if (policy == "l3cache") return HWLOC_OBJ_L3CACHE;
  return HWLOC_OBJ_CORE;
}

// Open MPI's round-robin "map-by <object>" followed by bind-to core, on an emulated machine.
BitmapPtr emulated_binding(hwloc_topology_t topo, int local_rank, std::string &policy) {
  const char *env = std::getenv("OMPI_MCA_rmaps_base_mapping_policy");
  policy = env ? env : "core";
  policy = policy.substr(0, policy.find(':'));  // drop modifiers such as ":span"
  std::transform(policy.begin(), policy.end(), policy.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const hwloc_obj_type_t type = mapping_object_type(policy);
  if (type == HWLOC_OBJ_CORE) policy = "core";
  const int objects = hwloc_get_nbobjs_by_type(topo, type);
  if (objects <= 0) throw std::runtime_error("emulated topology has no object to map ranks to");
  hwloc_obj_t target = hwloc_get_obj_by_type(topo, type, local_rank % objects);
  const int cores = hwloc_get_nbobjs_inside_cpuset_by_type(topo, target->cpuset, HWLOC_OBJ_CORE);
  if (cores <= 0) throw std::runtime_error("emulated topology has a mapping object without cores");
  hwloc_obj_t core =
      hwloc_get_obj_inside_cpuset_by_type(topo, target->cpuset, HWLOC_OBJ_CORE, (local_rank / objects) % cores);
  return BitmapPtr(hwloc_bitmap_dup(core->cpuset));
}

TopologySummary summarize(hwloc_topology_t topo) {
  TopologySummary s;
  s.packages = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
  s.numa = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
  s.l3 = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_L3CACHE);
  s.cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
  s.pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
  s.emulated = !hwloc_topology_is_thissystem(topo);
  return s;
}

// Processor names of all ranks -> node index per rank (order of first appearance) and the
// node-local rank, which the emulated binding needs.
struct HostIds {
  std::vector<int> node_of_rank;
  std::vector<std::string> hosts;
  int local_rank = 0;
};

HostIds gather_hosts(int rank, int size) {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  std::vector<char> all(static_cast<size_t>(size) * MPI_MAX_PROCESSOR_NAME);
  MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, MPI_COMM_WORLD);
  HostIds ids;
  ids.node_of_rank.resize(size);
  for (int r = 0; r < size; ++r) {
    const char *p = &all[static_cast<size_t>(r) * MPI_MAX_PROCESSOR_NAME];
    std::string host(p, strnlen(p, MPI_MAX_PROCESSOR_NAME));
    auto it = std::find(ids.hosts.begin(), ids.hosts.end(), host);
    ids.node_of_rank[r] = static_cast<int>(it - ids.hosts.begin());
    if (it == ids.hosts.end()) ids.hosts.push_back(host);
  }
  for (int r = 0; r < rank; ++r) ids.local_rank += ids.node_of_rank[r] == ids.node_of_rank[rank];
  return ids;
}

}  // namespace

std::string TopologySummary::signature() const {
  return fmt::format("pack:{} numa:{} l3:{} core:{} pu:{}", packages, numa, l3, cores, pus);
}

nlohmann::json TopologySummary::to_json() const {
  nlohmann::json j = {{"signature", signature()}, {"packages", packages}, {"numa", numa},        {"l3", l3},
                      {"cores", cores},           {"pus", pus},           {"emulated", emulated}};
  if (emulated) j["emulated_mapping"] = "map-by " + mapping_policy + ", bind-to core";
  return j;
}

WorldPlacement discover_world_placement() {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const HostIds hosts = gather_hosts(rank, size);

  // Every rank loads the topology even if an error follows, so that the failure is reported
  // collectively instead of leaving the others in the allgather below.
  std::string error;
  RankPlace mine;
  TopologySummary summary;
  try {
    TopologyPtr topo = load_topology();
    summary = summarize(topo.get());
    BitmapPtr binding;
    if (summary.emulated) {
      binding = emulated_binding(topo.get(), hosts.local_rank, summary.mapping_policy);
    } else {
      binding.reset(hwloc_bitmap_alloc());
      if (hwloc_get_cpubind(topo.get(), binding.get(), HWLOC_CPUBIND_PROCESS) != 0 ||
          hwloc_bitmap_iszero(binding.get()))
        hwloc_bitmap_copy(binding.get(), hwloc_topology_get_topology_cpuset(topo.get()));
    }
    mine.package = enclosing_index(topo.get(), HWLOC_OBJ_PACKAGE, binding.get());
    mine.numa = enclosing_index(topo.get(), HWLOC_OBJ_NUMANODE, binding.get());
    mine.l3 = enclosing_index(topo.get(), HWLOC_OBJ_L3CACHE, binding.get());
    mine.core = enclosing_index(topo.get(), HWLOC_OBJ_CORE, binding.get());
  } catch (const std::exception &e) {
    error = e.what();
  }
  int failed = !error.empty(), any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (any_failed) throw std::runtime_error(error.empty() ? "hwloc failed on another rank" : error);

  mine.node = hosts.node_of_rank[rank];
  int32_t fields[5] = {mine.node, mine.package, mine.numa, mine.l3, mine.core};
  std::vector<int32_t> all(static_cast<size_t>(size) * 5);
  MPI_Allgather(fields, 5, MPI_INT32_T, all.data(), 5, MPI_INT32_T, MPI_COMM_WORLD);

  WorldPlacement world;
  std::vector<RankPlace> places(size);
  for (int r = 0; r < size; ++r) {
    const int32_t *f = &all[static_cast<size_t>(r) * 5];
    places[r] = RankPlace{f[0], f[1], f[2], f[3], f[4]};
    if (places[r].core < 0) world.unbound_ranks.push_back(r);
  }
  for (int r = 0; r < size; ++r)
    for (int q = 0; q < size; ++q)
      if (q != r && places[r].core >= 0 && places[q] == places[r]) {
        world.core_sharing_ranks.push_back(r);
        break;
      }
  world.placement = Placement(std::move(places));
  world.hosts = hosts.hosts;
  world.topology = summary;
  return world;
}

std::vector<ChannelPeers> channels_from_rank0(const Placement &placement) {
  std::vector<ChannelPeers> out;
  for (int c = 0; c < kChannels; ++c) {
    ChannelPeers cp{static_cast<Channel>(c), {}};
    for (int r = 1; r < placement.size(); ++r)
      if (placement.channel(0, r) == cp.channel) cp.peers.push_back(r);
    if (cp.peers.size() >= 2) {
      cp.relay = {cp.peers[0], cp.peers[1]};
      for (size_t i = 1; i < cp.peers.size(); ++i)
        if (placement.channel(cp.peers[0], cp.peers[i]) == cp.channel) {
          cp.relay[1] = cp.peers[i];
          break;
        }
    }
    if (!cp.peers.empty()) out.push_back(std::move(cp));
  }
  return out;
}

// Rank 0's peers on a channel, in words ("ranks 1-7").
std::string describe_peers(const std::vector<int> &peers) {
  if (peers.size() == 1) return fmt::format("rank {}", peers[0]);
  const bool contiguous = peers.back() - peers.front() + 1 == static_cast<int>(peers.size());
  if (contiguous) return fmt::format("ranks {}-{}", peers.front(), peers.back());
  return fmt::format("{} ranks from {}", peers.size(), peers.front());
}

// Up to 8 ranks, then "...".
std::string describe_ranks(const std::vector<int> &ranks) {
  std::string s;
  for (size_t i = 0; i < ranks.size() && i < 8; ++i) s += fmt::format("{}{}", i ? "," : "", ranks[i]);
  if (ranks.size() > 8) s += ",...";
  return s;
}

// The table's provenance of where the ranks sat.
nlohmann::json placement_provenance(const WorldPlacement &world, const std::vector<ChannelPeers> &channels) {
  nlohmann::json j;
  j["ranks"] = world.placement.size();
  j["hosts"] = world.hosts;
  for (const ChannelPeers &c : channels)
    j["channels"][std::string(channel_name(c.channel))] = {
        {"pair", {0, c.peers.front()}}, {"peers_of_rank0", c.peers.size()}, {"max_p", c.max_p()}};
  if (world.placement.size() <= 256) {
    nlohmann::json ranks = nlohmann::json::array();
    for (const auto &r : world.placement.ranks()) ranks.push_back({r.node, r.package, r.numa, r.l3, r.core});
    j["rank_places"] = {{"columns", {"node", "package", "numa", "l3", "core"}}, {"values", ranks}};
  }
  if (!world.unbound_ranks.empty()) j["unbound_ranks"] = world.unbound_ranks;
  if (!world.core_sharing_ranks.empty()) j["core_sharing_ranks"] = world.core_sharing_ranks;
  return j;
}

// Where to add ranks so that rank 0 has more peers on a channel.
const char *more_ranks_where(Channel c) {
  switch (c) {
    case Channel::cache:
      return "sharing rank 0's L3 cache";
    case Channel::core:
      return "on rank 0's socket outside its L3 cache";
    case Channel::socket:
      return "on the other sockets of rank 0's node";
    case Channel::node:
      return "on other nodes";
  }
  return "on it";
}

}  // namespace modeltuned::calibrate
