// One family per collective: everything the model knows about one MPI collective, in its own
// folder (collectives/<name>/): the schedules of Open MPI's algorithms for it, their simulation
// (plan types and evaluators), their registry entries and tuned's fixed rule for it. The registry,
// the default's emulation and the selector read a family through this table and know no
// collective by name. Adding a collective: docs/design.md, "Adding a collective".
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/collectives/list.h"
#include "model/registry/registry.hpp"
#include "model/schedule/rounds.hpp"

namespace modeltuned {

// tuned's fixed rule (coll_tuned_decision_fixed.c): the algorithm number tuned runs without rules
// for a call of `bytes` on `comm_size` ranks (commutative: the reduction's operation is).
using FixedRule = int (*)(size_t bytes, int comm_size, bool commutative);
// Every round of algorithm `algorithm` (tuned's number) as it runs itself, in order, for the
// families whose algorithms are rounds of exchanges; empty for an algorithm that is not. `fanout`:
// the radix of an algorithm that takes one (6.0's k-radix Bruck), ignored by the others.
using RoundsOf = std::vector<Round> (*)(int algorithm, int size, size_t count, size_t type_size, uint32_t segsize,
                                        int fanout);

struct CollectiveFamily {
  Op op = Op::bcast;
  bool rooted = true;                         // calls have a root, and plans hang off it; rootless ones plan once
  bool moves_data = true;                     // false: every call is the empty message (barrier)
  std::span<const AlgorithmSpec> algorithms;  // Open MPI's, in tuned's order
  FixedRule fixed_rule = nullptr;
  RoundsOf rounds = nullptr;  // nullptr: the family's algorithms are trees (schedule/ompi_trees.hpp)
  // Open MPI 5.0's han has a hierarchical algorithm of its own for it (6.0's for alltoall too:
  // han_since), Open MPI's default on communicators across nodes; elsewhere, and for a collective
  // han lacks, tuned's fixed rule.
  bool han = false;
  OmpiVersion han_since = OmpiVersion::v5_0;
};

// Whether han has a hierarchical algorithm for the family's collective in Open MPI line `ompi`.
inline bool han_has(const CollectiveFamily &family, OmpiVersion ompi) { return family.han && ompi >= family.han_since; }

// The families in Op order: the list of collectives the model decides.
std::span<const CollectiveFamily *const> collective_families();
const CollectiveFamily &collective_family(Op op);
// The collective named `name` (op_name's spelling: "bcast", ...), nullopt for none.
std::optional<Op> find_collective(std::string_view name);
// Every collective's name, in Op order, joined: ("bcast", ", ", " or ") -> "bcast, reduce or allreduce".
std::string collective_names(std::string_view separator, std::string_view last_separator);

// The algorithms of Open MPI's collective components other than tuned (collectives/components.cpp),
// registered after the families' own.
std::span<const AlgorithmSpec> component_algorithms();

// Each collective's family, <name>_family() in collectives/<name>/<name>.cpp.
#define MT_FAMILY_DECLARATION(name, NAME, checks_version) const CollectiveFamily &name##_family();
MT_COLLECTIVES(MT_FAMILY_DECLARATION)
#undef MT_FAMILY_DECLARATION

// Specs name only the fields that differ from their defaults; GCC would warn about the others.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
// An algorithm that takes a segment size and nothing else.
inline constexpr Parameters kSegmented{.segmented = true};
#pragma GCC diagnostic pop

// A family's fallback, named: the registered algorithm `name` of `op` (runs_instead's result).
Candidate registered_algorithm(Op op, std::string_view name, uint32_t segsize = 0);

}  // namespace modeltuned
