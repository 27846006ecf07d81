#include "model/select/ompi_fixed.hpp"

#include <set>

#include "model/collectives/family.hpp"

namespace modeltuned {

Candidate ompi_fixed_decision(Op op, size_t bytes, int comm_size, bool commutative, OmpiVersion ompi) {
  // The same rules in both lines (the file did not change from 4.1.4 to 5.0.7); a release that
  // changes them gets its own rule in the families.
  (void)ompi;
  const int alg = collective_family(op).fixed_rule(bytes, comm_size, commutative);
  const AlgorithmSpec *spec = find_algorithm(op, alg);
  return Candidate{op, alg, 0, spec ? spec->parameters.tuned_fixed_fanout : 0};
}

Candidate what_runs(const Candidate &c, size_t count, size_t type_size, int comm_size, bool commutative) {
  const CallShape call{c.op, count, type_size, 0, commutative};
  Candidate runs = c;
  // A fallback could itself fall back; the registry's never do more than once, so a few suffice.
  for (int hop = 0; hop < 4; ++hop) {
    const AlgorithmSpec *spec = find_algorithm(runs.op, runs.algorithm);
    std::optional<Candidate> next =
        spec && spec->runs_instead ? spec->runs_instead(runs, call, comm_size) : std::nullopt;
    if (!next) break;
    runs = *next;
  }
  return runs;
}

Fallback ompi_fallback(OmpiVersion ompi, const Placement &placement, bool han_enabled) {
  if (ompi == OmpiVersion::v4_1 || !han_enabled) return Fallback::tuned;
  for (const RankPlace &r : placement.ranks())
    if (r.node != placement[0].node) return Fallback::han;
  return Fallback::tuned;
}

bool han_runs_hierarchical(const Placement &placement) {
  std::set<int32_t> nodes;
  for (const RankPlace &r : placement.ranks())
    if (!nodes.insert(r.node).second) return true;  // a node holds two of its ranks
  return false;
}

bool fallback_runs_tuned_rule(OmpiVersion ompi, const Placement &placement, bool han_enabled) {
  return ompi_fallback(ompi, placement, han_enabled) == Fallback::tuned || !han_runs_hierarchical(placement);
}

}  // namespace modeltuned
