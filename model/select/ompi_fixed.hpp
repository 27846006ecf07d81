// What Open MPI's tuned component decides without rules (coll_tuned_decision_fixed.c), so that
// modeltuned's picks can be shown and validated beside the default. Keyed by release line: 5.0.7's
// coll_tuned_decision_fixed.c is byte-identical to 4.1.4's, so both lines use one table today.
#pragma once
#include <cstddef>

#include "model/registry/registry.hpp"
#include "model/schedule/ompi_version.hpp"
#include "model/topology/placement.hpp"

namespace modeltuned {

// The candidate tuned's fixed rules run for a call (each family's FixedRule, collectives/family.hpp;
// tests/mpi/fixed_rule.c compares them with tuned's own choice): no segmentation and the fan-out tuned passes
// (Parameters::tuned_fixed_fanout: 0, which Open MPI's chain turns into a pipeline; k-nomial's
// default radix).
Candidate ompi_fixed_decision(Op op, size_t bytes, int comm_size, bool commutative,
                              OmpiVersion ompi = OmpiVersion::v4_1);

// The algorithm Open MPI really runs when asked for `c`: its silent fallbacks, as each spec's
// runs_instead states them (docs/openmpi-algorithms.md §5).
Candidate what_runs(const Candidate &c, size_t count, size_t type_size, int comm_size, bool commutative);

// Which component runs a call modeltuned hands back on a communicator, as the component finds it at
// enable (coll_modeltuned_module.c). Under 5.0, coll/han (priority 35, above tuned's 30) takes bcast
// and reduce on a communicator whose ranks span nodes (`han_enabled`: not taken out with
// --mca coll ^han); 4.1 ships it at priority 0.
enum class Fallback { tuned, han };
Fallback ompi_fallback(OmpiVersion ompi, const Placement &placement, bool han_enabled = true);

// Whether that fallback runs tuned's fixed rule, the default the model predicts: han does only
// where every node holds one rank of the communicator, since it then hands each call to tuned
// (coll_han_subcomms.c); elsewhere it runs its hierarchical algorithms, and modeltuned keeps them.
bool fallback_runs_tuned_rule(OmpiVersion ompi, const Placement &placement, bool han_enabled = true);
// Where han is the component below modeltuned, whether it runs its own hierarchical algorithms on
// this communicator (a node holds two or more of its ranks) rather than handing calls to tuned.
bool han_runs_hierarchical(const Placement &placement);

}  // namespace modeltuned
