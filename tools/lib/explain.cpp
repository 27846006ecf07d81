#include "tools/lib/explain.hpp"

#include "model/select/ompi_fixed.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "model/collectives/family.hpp"
#include "model/select/decision_json.hpp"

namespace modeltuned::tools {

nlohmann::json explain_what_if(const CalibrationTable &table, const Placement &placement, const WhatIf &what_if) {
  // The list narrows the op explained; the others (an allreduce's own reduce and bcast) keep all.
  AllowedAlgorithms allowed = allowed_everywhere();
  allowed[op_index(what_if.op)] = what_if.allowed;
  Selector selector(table, placement, allowed, what_if.tree_schedule, what_if.ompi);
  // As the component finds at enable: the fallback, and whether it runs tuned's fixed rule or han's
  // hierarchical algorithm, which only the table's checks of han can weigh a pick against; han
  // takes only the collectives it has.
  const bool han_has_op = han_has(collective_family(what_if.op), what_if.ompi);
  const bool han_below = ompi_fallback(what_if.ompi, placement, what_if.han_enabled) == Fallback::han && han_has_op;
  const bool han = !fallback_runs_tuned_rule(what_if.ompi, placement, what_if.han_enabled);
  for (const CollectiveFamily *family : collective_families())
    selector.set_han_default(family->op, han && han_has(*family, what_if.ompi));
  // As the component at enable: an op whose every call keeps the default is not taken either.
  const bool kept_everywhere = selector.keeps_default_everywhere(what_if.op, Metric::completion);
  nlohmann::json out = nlohmann::json::array();
  for (size_t bytes : what_if.sizes) {
    CallShape call{what_if.op, bytes / what_if.type_size, what_if.type_size, what_if.root, what_if.commutative};
    nlohmann::json d =
        decision_json(table, placement, call, selector.decide(call), what_if.tree_schedule, what_if.ompi);
    // As the component at enable: an op the model can never take from the default is not taken.
    d["fallback"] = han_below ? "han" : "tuned";
    d["default_runs"] = han && han_has_op ? "han" : "tuned_rule";
    d["left_to_ompi"] = !selector.may_leave_default(what_if.op);
    d["kept_default_everywhere"] = kept_everywhere;
    out.push_back(std::move(d));
  }
  return out;
}

namespace {

// "; checks measured on 178 and 254 ranks for the pick, on 254 ranks for the default": the
// communicator sizes the decision's checks came from (decision_json's checked_on_ranks).
std::string checked_on(const nlohmann::json &d) {
  if (!d.contains("checked_on_ranks")) return "";
  const auto sizes = [](const nlohmann::json &on) {
    std::string text;
    for (size_t i = 0; i < on.size(); ++i) text += fmt::format("{}{}", i == 0 ? "" : " and ", on[i].get<int>());
    return text.empty() ? std::string("any number of") : text;
  };
  const nlohmann::json &on = d["checked_on_ranks"];
  return fmt::format("; checks measured on {} ranks for the pick, {} for the default", sizes(on["pick"]),
                     sizes(on["default"]));
}

// Why an op whose default is han's hierarchical algorithm never reaches modeltuned.
std::string left_to_han(const nlohmann::json &d) {
  return fmt::format(
      "  why: Open MPI's default runs without modeltuned: under {} han takes this communicator (its ranks span "
      "nodes) and, as a node holds two or more of them, runs its hierarchical {}, which the model does not "
      "predict and no check of the table measured on this shape and size; the component leaves this op to "
      "han at enable (docs/user-guide.md, \"Beside coll/han\")\n",
      d.value("ompi", "5.0"), d["op"].get<std::string>());
}

// A pick that passed the checks under the call's objective and was measured slower under the other.
std::string kept_by_objective(const nlohmann::json &d) {
  const nlohmann::json &o = d["kept_by_objective"];
  const bool rank_mean = o["objective"] == "rank_mean";
  const std::string other = rank_mean ? "the rank mean (each rank's own time, what OSU reports)"
                                      : "the completion (from the first rank's start to the last rank's end)";
  const std::string evidence =
      o["pick_checked_best_us"].is_number() && o["default_checked_worst_us"].is_number()
          ? fmt::format("its checks allow it no less than {:.2f} us there, the default no more than {:.2f}",
                        o["pick_checked_best_us"].get<double>(), o["default_checked_worst_us"].get<double>())
          : std::string("no check measured both there");
  return fmt::format(
      "  why: keeps Open MPI's default: {} passes the checks for {}, but loses under {}: {}; leaving the "
      "default needs no loss under either (docs/model.md#margin)\n",
      o["pick"].get<std::string>(), d.value("objective", "completion"), other, evidence);
}

// The "why" line: which rule kept or left Open MPI's default, with its numbers.
double predicted_us(const nlohmann::json &c) {
  return c["predicted_us"].is_number() ? c["predicted_us"].get<double>() : NAN;
}

// A measured-only pick's paired range (its time over the default's in the same rounds), or null.
const nlohmann::json *pick_versus_default(const nlohmann::json &d) {
  if (d.value("kept_default", false)) return nullptr;
  for (const nlohmann::json &c : d["candidates"])
    if (c["label"] == d["pick"]["label"] && c.contains("versus_default")) return &c["versus_default"];
  return nullptr;
}

std::string why_line(const nlohmann::json &d, double best, bool han) {
  const auto us = predicted_us;
  const nlohmann::json &fixed = d["ompi_default"];
  if (d.contains("margin") && d["margin"].is_number()) {
    const double margin = d["margin"].get<double>();
    const auto &all_candidates = d["candidates"];
    const double fastest = all_candidates.empty() ? best : us(all_candidates[0]);
    const std::string basis = d.value("margin_basis", "held_out");
    if (han && d.value("left_to_ompi", false)) return left_to_han(d);
    if (d.value("left_to_ompi", false))
      return "  why: Open MPI's default runs without modeltuned: no check of the table covers this communicator's "
             "shape and number of ranks at any size, so the component leaves this op to tuned at enable and its "
             "calls never reach it (docs/model.md#margin)\n";
    if (basis == "unchecked")
      return "  why: keeps Open MPI's default: the table's checks cover neither it nor any candidate at this message "
             "size, communicator shape and number of ranks, so no prediction is trusted (docs/model.md#margin)\n";
    if (d.contains("kept_by_objective")) return kept_by_objective(d);
    if (basis == "checks" && d.value("kept_default", false))
      return fmt::format(
          "  why: keeps Open MPI's default: no candidate stays faster when each prediction errs by the worst "
          "ratio the table's checks saw (best checked candidate: margin {:.2f}x; docs/model.md#margin){}\n",
          margin, checked_on(d));
    if (const nlohmann::json *paired = pick_versus_default(d); basis == "checks" && paired)
      return fmt::format(
          "  why: leaves Open MPI's default: the checks measured {} at {:.2f}-{:.2f}x the default's time at this "
          "size in the same rounds (the 95% interval of the median; docs/model.md#other-components-measured-only){}\n",
          d["pick"]["label"].get<std::string>(), (*paired)["low"].get<double>(), (*paired)["high"].get<double>(),
          checked_on(d));
    if (basis == "checks")
      // The margin here is e^(hi of the pick - lo of the default): below 1 when the checks measured
      // the pick faster, relative to its prediction, than the default; so a pick predicted slower
      // can still run.
      return fmt::format(
          "  why: leaves Open MPI's default: the default's predicted time is {:.2f}x the pick's, more than "
          "the {:.2f}x that the worst errors the table's checks saw for both allow "
          "(docs/model.md#margin){}\n",
          us(fixed) / best, margin, checked_on(d));
    if (d.value("kept_default", false))
      return fmt::format(
          "  why: keeps Open MPI's default: the fastest candidate ({:.2f} us) does not beat it by the "
          "margin {:.2f}x (the table's held-out error; docs/model.md#margin)\n",
          fastest, margin);
    return fmt::format(
        "  why: leaves Open MPI's default: predicted {:.2f}x faster, beyond the margin {:.2f}x "
        "(the table's held-out error; docs/model.md#margin)\n",
        us(fixed) / best, margin);
  }
  return "  why: the fastest prediction (algorithm lists narrowed: Open MPI's default is no candidate, no margin)\n";
}

// A measured-only candidate's paired check, as a line says it.
std::string versus_default(const nlohmann::json &c) {
  return fmt::format("{:.2f}-{:.2f}x the default's time in the same rounds", c["versus_default"]["low"].get<double>(),
                     c["versus_default"]["high"].get<double>());
}

// Why a candidate ranked above the pick does not run, from what the checks said of it (margin.hpp),
// or "" for the pick and below.
std::string passed_over(const nlohmann::json &d, const nlohmann::json &c) {
  const std::string checked = c.value("checked", "");
  if (c.value("measured_only", false) && checked == "none") return "  passed over: no model, and no check measured it";
  if (checked == "none") return "  passed over: no check measured it";
  if (checked == "is_default") return "  Open MPI's default";
  if (c.contains("versus_default"))
    return fmt::format("  passed over: the checks measured it at {}", versus_default(c));
  if (c.contains("checked_worst_us") && d.contains("default_checked_best_us"))
    return fmt::format("  passed over: its checks allow {:.2f} us, the default's {:.2f}",
                       c["checked_worst_us"].get<double>(), d["default_checked_best_us"].get<double>());
  if (c.contains("checked_worst_us")) return "  passed over: no check measured the default";
  if (d.value("margin_basis", "") == "held_out" && d.value("kept_default", false))
    return "  passed over: within the margin";
  return "";
}

// A candidate as listed: another component's with its name.
std::string candidate_label(const nlohmann::json &c) {
  const std::string label = c["label"].get<std::string>();
  return c.contains("component") ? fmt::format("{} (coll/{})", label, c["component"].get<std::string>()) : label;
}

// What a measured-only candidate's prediction is, below the pick: the default's, which only its
// checks can beat.
std::string component_note(const nlohmann::json &c) {
  if (!c.value("measured_only", false)) return "";
  if (c.contains("versus_default")) return fmt::format("  measured only: {}", versus_default(c));
  if (c.contains("checked_worst_us"))
    return fmt::format("  measured only: its checks allow {:.2f} us", c["checked_worst_us"].get<double>());
  return "  measured only: the default's prediction, no check";
}

// Other components' algorithms of the op that are not among the candidates, and why.
std::string components_not_candidates(Op op, const std::optional<OmpiVersion> &release, const nlohmann::json &all,
                                      const nlohmann::json &unusable, bool commutative) {
  std::string out;
  for (const AlgorithmSpec &spec : component_algorithms()) {
    if (spec.op != op) continue;
    const bool listed = std::any_of(all.begin(), all.end(),
                                    [&](const nlohmann::json &c) { return c["algorithm"].get<int>() == spec.id; });
    if (listed) continue;
    std::string why;
    const auto failed = std::find_if(unusable.begin(), unusable.end(),
                                     [&](const nlohmann::json &u) { return u["algorithm"] == spec.name; });
    if (failed != unusable.end())
      why = fmt::format("it {} in calibration at {} B on {} ranks: never run from that size up",
                        (*failed)["why"].get<std::string>(), (*failed)["from_bytes"].get<double>(),
                        (*failed)["ranks"].get<int>());
    else if (release && !in_release(spec, *release))
      why = fmt::format("Open MPI {} has no coll/{}", ompi_version_name(*release), spec.component);
    else if (reduces(op) && !commutative && !spec.order_preserving)
      why = fmt::format("coll/{} hands a non-commutative operation on", spec.component);
    else if (!spec.serves_only.empty())
      why = fmt::format("coll/{} serves {} only", spec.component, spec.serves_only);
    else
      why = fmt::format("coll/{} does not serve this call", spec.component);
    out += fmt::format("  not a candidate: {} ({})\n", spec.name, why);
  }
  return out;
}

}  // namespace

std::string format_decision(const nlohmann::json &d, int top) {
  const bool commutative = d.value("commutative", true);
  const std::string op = d["op"].get<std::string>();
  const std::optional<Op> family = find_collective(op);
  std::string out = family && !collective_family(*family).moves_data
                        ? fmt::format("{} on {} ranks\n", op, d["comm_size"].get<int>())
                        : fmt::format("{} of {} B ({} x {} B) on {} ranks, root {}{}\n", op, d["bytes"].get<size_t>(),
                                      d["count"].get<size_t>(), d["type_size"].get<size_t>(), d["comm_size"].get<int>(),
                                      d["root"].get<int>(), commutative ? "" : ", non-commutative op");
  const auto us = predicted_us;
  if (d["pick"].is_null())
    return out + "  no allowed candidate can be predicted: modeltuned falls back to Open MPI's decision\n\n";
  const double best = us(d["pick"]);
  out += fmt::format("  modeltuned picks   {:<34} {:>12.2f} us\n", d["pick"]["label"].get<std::string>(), best);
  const nlohmann::json &fixed = d["ompi_default"];
  const bool han = d.value("default_runs", "") == "han";
  if (han)
    out += fmt::format(
        "  Open MPI {} default: han's hierarchical {} (not predicted: the checks of han weigh it; tuned's rule "
        "below is a candidate)\n",
        d.value("ompi", "5.0"), d["op"].get<std::string>());
  const std::string default_name =
      han ? "tuned's fixed rule  " : fmt::format("Open MPI {:<3} default", d.value("ompi", "4.1"));
  if (fixed.is_object() && fixed["predicted_us"].is_number())
    out += fmt::format("  {} {:<30} {:>12.2f} us  ({:.2f}x the pick)\n", default_name,
                       fixed["label"].get<std::string>(), us(fixed), us(fixed) / best);
  out += why_line(d, best, han);
  if (d.value("kept_default_everywhere", false) && !d.value("left_to_ompi", false))
    out += fmt::format(
        "  so: the model keeps Open MPI's default for every {} on this communicator, and the component leaves "
        "the op to Open MPI at enable: its calls never reach modeltuned (docs/model.md, \"Ops the model never "
        "takes\")\n",
        d["op"].get<std::string>());
  const auto &all = d["candidates"];
  size_t shown = top > 0 ? std::min<size_t>(top, all.size()) : all.size();
  out += fmt::format("  {:>4}  {:<34} {:>12}  {:>8}\n", "rank", "candidate", "predicted_us", "vs pick");
  // Candidates ranked above the pick say why they do not run.
  size_t pick_at = all.size();
  for (size_t i = 0; i < all.size() && pick_at == all.size(); ++i)
    if (all[i]["label"] == d["pick"]["label"]) pick_at = i;
  for (size_t i = 0; i < shown; ++i)
    out += fmt::format("  {:>4}  {:<34} {:>12.2f}  {:>7.2f}x{}\n", i + 1, candidate_label(all[i]), us(all[i]),
                       us(all[i]) / best, i < pick_at ? passed_over(d, all[i]) : component_note(all[i]));
  if (shown < all.size()) out += fmt::format("  ... {} more (--top 0 shows all)\n", all.size() - shown);
  const std::optional<OmpiVersion> release = parse_ompi_version(d.value("ompi", "4.1"));
  if (family)
    for (const AlgorithmSpec &spec : collective_family(*family).algorithms) {
      // Another release's form of an algorithm this one has under the same name (6.0's
      // Rabenseifner allreduce) is not listed apart.
      const AlgorithmSpec *current = find_algorithm(spec.op, spec.id);
      if (release && !in_release(spec, *release) && current->name == spec.name && in_release(*current, *release))
        continue;
      if (release && spec.since > *release)
        out += fmt::format("  not a candidate: {} (Open MPI {} has none; it comes with {})\n", spec.name,
                           ompi_version_name(*release), ompi_version_name(spec.since));
      else if (release && spec.until < *release)
        out += fmt::format("  not a candidate: {} (Open MPI {} has {} under its number {})\n", spec.name,
                           ompi_version_name(*release), current->name, spec.id);
      else if (spec.runs_only_on != 0 && spec.runs_only_on != d["comm_size"].get<int>())
        out += fmt::format("  not a candidate: {} (Open MPI runs it on {} ranks only, and fails the call on others)\n",
                           spec.name, spec.runs_only_on);
    }
  if (family && !d["margin"].is_null())  // narrowed lists leave out what they leave out
    out += components_not_candidates(*family, release, all, d.value("unusable", nlohmann::json::array()), commutative);
  return out + "\n";
}

}  // namespace modeltuned::tools
