#include "model/select/ompi_fixed.hpp"

#include <set>

#include "model/collectives/family.hpp"

namespace modeltuned {

namespace {

// The fan-out tuned's fixed rules pass to the algorithm: 0 in 4.1 and 5.0 (k-nomial: its radix
// parameter's default), 2 for reduce and allgather from 6.0 on (coll_tuned_decision_fixed.c's
// faninout: the chain's fan-out, the k-radix Bruck's radix).
int fixed_fanout(const AlgorithmSpec &spec, OmpiVersion ompi) {
  const bool passes_two = ompi >= OmpiVersion::v6_0 && (spec.op == Op::reduce || spec.op == Op::allgather);
  return passes_two && !spec.parameters.fanout_name.empty() ? 2 : spec.parameters.tuned_fixed_fanout;
}

// The spec tuned runs under number `id` in release `ompi`.
const AlgorithmSpec *spec_in_release(Op op, int id, OmpiVersion ompi) {
  for (const AlgorithmSpec &a : algorithm_registry())
    if (a.op == op && a.id == id && in_release(a, ompi)) return &a;
  return find_algorithm(op, id);
}

}  // namespace

Candidate ompi_fixed_decision(Op op, size_t bytes, int comm_size, bool commutative, OmpiVersion ompi) {
  // The rules' branches are the same in every line (coll_tuned_decision_fixed.c of 4.1.4, 5.0.7
  // and 6.0); what a release passes with them differs (fixed_fanout).
  const int alg = collective_family(op).fixed_rule(bytes, comm_size, commutative);
  const AlgorithmSpec *spec = spec_in_release(op, alg, ompi);
  return Candidate{op, alg, 0, spec ? fixed_fanout(*spec, ompi) : 0};
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
