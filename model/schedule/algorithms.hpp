// The table that names and describes every Open MPI 4.1 bcast and reduce algorithm, with the
// parameters each one takes. Ids are tuned's coll_tuned_{bcast,reduce}_algorithm numbers.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace modeltuned {

enum class Op : uint8_t { bcast = 0, reduce = 1 };
inline constexpr std::string_view op_name(Op op) { return op == Op::bcast ? "bcast" : "reduce"; }

enum class BcastAlgorithm : int {
  linear = 1, chain = 2, pipeline = 3, split_bintree = 4, bintree = 5, binomial = 6,
  knomial = 7, scatter_allgather = 8, scatter_allgather_ring = 9,
};
enum class ReduceAlgorithm : int {
  linear = 1, chain = 2, pipeline = 3, binary = 4, binomial = 5, in_order_binary = 6,
  rabenseifner = 7,
};

// How Open MPI's ompi_coll_base_* function of an algorithm is called (after the common arguments
// buf, count, dtype, root, comm, module for bcast; sbuf, rbuf, count, dtype, op, root, comm,
// module for reduce). Values are the C API's MT_CALL_* (capi/modeltuned_model.h).
enum class CallingConvention : int {
  bcast = 0,                       // nothing more
  bcast_segsize = 1,               // segsize
  bcast_segsize_fanout = 2,        // segsize, fan-out (chains) or radix (k-nomial)
  reduce = 3,                      // nothing more
  reduce_segsize_requests = 4,     // segsize, max outstanding requests
  reduce_segsize_fanout_requests = 5,  // segsize, fan-out, max outstanding requests
};

struct AlgorithmInfo {
  Op op;
  int id;                    // tuned's number
  std::string_view name;     // short name used in MCA parameters and tool output
  std::string_view description;
  bool segmented;            // takes a segment size
  bool has_fanout;           // takes a fan-out (chain count, tree fan-out) or radix (k-nomial)
  bool order_preserving;     // safe for non-commutative operations
  bool splits;               // cuts the message into parts even unsegmented (halves, blocks per rank)
  bool modelled;             // the model can predict it (others are never candidates yet)
  std::string_view ompi_function;  // the ompi_coll_base_* function that runs it
  CallingConvention convention;
};

std::span<const AlgorithmInfo> algorithm_table();
const AlgorithmInfo *find_algorithm(Op op, int id);
// Accepts a name ("binomial") or tuned's number ("6").
const AlgorithmInfo *find_algorithm(Op op, std::string_view name_or_id);

// One point in the search space: an algorithm with its parameters.
struct Candidate {
  Op op = Op::bcast;
  int algorithm = 0;
  uint32_t segsize = 0;  // bytes; 0 = no segmentation
  int fanout = 0;        // chains / tree fan-out / k-nomial radix; 0 when not applicable
  bool operator==(const Candidate &) const = default;
};

// "chain(fanout=4,segsize=16KiB)"-style label for tools and logs.
std::string describe(const Candidate &c);

}  // namespace modeltuned
