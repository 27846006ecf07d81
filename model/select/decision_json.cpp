#include "model/select/decision_json.hpp"

#include "model/select/ompi_fixed.hpp"

#include <cmath>

namespace modeltuned {

nlohmann::json candidate_json(const Candidate &c, std::optional<double> predicted_us) {
  const AlgorithmSpec *spec = find_algorithm(c.op, c.algorithm);
  nlohmann::json j{{"algorithm", c.algorithm},
                   {"name", spec ? spec->name : "?"},
                   {"segsize", c.segsize},
                   {"fanout", c.fanout},
                   {"label", describe(c)}};
  j["predicted_us"] = predicted_us ? nlohmann::json(*predicted_us) : nlohmann::json();
  if (spec && !spec->component.empty()) {  // another component's: named, and whether only measured
    j["component"] = spec->component;
    if (measured_only(*spec)) j["measured_only"] = true;
  }
  return j;
}

nlohmann::json decision_json(const CalibrationTable &table, const Placement &placement, const CallShape &call,
                             const std::optional<Decision> &decision, TreeSchedule tree_schedule, OmpiVersion ompi) {
  const int p = placement.size();
  Candidate fixed = what_runs(ompi_fixed_decision(call.op, call.bytes(), p, call.commutative, ompi), call.count,
                              call.type_size, p, call.commutative);
  nlohmann::json j{{"op", op_name(call.op)},
                   {"count", call.count},
                   {"type_size", call.type_size},
                   {"bytes", call.bytes()},
                   {"root", call.root},
                   {"commutative", call.commutative},
                   {"comm_size", p},
                   {"ompi", ompi_version_name(ompi)}};
  j["pick"] = decision ? candidate_json(decision->pick, decision->predicted_us) : nlohmann::json();
  // The selector's own prediction where it made one (it also predicts the composed nonoverlapping).
  const bool predicted = decision && decision->ompi_default && decision->ompi_default->candidate == fixed;
  j["ompi_default"] = candidate_json(fixed, predicted ? std::optional<double>(decision->ompi_default->us)
                                                      : predict_us(table, placement, fixed, call, tree_schedule));
  j["objective"] = call.metric == Metric::rank_mean ? "rank_mean" : "completion";
  // Other components' algorithms that failed in calibration at this size or below: no candidates.
  for (const UnusableCandidate &u : table.unusable)
    if (u.op == op_name(call.op) && static_cast<double>(call.bytes()) >= u.from_bytes)
      j["unusable"].push_back(
          {{"algorithm", u.algorithm}, {"why", u.why}, {"from_bytes", u.from_bytes}, {"ranks", u.ranks}});
  // The margin rule (margin.hpp): the factor the pick had to beat the default by, and whether the
  // default was kept; null margin: the default was no candidate (narrowed algorithm lists).
  j["margin"] = decision && decision->ompi_default ? nlohmann::json(decision->margin) : nlohmann::json();
  j["kept_default"] = decision && decision->kept_default;
  if (decision && decision->ompi_default)
    j["margin_basis"] = decision->margin_basis == Decision::MarginBasis::checks      ? "checks"
                        : decision->margin_basis == Decision::MarginBasis::unchecked ? "unchecked"
                                                                                     : "held_out";
  if (decision && decision->margin_basis == Decision::MarginBasis::checks) {
    const auto sizes = [](const std::array<int, 2> &on) {
      nlohmann::json out = nlohmann::json::array();
      for (int ranks : on)
        if (ranks > 0) out.push_back(ranks);
      return out;
    };
    j["checked_on_ranks"] = {{"pick", sizes(decision->pick_checked_on)},
                             {"default", sizes(decision->default_checked_on)}};
  }
  if (decision && decision->kept_by_other_objective) {
    const Decision::OtherObjective &o = *decision->kept_by_other_objective;
    const auto bound = [](double us) { return us > 0 ? nlohmann::json(us) : nlohmann::json(); };
    j["kept_by_objective"] = {{"objective", o.metric == Metric::rank_mean ? "rank_mean" : "completion"},
                              {"pick", describe(o.pick)},
                              {"pick_checked_best_us", bound(o.pick_checked_best_us)},
                              {"default_checked_worst_us", bound(o.default_checked_worst_us)}};
  }
  if (decision && decision->default_checked_best_us > 0)
    j["default_checked_best_us"] = decision->default_checked_best_us;
  nlohmann::json all = nlohmann::json::array();
  if (decision)
    for (const Prediction &pr : decision->predictions) {
      nlohmann::json c = candidate_json(pr.candidate, pr.us);
      if (pr.evidence == Prediction::Evidence::no_check) c["checked"] = "none";
      if (pr.evidence == Prediction::Evidence::is_default) c["checked"] = "is_default";
      if (pr.evidence == Prediction::Evidence::checked) c["checked_worst_us"] = pr.checked_worst_us;
      if (pr.versus_default)  // its time over the default's in the same rounds, the interval of the median
        c["versus_default"] = {{"low", std::exp(pr.versus_default->lo)}, {"high", std::exp(pr.versus_default->hi)}};
      all.push_back(std::move(c));
    }
  j["candidates"] = std::move(all);
  return j;
}

}  // namespace modeltuned
