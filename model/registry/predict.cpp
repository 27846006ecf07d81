#include "model/registry/predict.hpp"

namespace modeltuned {

std::optional<Plan> make_plan(const Placement &placement, const Candidate &c, int root) {
  const AlgorithmSpec *spec = find_algorithm(c.op, c.algorithm);
  if (!spec || !spec->plan) return std::nullopt;
  return spec->plan(placement, c.fanout, root);
}

std::optional<double> evaluate_plan(const CalibrationTable &table, const Plan &plan, const CallShape &call,
                                    const Candidate &c, TreeSchedule tree_schedule) {
  const AlgorithmSpec *spec = find_algorithm(c.op, c.algorithm);
  if (!spec || !spec->evaluate) return std::nullopt;
  if (spec->runs_only_on != 0 && spec->runs_only_on != plan_size(plan)) return std::nullopt;  // Open MPI fails it
  if (spec->runs_instead && spec->runs_instead(c, call, plan_size(plan))) return std::nullopt;
  return spec->evaluate(Evaluation{table, call, c, tree_schedule}, plan);
}

std::optional<double> predict_us(const CalibrationTable &table, const Placement &placement, const Candidate &c,
                                 const CallShape &call, TreeSchedule tree_schedule) {
  const AlgorithmSpec *spec = find_algorithm(c.op, c.algorithm);
  if (!spec || !spec->plan) return std::nullopt;
  Candidate asked = c;
  if (!spec->parameters.segmented) asked.segsize = 0;
  return evaluate_plan(table, spec->plan(placement, c.fanout, call.root), call, asked, tree_schedule);
}

}  // namespace modeltuned
