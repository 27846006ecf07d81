#include "model/select/selector.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "model/collectives/family.hpp"
#include "model/select/margin.hpp"
#include "model/select/ompi_fixed.hpp"

namespace modeltuned {

std::vector<uint32_t> segment_sizes() {
  std::vector<uint32_t> sizes{0};
  for (uint32_t s = 1024; s <= 128 * 1024; s *= 2) sizes.push_back(s);
  return sizes;
}

// A spec's searched fan-outs: the first always, the others only below the number of ranks.
static std::vector<int> fanouts_for(const AlgorithmSpec &spec, int comm_size) {
  const std::span<const int> searched = spec.parameters.fanouts;
  if (searched.empty()) return {0};
  std::vector<int> out;
  for (int f : searched)
    if (f == searched.front() || f < comm_size) out.push_back(f);
  return out;
}

std::vector<Candidate> enumerate_candidates(const CallShape &call, int comm_size, AlgorithmMask allowed,
                                            OmpiVersion ompi) {
  std::vector<Candidate> out;
  for (const AlgorithmSpec &spec : algorithm_registry()) {
    if (spec.op != call.op || !(allowed & (AlgorithmMask{1} << spec.id)) || !in_release(spec, ompi)) continue;
    if (reduces(call.op) && !call.commutative && !spec.order_preserving) continue;
    if (call.whole_message && spec.splits) continue;
    std::vector<uint32_t> segsizes{0};
    if (spec.parameters.segmented && !call.whole_message)
      for (uint32_t s : segment_sizes())
        // A segment at least as large as the message is no segmentation: already covered by 0.
        if (s != 0 && s >= call.type_size && s < call.bytes()) segsizes.push_back(s);
    for (int f : fanouts_for(spec, comm_size))
      for (uint32_t s : segsizes) out.push_back(Candidate{call.op, spec.id, s, f});
  }
  return out;
}

Selector::Selector(const CalibrationTable &table, Placement placement, const AllowedAlgorithms &allowed,
                   TreeSchedule tree_schedule, OmpiVersion ompi)
    : table_(table),
      placement_(std::move(placement)),
      allowed_(allowed),
      tree_schedule_(tree_schedule),
      ompi_(ompi),
      margin_(margin_factor(held_out_uncertainty(table))),
      neighbors_(placement_.neighbor_channel()),
      widest_(placement_.widest_channel()) {
  // Compared per algorithm, not with kAllAlgorithms: the component passes its lists masked by
  // the functions it resolved.
  AlgorithmMask released[kOpCount] = {};
  for (const AlgorithmSpec &spec : algorithm_registry())
    if (in_release(spec, ompi_)) released[op_index(spec.op)] |= AlgorithmMask{1} << spec.id;
  for (int op = 0; op < kOpCount; ++op) {
    allowed_[op] &= released[op];  // an algorithm of a later release has no function to run here
    default_is_candidate_[op] = allowed_[op] == released[op];
  }
  for (const CheckResidual &r : table.checks)
    checks_of_[static_cast<int>(r.objective == "rank_mean" ? Metric::rank_mean : Metric::completion)] = true;
}

const Plan *Selector::plan(const Candidate &c, int root) {
  if (root != plans_root_) {  // trees hang off the root: plans for another root are useless
    plans_.clear();
    plans_root_ = root;
  }
  for (const CachedPlan &p : plans_)
    if (p.op == c.op && p.algorithm == c.algorithm && p.fanout == c.fanout) return p.plan ? &*p.plan : nullptr;
  plans_.push_back({c.op, c.algorithm, c.fanout, make_plan(placement_, c, root)});
  return plans_.back().plan ? &*plans_.back().plan : nullptr;
}

std::optional<double> Selector::default_prediction(const CallShape &call) {
  const int size = placement_.size();
  const Candidate rule = ompi_fixed_decision(call.op, call.bytes(), size, call.commutative, ompi_);
  return predict(what_runs(rule, call.count, call.type_size, size, call.commutative), call);
}

std::optional<double> Selector::predict(const Candidate &c, const CallShape &call) {
  const AlgorithmSpec *spec = find_algorithm(c.op, c.algorithm);
  if (spec && !spec->component.empty()) {
    if (spec->serves && !spec->serves(call, placement_)) return std::nullopt;  // its component hands it on
    // It crashed or hung when the calibrator first ran it, at this size or a smaller one.
    if (table_.unusable_at(op_name(c.op), spec->name, static_cast<double>(call.bytes()))) return std::nullopt;
    if (measured_only(*spec)) return default_prediction(call);
  }
  if (spec && spec->composed == Composition::reduce_then_bcast) {
    // The communicator's own reduce and bcast run it: this model's decisions for them, rooted at 0.
    CallShape part = call;
    part.root = 0;
    part.metric = Metric::completion;
    part.op = Op::reduce;
    const std::optional<Decision> reduce = decide(part);
    part.op = Op::bcast;
    const std::optional<Decision> bcast = decide(part);
    if (!reduce || !bcast) return std::nullopt;
    return reduce->predicted_us + bcast->predicted_us;
  }
  if (spec && spec->composed == Composition::allgather_then_reduce) {
    // The communicator's own allgather of every rank's message (this model's decision), then
    // P - 1 reductions of the whole message on every rank.
    const std::optional<Decision> allgather =
        decide(CallShape{Op::allgather, call.count, call.type_size, 0, true, Metric::completion, call.whole_message});
    if (!allgather) return std::nullopt;
    return allgather->predicted_us +
           table_.reduce_us_per_byte * static_cast<double>(call.bytes()) * static_cast<double>(placement_.size() - 1);
  }
  const Plan *p = plan(c, call.root);
  // Nullopt: Open MPI would run another algorithm for this call; never pick it.
  const std::optional<double> own = p ? evaluate_plan(table_, *p, call, c, tree_schedule_) : std::nullopt;
  if (!own || !spec || spec->composed != Composition::gather_then_bcast) return own;
  // Then the communicator's own bcast of every rank's block from rank 0: this model's decision.
  const std::optional<Decision> bcast =
      decide(CallShape{Op::bcast, call.count * static_cast<size_t>(placement_.size()), call.type_size, 0, true,
                       Metric::completion, call.whole_message});
  if (!bcast) return std::nullopt;
  return *own + bcast->predicted_us;
}

std::optional<Decision> Selector::decide(const CallShape &asked) {
  CallShape call = asked;
  if (!collective_family(call.op).rooted) call.root = 0;  // one set of plans serves every call
  const std::vector<Candidate> candidates =
      enumerate_candidates(call, placement_.size(), allowed_[op_index(call.op)], ompi_);
  Decision decision;
  decision.predictions.reserve(candidates.size());
  for (const Candidate &c : candidates)
    if (auto us = predict(c, call)) decision.predictions.push_back({c, *us});
  if (decision.predictions.empty()) return std::nullopt;
  // Stable: equal predictions keep enumeration order, so every rank breaks ties the same way.
  std::stable_sort(decision.predictions.begin(), decision.predictions.end(),
                   [](const Prediction &a, const Prediction &b) { return a.us < b.us; });
  decision.pick = decision.predictions.front().candidate;
  decision.predicted_us = decision.predictions.front().us;
  if (!default_is_candidate_[op_index(call.op)]) return decision;
  const int size = placement_.size();
  const Candidate rule = ompi_fixed_decision(call.op, call.bytes(), size, call.commutative, ompi_);
  const Candidate fixed = what_runs(rule, call.count, call.type_size, size, call.commutative);
  // Usually among the candidates, predicted already (nonoverlapping's prediction decides a reduce
  // and a bcast: not worth doing twice).
  const auto known = std::find_if(decision.predictions.begin(), decision.predictions.end(),
                                  [&](const Prediction &p) { return p.candidate == fixed; });
  const std::optional<double> default_us = known != decision.predictions.end() ? known->us : predict(fixed, call);
  if (!default_us) return decision;  // the default cannot be predicted: the model decides alone
  decision.ompi_default = Prediction{fixed, *default_us};
  // A user-defined operation's call is decided on bytes, its element count being each rank's own.
  // Where what the default runs depends on that count (ring below one element per rank runs
  // recursive doubling), the default's algorithm is unknown: nothing shows a pick beats it.
  if (call.whole_message && what_runs(rule, 1, call.bytes(), size, call.commutative) != fixed) {
    decision.kept_default = true;
    decision.pick = fixed;
    decision.predicted_us = *default_us;
    return decision;
  }
  if (!table_.checks.empty()) {
    decision = apply_checks(call, std::move(decision));
    if (!decision.kept_default) holds_for_both_objectives(call, decision);
    return decision;
  }
  if (han_default_[op_index(call.op)]) {  // no check of han's default: nothing says a pick beats it
    decision.kept_default = true;
    decision.pick = fixed;
    decision.predicted_us = *default_us;
    return decision;
  }
  decision.margin = margin_;
  if (!(decision.predicted_us * margin_ < *default_us)) {
    decision.kept_default = true;
    decision.pick = fixed;
    decision.predicted_us = *default_us;
  }
  return decision;
}

bool Selector::may_leave_default(Op op) const {
  const bool han = han_default_[op_index(op)];
  if (!default_is_candidate_[op_index(op)]) return true;
  if (table_.checks.empty()) return !han;
  return std::any_of(table_.checks.begin(), table_.checks.end(), [&](const CheckResidual &r) {
    return (!han || r.algorithm == kHanDefaultCheck) &&
           covers_communicator(r, op, neighbors_, widest_, placement_.size());
  });
}

namespace {
constexpr size_t kSweptBytesWithoutChecks = size_t{1} << 30;
// Larger communicators are not swept: the sweep costs milliseconds per placement there (64 ms for
// an alltoall of 1024 ranks without checks, `make bench`), while their calls take tens of
// microseconds and the lookup it would save a few nanoseconds.
constexpr int kSweptRanksAtMost = 256;

// The message sizes keeps_default_everywhere decides: the empty call of a family that moves no
// data, else the powers of two below the largest message measured by a check of `op`.
std::vector<size_t> swept_sizes(const CalibrationTable &table, Op op) {
  if (!collective_family(op).moves_data) return {0};
  double below = table.checks.empty() ? static_cast<double>(kSweptBytesWithoutChecks) : 0;
  for (const CheckResidual &r : table.checks)
    if (r.op == op_name(op)) below = std::max(below, r.below_bytes);
  std::vector<size_t> sizes;
  for (size_t bytes = 1; static_cast<double>(bytes) < below && bytes <= kSweptBytesWithoutChecks; bytes *= 2)
    sizes.push_back(bytes);
  return sizes;
}
}  // namespace

bool Selector::keeps_default_everywhere(Op op, Metric metric) {
  if (collective_family(op).rooted || reduces(op) || !default_is_candidate_[op_index(op)] ||
      placement_.size() > kSweptRanksAtMost)
    return false;
  if (!may_leave_default(op)) return true;
  for (const size_t bytes : swept_sizes(table_, op)) {
    CallShape call{op, bytes, 1, 0, true};
    call.metric = metric;
    const std::optional<Decision> decision = decide(call);
    if (decision && !decision->kept_default) return false;
  }
  return true;
}

// The checks rule (margin.hpp) over every prediction. The checks for this call are selected once;
// each candidate then looks among those few.
Decision Selector::apply_checks(const CallShape &call, Decision decision) const {
  const std::vector<const CheckResidual *> checks = checks_for(table_, call.op, static_cast<double>(call.bytes()),
                                                               call.metric, neighbors_, widest_, placement_.size());
  std::vector<double> us;
  std::vector<std::optional<ResidualRange>> ranges;
  const Prediction fixed = *decision.ompi_default;
  const bool han = han_default_[op_index(call.op)];
  const std::optional<ResidualRange> default_range = this->default_range(call, checks, fixed.candidate);
  for (Prediction &p : decision.predictions) {
    const AlgorithmSpec *spec = find_algorithm(call.op, p.candidate.algorithm);
    us.push_back(p.us);
    // What the default runs anyway never replaces it: its forced check and the default's measured
    // the same code, and whatever separates them is noise. Where han is the default, tuned's rule
    // is another code, a candidate like the others.
    const bool is_default = p.candidate == fixed.candidate && !han;
    p.versus_default =
        spec && measured_only(*spec) ? relative_range_in(checks, spec->name, placement_.size()) : std::nullopt;
    if (p.versus_default)  // its prediction is the default's: it beats the default's best by its paired range
      ranges.push_back(default_range ? std::optional<ResidualRange>(paired_with(default_range->lo, *p.versus_default))
                                     : std::nullopt);
    else
      ranges.push_back(spec && !is_default
                           ? range_in(checks, spec->name, p.candidate.segsize, p.candidate.fanout, placement_.size())
                           : std::nullopt);
  }
  const int chosen = pick_with_checks(us, ranges, fixed.us, default_range);
  for (size_t i = 0; i < ranges.size(); ++i) {
    Prediction &p = decision.predictions[i];
    p.evidence = ranges[i]                                ? Prediction::Evidence::checked
                 : p.candidate == fixed.candidate && !han ? Prediction::Evidence::is_default
                                                          : Prediction::Evidence::no_check;
    p.checked_worst_us = ranges[i] ? p.us * std::exp(ranges[i]->hi) : 0;
  }
  if (default_range) decision.default_checked_best_us = fixed.us * std::exp(default_range->lo);
  // The factor shown: for the chosen candidate, or the best checked one that was not enough.
  int shown = chosen;
  for (size_t i = 0; shown < 0 && i < ranges.size(); ++i)
    if (ranges[i]) shown = static_cast<int>(i);
  decision.margin_basis =
      default_range && shown >= 0 ? Decision::MarginBasis::checks : Decision::MarginBasis::unchecked;
  decision.margin =
      decision.margin_basis == Decision::MarginBasis::checks ? std::exp(ranges[shown]->hi - default_range->lo) : 0;
  if (decision.margin_basis == Decision::MarginBasis::checks) {
    decision.pick_checked_on = ranges[shown]->measured_on;
    decision.default_checked_on = default_range->measured_on;
  }
  if (chosen < 0) {
    decision.kept_default = true;
    decision.pick = fixed.candidate;
    decision.predicted_us = fixed.us;
  } else {
    const Prediction &p = decision.predictions[chosen];
    decision.pick = p.candidate;
    // A measured-only pick is predicted as the default: what it is expected to take is the
    // default's time by its paired ratio (the middle of its range), which sizes the guard's
    // windows (the gain a window's default calls give up) and what the lines say.
    decision.predicted_us =
        p.versus_default ? fixed.us * std::exp((p.versus_default->lo + p.versus_default->hi) / 2) : p.us;
  }
  return decision;
}

std::optional<ResidualRange> Selector::default_range(const CallShape &call,
                                                     std::span<const CheckResidual *const> checks,
                                                     const Candidate &fixed) const {
  if (han_default_[op_index(call.op)]) return range_in(checks, kHanDefaultCheck, 0, 0, placement_.size());
  const size_t element = checked_element_bytes(call.op);
  return default_range_in(checks, call.op, fixed, placement_.size(), [&](int ranks, double bytes) {
    const size_t b = static_cast<size_t>(bytes);
    return what_runs(ompi_fixed_decision(call.op, b, ranks, call.commutative, ompi_), std::max<size_t>(1, b / element),
                     element, ranks, call.commutative);
  });
}

// The objective ranks the candidates, and leaving the default also needs no loss under the other
// one: of the completion (what a rank waiting for the result sees) and the rank mean (what
// OSU-style benchmarks report), where the table has checks of both (a hand-written table may hold
// one objective's only), the pick's fastest checked time under the other objective must be below
// the default's slowest. A reduce pipelined in segments can end sooner at the root and later at
// the leaves, a win on one objective and a loss on the other (docs/model.md, "Under both
// objectives"); a tie there (coll/sm's reduce of 8 B: 0.76 against 0.98 us completion, 0.53
// against 0.57 us rank mean, overlapping) is no loss.
bool Selector::holds_for_both_objectives(const CallShape &call, Decision &decision) {
  CallShape other = call;
  other.metric = call.metric == Metric::completion ? Metric::rank_mean : Metric::completion;
  if (!checks_of_[static_cast<int>(other.metric)]) return true;
  const Candidate fixed = decision.ompi_default->candidate;
  const std::vector<const CheckResidual *> checks = checks_for(table_, call.op, static_cast<double>(call.bytes()),
                                                               other.metric, neighbors_, widest_, placement_.size());
  const AlgorithmSpec *spec = find_algorithm(call.op, decision.pick.algorithm);
  const std::optional<ResidualRange> fixed_range = default_range(other, checks, fixed);
  const std::optional<ResidualRange> paired =
      spec && measured_only(*spec) ? relative_range_in(checks, spec->name, placement_.size()) : std::nullopt;
  // A measured-only pick (predicted as the default) loses nothing where the low end of its paired
  // range is at most 1: at its best it was no slower than the default in the same rounds.
  std::optional<ResidualRange> pick_range;
  if (paired && fixed_range)
    pick_range = paired_with(fixed_range->hi, *paired);
  else if (spec && !paired)
    pick_range = range_in(checks, spec->name, decision.pick.segsize, decision.pick.fanout, placement_.size());
  const std::optional<double> pick_us = predict(decision.pick, other), fixed_us = predict(fixed, other);
  Decision::OtherObjective said{other.metric, decision.pick, 0, 0};
  if (pick_us && pick_range) said.pick_checked_best_us = *pick_us * std::exp(pick_range->lo);
  if (fixed_us && fixed_range) said.default_checked_worst_us = *fixed_us * std::exp(fixed_range->hi);
  if (said.pick_checked_best_us > 0 && said.default_checked_worst_us > 0 &&
      said.pick_checked_best_us <= said.default_checked_worst_us)
    return true;
  decision.kept_by_other_objective = said;
  decision.kept_default = true;
  decision.pick = fixed;
  decision.predicted_us = decision.ompi_default->us;
  return false;
}

int pick_with_margin(std::span<const double> predicted_us, double default_us, double factor) {
  int best = -1;
  for (size_t i = 0; i < predicted_us.size(); ++i)
    if (best < 0 || predicted_us[i] < predicted_us[best]) best = static_cast<int>(i);
  return best >= 0 && predicted_us[best] * factor < default_us ? best : -1;
}

std::optional<Decision> decide(const CalibrationTable &table, const Placement &placement, const CallShape &call,
                               AlgorithmMask allowed, TreeSchedule tree_schedule) {
  Selector selector(table, placement, allowed_everywhere(allowed), tree_schedule);
  return selector.decide(call);
}

AlgorithmMask parse_algorithm_list(Op op, std::string_view spec) {
  auto trim = [](std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
  };
  spec = trim(spec);
  if (spec.empty() || spec == "all") return kAllAlgorithms;
  AlgorithmMask mask = 0;
  while (true) {
    size_t comma = spec.find(',');
    std::string_view item = trim(spec.substr(0, comma));
    const AlgorithmSpec *algorithm = find_algorithm(op, item);
    if (!algorithm)
      throw std::invalid_argument(
          fmt::format("unknown {} algorithm '{}'; known: {}", op_name(op), item, algorithm_names(op)));
    mask |= AlgorithmMask{1} << algorithm->id;
    if (comma == std::string_view::npos) break;
    spec.remove_prefix(comma + 1);
  }
  return mask;
}

}  // namespace modeltuned
