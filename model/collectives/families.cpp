#include "model/collectives/family.hpp"

#include <array>

namespace modeltuned {

std::span<const CollectiveFamily *const> collective_families() {
  static const std::array<const CollectiveFamily *, kOpCount> families = {&bcast_family(), &reduce_family(),
                                                                          &allreduce_family()};
  return families;
}

const CollectiveFamily &collective_family(Op op) { return *collective_families()[op_index(op)]; }

Candidate registered_algorithm(Op op, std::string_view name, uint32_t segsize) {
  return Candidate{op, find_algorithm(op, name)->id, segsize, 0};
}

}  // namespace modeltuned
