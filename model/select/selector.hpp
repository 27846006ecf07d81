// Evaluates every allowed candidate of the registry and picks the fastest prediction.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "model/registry/predict.hpp"
#include "model/schedule/ompi_version.hpp"
#include "model/select/margin.hpp"

namespace modeltuned {

// Bit `id` set: tuned's algorithm number `id` may be chosen. kAllAlgorithms allows all.
using AlgorithmMask = uint32_t;
inline constexpr AlgorithmMask kAllAlgorithms = ~AlgorithmMask{0};
// Per collective (op_index), the algorithms that may be chosen.
using AllowedAlgorithms = std::array<AlgorithmMask, kOpCount>;
constexpr AllowedAlgorithms allowed_everywhere(AlgorithmMask mask = kAllAlgorithms) {
  AllowedAlgorithms allowed{};
  allowed.fill(mask);
  return allowed;
}

// Segment sizes searched: 0 and powers of two from 1 KiB to 128 KiB.
std::vector<uint32_t> segment_sizes();

// Every candidate the selector considers for this call: each allowed algorithm of the registry
// with the parameter values its spec searches (only order-preserving ones for non-commutative
// reductions; only unsplit and unsegmented ones when ranks may cut the message differently), as
// Open MPI line `ompi` has it: where two specs share a number (6.0's k-radix Bruck took Bruck's),
// only that line's, whose parameters are the ones its function takes.
std::vector<Candidate> enumerate_candidates(const CallShape &call, int comm_size, AlgorithmMask allowed,
                                            OmpiVersion ompi);

struct Prediction {
  Candidate candidate;
  double us = 0;
  // Under the checks rule (margin.hpp), what the table's checks say of it, for explain: nothing
  // (no check covers it: it cannot replace the default), it is what the default runs, or the
  // slowest it may be, us x e^hi of its check.
  enum class Evidence { not_weighed, no_check, is_default, checked } evidence = Evidence::not_weighed;
  double checked_worst_us = 0;
  // Another component's measured-only algorithm judged by its paired check: its time over the
  // default's in the same rounds (the 95 % interval of the median), and the ranks it was measured on.
  std::optional<ResidualRange> versus_default = std::nullopt;
};

struct Decision {
  Candidate pick;
  double predicted_us = 0;
  std::vector<Prediction> predictions;  // every predictable candidate, fastest first
  // Open MPI's default for this call (what its fixed rules run) and its prediction, when it is a
  // candidate (Selector: every algorithm allowed); the margin factor applied (margin.hpp); and
  // whether the default was kept because no candidate beat it by that factor. Then `pick` is the
  // default and the component hands the call to Open MPI.
  std::optional<Prediction> ompi_default;
  double margin = 1;
  bool kept_default = false;
  // What the margin came from: the table's held-out point-to-point error (one factor for every
  // case), or its checks (margin.hpp: the factor e^(hi_pick - lo_default) of the pick, or of the
  // best checked candidate when the default was kept); `unchecked`: the table has checks but none
  // for the default or any candidate at this size, so the default was kept (margin 0: none).
  enum class MarginBasis { held_out, checks, unchecked } margin_basis = MarginBasis::held_out;
  // With checks: the communicator sizes the pick's (or the best checked candidate's) checks and the
  // default's were measured on (ResidualRange::measured_on), the evidence explain names.
  std::array<int, 2> pick_checked_on{0, 0}, default_checked_on{0, 0};
  // With checks: the fastest the default may be, its prediction x e^lo of its check (0: no check).
  double default_checked_best_us = 0;
  // Set when the pick passed the checks under the call's objective but its checks under the other
  // one measured it slower than the default (Selector::holds_for_both_objectives), so the default
  // was kept: that objective, the fastest its checks allow the pick and the slowest they allow the
  // default (0: no check covers it).
  struct OtherObjective {
    Metric metric = Metric::completion;
    Candidate pick;
    double pick_checked_best_us = 0, default_checked_worst_us = 0;
  };
  std::optional<OtherObjective> kept_by_other_objective;
};

// The model of one communicator: its placement, the table and the allowed algorithms. Plans (the
// size-independent part of each candidate) are kept for the last root seen, so a new message-
// size class only evaluates costs. Not thread-safe: MPI orders collectives on a communicator.
class Selector {
 public:
  // Open MPI's default is a candidate (with the table's margin) when every algorithm of the op
  // is allowed: a user who narrows the list has chosen among algorithms.
  // `ompi`: the Open MPI line whose default (fixed rules and fallbacks) the picks are weighed against.
  Selector(const CalibrationTable &table, Placement placement, const AllowedAlgorithms &allowed = allowed_everywhere(),
           TreeSchedule tree_schedule = nullptr, OmpiVersion ompi = OmpiVersion::v4_1);
  // Nullopt when no allowed candidate can be predicted. Deterministic: ties go to the candidate
  // enumerated first, so every rank given the same inputs picks the same.
  std::optional<Decision> decide(const CallShape &call);
  // False when no call of `op` on this communicator can leave Open MPI's default, for any size,
  // root or objective: the table has checks and none holds for the communicator's shape and size
  // (margin.hpp), and every algorithm is allowed. The component then does not take the op at all,
  // so where the model is unsure it costs nothing, not even a lookup. True otherwise (it may).
  bool may_leave_default(Op op) const;
  // True when every call of `op` that the component decides on this communicator keeps Open MPI's
  // default under `metric`, so the component can leave the op to the previous component and its
  // calls cost nothing. Known for the rootless collectives that carry no operation: barrier's one
  // call, and a block exchange at every power of two of bytes below the largest message a check of
  // the op measured (kSweptBytesWithoutChecks for a table without checks). A size between two
  // powers the sweep passes over is then left to the default too, which never makes a call slower
  // than Open MPI's own decision. False for the others, decided per root and datatype, and on
  // communicators of more than 256 ranks, where the sweep would cost more than it saves.
  bool keeps_default_everywhere(Op op, Metric metric);
  // Open MPI's default for `op` on this communicator is han's hierarchical algorithm (5.0 across
  // nodes, a node holding two or more of its ranks; ompi_fixed.hpp), not tuned's fixed rule: the
  // model does not predict it, so a pick leaves it only where the table's checks of han's default
  // (margin.hpp, kHanDefaultCheck) hold and say the pick is faster; elsewhere it is kept.
  void set_han_default(Op op, bool han) { han_default_[op_index(op)] = han; }
  bool han_default(Op op) const { return han_default_[op_index(op)]; }
  const Placement &placement() const { return placement_; }
  const CalibrationTable &table() const { return table_; }
  TreeSchedule tree_schedule() const { return tree_schedule_; }
  OmpiVersion ompi() const { return ompi_; }

