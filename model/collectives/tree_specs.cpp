#include "model/collectives/tree_specs.hpp"

namespace modeltuned {

Plan plan_linear(const Placement &p, int, int root) { return linear_plan(p, root); }
Plan plan_chain(const Placement &p, int fanout, int root) {
  return plan_for_tree(build_chain(fanout, p.size(), root), p);
}
Plan plan_pipeline(const Placement &p, int, int root) { return plan_for_tree(build_chain(1, p.size(), root), p); }
Plan plan_binary_tree(const Placement &p, int, int root) {
  return plan_for_tree(build_kary_tree(2, p.size(), root), p);
}

std::optional<Candidate> chain_runs_instead(const Candidate &c, const CallShape &, int) {
  if (c.fanout >= 1) return std::nullopt;
  return registered_algorithm(c.op, "pipeline", c.segsize);
}

}  // namespace modeltuned
