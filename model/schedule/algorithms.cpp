#include "model/schedule/algorithms.hpp"

#include <charconv>
#include <fmt/format.h>

namespace modeltuned {
namespace {

// `modelled` marks what the model can predict; the selector only considers those. Scatter-
// allgather and Rabenseifner ignore the segment size Open MPI passes them, so none is searched.
constexpr AlgorithmInfo kAlgorithms[] = {
    {Op::bcast, 1, "linear", "root sends to every rank (non-blocking flat tree)", false, false, true, false, true,
     "ompi_coll_base_bcast_intra_basic_linear", CallingConvention::bcast},
    {Op::bcast, 2, "chain", "fan-out chains hanging off the root, segments pipelined", true, true, true, false, true,
     "ompi_coll_base_bcast_intra_chain", CallingConvention::bcast_segsize_fanout},
    {Op::bcast, 3, "pipeline", "a single chain, segments pipelined", true, false, true, false, true,
     "ompi_coll_base_bcast_intra_pipeline", CallingConvention::bcast_segsize},
    {Op::bcast, 4, "split_bintree", "binary tree, each half of the message down one subtree, then exchange", true, false, true, true, true,
     "ompi_coll_base_bcast_intra_split_bintree", CallingConvention::bcast_segsize},
    {Op::bcast, 5, "bintree", "binary tree, segments pipelined", true, false, true, false, true,
     "ompi_coll_base_bcast_intra_bintree", CallingConvention::bcast_segsize},
    {Op::bcast, 6, "binomial", "binomial tree, segments pipelined", true, false, true, false, true,
     "ompi_coll_base_bcast_intra_binomial", CallingConvention::bcast_segsize},
    {Op::bcast, 7, "knomial", "k-nomial tree of the given radix, segments pipelined", true, true, true, false, true,
     "ompi_coll_base_bcast_intra_knomial", CallingConvention::bcast_segsize_fanout},
    {Op::bcast, 8, "scatter_allgather", "binomial scatter then recursive-doubling allgather (linear when count < P)", false, false, true, true, true,
     "ompi_coll_base_bcast_intra_scatter_allgather", CallingConvention::bcast_segsize},
    {Op::bcast, 9, "scatter_allgather_ring", "binomial scatter then ring allgather (linear when count < P)", false, false, true, true, true,
     "ompi_coll_base_bcast_intra_scatter_allgather_ring", CallingConvention::bcast_segsize},
    {Op::reduce, 1, "linear", "root receives from every rank in order and reduces", false, false, true, false, true,
     "ompi_coll_base_reduce_intra_basic_linear", CallingConvention::reduce},
    {Op::reduce, 2, "chain", "fan-in chains into the root, segments pipelined", true, true, false, false, true,
     "ompi_coll_base_reduce_intra_chain", CallingConvention::reduce_segsize_fanout_requests},
    {Op::reduce, 3, "pipeline", "a single chain into the root, segments pipelined", true, false, false, false, true,
     "ompi_coll_base_reduce_intra_pipeline", CallingConvention::reduce_segsize_requests},
    {Op::reduce, 4, "binary", "binary tree, segments pipelined", true, false, false, false, true,
     "ompi_coll_base_reduce_intra_binary", CallingConvention::reduce_segsize_requests},
    {Op::reduce, 5, "binomial", "in-order binomial tree, segments pipelined", true, false, false, false, true,
     "ompi_coll_base_reduce_intra_binomial", CallingConvention::reduce_segsize_requests},
    {Op::reduce, 6, "in_order_binary", "in-order binary tree rooted at the last rank, result sent to the root", true, false, true, false, true,
     "ompi_coll_base_reduce_intra_in_order_binary", CallingConvention::reduce_segsize_requests},
    {Op::reduce, 7, "rabenseifner", "reduce-scatter by recursive halving then binomial gather (linear when count < 2^floor(log2 P))", false, false, false, true, true,
     "ompi_coll_base_reduce_intra_redscat_gather", CallingConvention::reduce},
};

}  // namespace

std::span<const AlgorithmInfo> algorithm_table() { return kAlgorithms; }

const AlgorithmInfo *find_algorithm(Op op, int id) {
  for (const auto &a : kAlgorithms)
    if (a.op == op && a.id == id) return &a;
  return nullptr;
}

const AlgorithmInfo *find_algorithm(Op op, std::string_view name_or_id) {
  int id = 0;
  auto [end, ec] = std::from_chars(name_or_id.data(), name_or_id.data() + name_or_id.size(), id);
  if (ec == std::errc() && end == name_or_id.data() + name_or_id.size()) return find_algorithm(op, id);
  for (const auto &a : kAlgorithms)
    if (a.op == op && a.name == name_or_id) return &a;
  return nullptr;
}

static std::string bytes_label(uint32_t bytes) {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0) return fmt::format("{}MiB", bytes >> 20);
  if (bytes >= 1024 && bytes % 1024 == 0) return fmt::format("{}KiB", bytes >> 10);
  return fmt::format("{}B", bytes);
}

std::string describe(const Candidate &c) {
  const AlgorithmInfo *info = find_algorithm(c.op, c.algorithm);
  std::string out = info ? std::string(info->name) : fmt::format("algorithm{}", c.algorithm);
  std::string params;
  if (info && info->has_fanout)
    params += fmt::format("{}={}", c.op == Op::bcast && c.algorithm == 7 ? "radix" : "fanout", c.fanout);
  if (info && info->segmented)
    params += fmt::format("{}segsize={}", params.empty() ? "" : ",", c.segsize ? bytes_label(c.segsize) : "0");
  if (!params.empty()) out += "(" + params + ")";
  return out;
}

}  // namespace modeltuned
