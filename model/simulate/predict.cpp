#include "model/simulate/predict.hpp"

#include <limits>

#include "model/cost/channel_cost.hpp"

namespace modeltuned {

std::string_view variant_name(ModelVariant v) {
  return v == ModelVariant::schedule ? "schedule" : "stage_sum";
}

Segmentation segmentation(uint32_t segsize, size_t type_size, size_t count) {
  Segmentation s{count, 1};
  // Same test and rounding as COLL_BASE_COMPUTED_SEGCOUNT in coll_base_functions.h.
  if (type_size > 0 && segsize >= type_size && segsize < type_size * count) {
    s.segcount = segsize / type_size;
    if (segsize - s.segcount * type_size > (type_size >> 1)) ++s.segcount;
  }
  if (s.segcount > 0) s.segments = (count + s.segcount - 1) / s.segcount;
  if (s.segments == 0) s.segments = 1;
  return s;
}

double step_us(const CalibrationTable &table, ChannelMask mask, double bytes) {
  double worst = 0;
  for (int c = 0; c < kChannels; ++c) {
    if (!(mask & (1u << c))) continue;
    if (!table.channels[c].present) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, p2p_us(table.channels[c], bytes));
  }
  return worst;
}

std::optional<Plan> make_plan(const Placement &placement, Op op, int algorithm, int fanout, int root) {
  if (op == Op::bcast) {
    switch (static_cast<BcastAlgorithm>(algorithm)) {
      case BcastAlgorithm::split_bintree: {
        auto plan = split_bintree_plan(placement, root);
        if (!plan) return std::nullopt;
        return Plan{std::move(*plan)};
      }
      case BcastAlgorithm::scatter_allgather: return Plan{scatter_allgather_plan(placement, root, false)};
      case BcastAlgorithm::scatter_allgather_ring: return Plan{scatter_allgather_plan(placement, root, true)};
      default: break;
    }
  } else if (algorithm == static_cast<int>(ReduceAlgorithm::rabenseifner)) {
    return Plan{rabenseifner_plan(placement, root)};
  }
  auto tree = tree_plan(placement, op, algorithm, fanout, root);
  if (!tree) return std::nullopt;
  return Plan{std::move(*tree)};
}

std::optional<double> evaluate_plan(const CalibrationTable &table, const Plan &plan,
                                    const CallShape &call, const Candidate &candidate,
                                    ModelVariant variant) {
  if (const TreePlan *tree = std::get_if<TreePlan>(&plan))
    return evaluate_tree(table, *tree, call, candidate.segsize, variant);
  const PhasePlan &phases = std::get<PhasePlan>(plan);
  if (call.op == Op::reduce) return evaluate_rabenseifner(table, phases, call);
  if (phases.algorithm == static_cast<int>(BcastAlgorithm::split_bintree))
    return evaluate_split_bintree(table, phases, call, candidate.segsize, variant);
  return evaluate_scatter_allgather(table, phases, call);
}

std::optional<double> predict_us(const CalibrationTable &table, const Placement &placement,
                                 const Candidate &candidate, const CallShape &call,
                                 ModelVariant variant) {
  const AlgorithmInfo *info = find_algorithm(candidate.op, candidate.algorithm);
  if (!info || !info->modelled) return std::nullopt;
  auto plan = make_plan(placement, candidate.op, candidate.algorithm, candidate.fanout, call.root);
  if (!plan) return std::nullopt;
  Candidate c = candidate;
  if (!info->segmented) c.segsize = 0;
  return evaluate_plan(table, *plan, call, c, variant);
}

}  // namespace modeltuned
