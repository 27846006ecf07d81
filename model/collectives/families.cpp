#include "model/collectives/family.hpp"

#include <array>

namespace modeltuned {

std::span<const CollectiveFamily *const> collective_families() {
#define MT_FAMILY_ADDRESS(name, NAME, checks_version) &name##_family(),
  static const std::array<const CollectiveFamily *, kOpCount> families = {MT_COLLECTIVES(MT_FAMILY_ADDRESS)};
#undef MT_FAMILY_ADDRESS
  return families;
}

const CollectiveFamily &collective_family(Op op) { return *collective_families()[op_index(op)]; }

std::optional<Op> find_collective(std::string_view name) {
  for (const CollectiveFamily *family : collective_families())
    if (op_name(family->op) == name) return family->op;
  return std::nullopt;
}

std::string collective_names(std::string_view separator, std::string_view last_separator) {
  std::string names;
  const auto families = collective_families();
  for (size_t i = 0; i < families.size(); ++i) {
    if (i > 0) names += i + 1 == families.size() ? last_separator : separator;
    names += op_name(families[i]->op);
  }
  return names;
}

Candidate registered_algorithm(Op op, std::string_view name, uint32_t segsize) {
  return Candidate{op, find_algorithm(op, name)->id, segsize, 0};
}

}  // namespace modeltuned