 private:
  const Plan *plan(const Candidate &c, int root);
  // The candidate's prediction for this call; nullopt when Open MPI would run another algorithm,
  // or when the candidate's component would not serve the call.
  std::optional<double> predict(const Candidate &c, const CallShape &call);
  // What tuned's fixed rule runs for the call, predicted: a measured-only candidate's prediction.
  std::optional<double> default_prediction(const CallShape &call);
  Decision apply_checks(const CallShape &call, Decision decision) const;
  // The range of ln(measured / predicted) the checks give the default for this call (its own
  // checks, or han's where han is the default).
  std::optional<ResidualRange> default_range(const CallShape &call, std::span<const CheckResidual *const> checks,
                                             const Candidate &fixed) const;
  // Whether a pick that left the default under the call's objective does so under the other one
  // too; if not, the decision keeps the default and says why.
  bool holds_for_both_objectives(const CallShape &call, Decision &decision);

  const CalibrationTable &table_;
  Placement placement_;
  AllowedAlgorithms allowed_;
  TreeSchedule tree_schedule_;
  OmpiVersion ompi_;
  double margin_;
  Channel neighbors_, widest_;           // the shape the table's checks are keyed by
  bool default_is_candidate_[kOpCount];  // [op]: every algorithm of the registry allowed
  bool checks_of_[2] = {};               // [Metric]: the table has checks measured for that objective
  bool han_default_[kOpCount] = {};
  int plans_root_ = -1;
  struct CachedPlan {
    Op op;
    int algorithm, fanout;
    std::optional<Plan> plan;
  };
  std::vector<CachedPlan> plans_;
};

// One-off decision (builds every plan): for tools and tests.
std::optional<Decision> decide(const CalibrationTable &table, const Placement &placement, const CallShape &call,
                               AlgorithmMask allowed, TreeSchedule tree_schedule = nullptr);

// The margin rule on given predictions: the index of the fastest of `predicted_us` if it beats
// `default_us` by the factor, else -1 (keep the default). For tools that score measured sets.
int pick_with_margin(std::span<const double> predicted_us, double default_us, double factor);

// Parses a comma-separated list of algorithms, each modeltuned's name, tuned's name or tuned's
// number ("" or "all": every algorithm). Throws std::invalid_argument with a one-line message
// naming the bad entry and the valid ones.
AlgorithmMask parse_algorithm_list(Op op, std::string_view spec);

}  // namespace modeltuned
