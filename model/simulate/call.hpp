// What the model is asked about: one call (operation, message, root) and one candidate (an
// algorithm of the registry, by tuned's number, with its parameters).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "model/collectives/list.h"

namespace modeltuned {

// The collectives, in the order of their list (collectives/list.h), which is the C API's.
#define MT_OP_ENUMERATOR(name, NAME, checks_version) name,
enum class Op : uint8_t { MT_COLLECTIVES(MT_OP_ENUMERATOR) };
#undef MT_OP_ENUMERATOR
#define MT_OP_COUNT(name, NAME, checks_version) +1
inline constexpr int kOpCount = 0 MT_COLLECTIVES(MT_OP_COUNT);
#undef MT_OP_COUNT
inline constexpr int op_index(Op op) { return static_cast<int>(op); }
inline constexpr std::string_view op_name(Op op) {
#define MT_OP_NAME(name, NAME, checks_version) #name,
  constexpr std::string_view names[kOpCount] = {MT_COLLECTIVES(MT_OP_NAME)};
#undef MT_OP_NAME
  return names[op_index(op)];
}
// A reduction: operands are combined, so a non-commutative operation limits the algorithms.
inline constexpr bool reduces(Op op) { return op == Op::reduce || op == Op::allreduce; }

// One point in the search space: an algorithm (model/registry) with its parameters.
struct Candidate {
  Op op = Op::bcast;
  int algorithm = 0;     // tuned's number (AlgorithmSpec::id)
  uint32_t segsize = 0;  // bytes; 0 = no segmentation
  int fanout = 0;        // chains / tree fan-out / k-nomial radix; 0 when not applicable
  bool operator==(const Candidate &) const = default;
};

// What a prediction measures.
//  completion: from the start until the last rank is done (the collective's latency; what the
//              selector minimises).
//  rank_mean:  each rank's own time in the call, averaged over ranks: what OSU's benchmarks
//              report as latency. In a reduce most ranks only send and leave early.
enum class Metric { completion, rank_mean };

// What a call looks like: every rank passes the same values (MPI requires matching signatures).
struct CallShape {
  Op op = Op::bcast;
  size_t count = 0;
  size_t type_size = 1;
  int root = 0;
  bool commutative = true;
  Metric metric = Metric::completion;
  // The ranks' datatypes may cut the message differently (same type signature, other types: a
  // user-defined operation sees each rank's own type): only algorithms that move the message
  // whole, unsegmented and unsplit, can run.
  bool whole_message = false;
  size_t bytes() const { return count * type_size; }
};

}  // namespace modeltuned
