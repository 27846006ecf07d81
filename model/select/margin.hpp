// When the model may leave Open MPI's default: only when a candidate is predicted faster by more
// than the model's own measured uncertainty (docs/model.md, "Margin").
#pragma once
#include <array>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "model/calibration/table.hpp"
#include "model/simulate/call.hpp"

namespace modeltuned {

// The table's uncertainty: the largest held-out median absolute percentage error among its fits
// (provenance.fit.<channel>.<p2p|fanout|fanin|...>.held_out.median_ape, k-fold cross-validation
// by the fitter), as a fraction, at most kMaxUncertainty. 0 when the table records none (a table
// written by hand): then no margin is derived and the prediction alone decides.
inline constexpr double kMaxUncertainty = 0.5;
double held_out_uncertainty(const CalibrationTable &table);

// One rule: a candidate replaces the default when pick_us * (1 + u) < default_us * (1 - u), i.e.
// when even the pick's prediction erring high by u and the default's erring low by u keep the
// pick faster. The factor (1 + u) / (1 - u) that the default must exceed the pick by.
inline double margin_factor(double uncertainty) { return (1 + uncertainty) / (1 - uncertainty); }

// With checks (table.checks: how far collective predictions were off on measurements the model
// was not fitted to), the rule is per case instead: a candidate replaces the default only if its
// prediction erring by the worst ratio seen for it (pred * e^log_hi) is still below the default's
// erring the other way (default * e^log_lo). A candidate, or a default, without a check for the
// call's op, parameters (segment size, fan-out), objective, size and communicator shape (Placement::neighbor_channel,
// widest_channel) is not trusted: then the default is kept.
struct ResidualRange {
  double lo = 0, hi = 0;  // ln(measured / predicted)
  // The communicator sizes of the checks it came from (from_ranks; 0: none, or a check without
  // sizes), for explain: one size, or the two a communicator between them was judged by.
  std::array<int, 2> measured_on{0, 0};
};
//
// A check measured on communicators of [from_ranks, below_ranks) holds for a communicator of P
// ranks within a factor of 2 of those sizes (from_ranks / 2 <= P < 2 x below_ranks): the model's
// error changes with the number of ranks (more concurrent transfers than it charges, longer
// trees), so a range pooled from 4 to 126 ranks is wider than the error at any one of them, and
// one from 16 ranks says little about 256. Among the checks of one configuration that hold, the
// range at P is (range_in):
//  - a check measured on P's own size: its range;
//  - checks on both smaller and larger sizes: the union of the nearest on each side. How the
//    error moves between two measured sizes is unknown (ORFEO's chain bcast under map-by core
//    measured 1.5-3x its 254-rank error at 130-174 ranks), and the union is what both allow;
//  - checks on one side only: that range carried no farther than the span of sizes it pooled
//    (ln(below_ranks / from_ranks)); beyond, the configuration is not trusted. A check pooled over
//    64-127 ranks has seen its error move over that span; one measured on 62 ranks alone has not.
// A check without sizes (version 2 tables) holds for any P, and only when no sized one does.
inline constexpr double kChecksRanksReach = 2;
// The communicator sizes modeltuned-calibrate measures its checks on in an allocation of `ranks`
// (MPI_COMM_WORLD and its first ranks): all of them, then every factor sqrt(2) fewer, rounded down
// to an even size, while at least 2, kCheckGroups sizes at most (256 ranks: 256, 180, 128, 90, 64,
// 44, 32, 22, 16, 10, 8, 4, 2). Down to 2 ranks, since a small communicator costs little to measure
// and below the smallest size measured the rule keeps the default: with five sizes (256 to 64),
// ORFEO's communicators of 31-61 ranks all kept it (2026-11-26, d70fe38).
// Between two of them the rule interpolates (range_in); below the smallest it keeps Open MPI's
// default. `modeltuned validate --calibrated-on N` fits its checks on the same sizes.
inline constexpr int kCheckGroups = 16;
inline constexpr double kCheckGroupRatio = 1.4142135623730951;
std::vector<int> check_group_sizes(int ranks);
// How far (ln ratio) communicator size `ranks` is from the sizes check `r` was measured on: 0
// inside them, infinity beyond kChecksRanksReach, -1 for a check without sizes.
double ranks_distance(const CheckResidual &r, int ranks);
// Whether check `r` holds for `op` on communicators of this shape and size (at some message size
// and objective).
bool covers_communicator(const CheckResidual &r, Op op, Channel neighbors, Channel widest, int ranks);
// The checks that hold for calls of `bytes` with this op, objective, communicator shape and size
// (a handful per call: about one per configuration measured); then the range of one configuration
// among them.
std::vector<const CheckResidual *> checks_for(const CalibrationTable &table, Op op, double bytes, Metric metric,
                                              Channel neighbors, Channel widest, int ranks);
std::optional<ResidualRange> range_in(std::span<const CheckResidual *const> checks, std::string_view algorithm,
                                      uint32_t segsize, int fanout, int ranks);
// The paired range (CheckResidual::relative_to_default) of `algorithm` at `ranks`, by the same
// rules as range_in: ln(its time / the default's) in the same rounds at the measured size. What
// decides whether another component's measured-only algorithm beats the default (it has no model);
// range_in never returns one.
std::optional<ResidualRange> relative_range_in(std::span<const CheckResidual *const> checks, std::string_view algorithm,
                                               int ranks);
// A measured-only candidate's range against its prediction, which is the default's: the default's
// time at `anchor` (ln, relative to the prediction: its range's lo or hi) times its paired ratio.
inline ResidualRange paired_with(double anchor, const ResidualRange &paired) {
  return {anchor + paired.lo, anchor + paired.hi, paired.measured_on};
}
inline std::optional<ResidualRange> check_range(const CalibrationTable &table, Op op, std::string_view algorithm,
                                                uint32_t segsize, int fanout, double bytes, Metric metric,
                                                Channel neighbors, Channel widest, int ranks) {
  return range_in(checks_for(table, op, bytes, metric, neighbors, widest, ranks), algorithm, segsize, fanout, ranks);
}
// The element size the checks' collectives were measured with (calib/calibrate/checks.cpp): bcast
// MPI_BYTE, the reductions MPI_INT with MPI_SUM; a barrier moves nothing (bytes 0, counted as one).
// What the fixed rule runs can depend on the element count (Rabenseifner with fewer elements than
// ranks runs the linear reduce).
inline constexpr size_t checked_element_bytes(Op op) { return reduces(op) ? 4 : 1; }
// The range for Open MPI's default, which for this call runs `runs` (the fixed rule's
// configuration, what_runs applied); `runs_at(n, bytes)` is what it runs for a call of `bytes`
// (elements of checked_element_bytes) at n ranks. A check of the default holds only where the
// fixed rule runs what the call runs at every size the check measured: the rule changes
// algorithm with the communicator size (bcast: k-nomial below 128 ranks, binomial or bintree
// above) and with the message size inside one band (reduce on 2 ranks: linear at 4 B, binary at
// 8 B), and the error of one algorithm, or of two pooled, says nothing of another's. The sizes
// measured are taken as the powers of two in the check's band (the calibrator measures 4^k and
// 2 x 4^k; OSU every power of two). Among the default's checks that agree, the nearest decides;
// when none does, the check of the configuration it runs, forced, stands in (the same
// ompi_coll_base_* function with the same arguments); nullopt when there is neither. When both
// hold, the range covers both: they measured the same code, and how far they differ is the
// measurement's own noise (on the 2-core VM at np 2, a forced binary reduce measured 0.30 us at
// 4 B, the default running the same binary 0.57 us at 8 B), which a candidate's gain must
// exceed. A check without rank sizes agrees with any communicator size.
using RunsAt = std::function<Candidate(int ranks, double bytes)>;
std::optional<ResidualRange> default_range_in(std::span<const CheckResidual *const> checks, Op op,
                                              const Candidate &runs, int ranks, const RunsAt &runs_at);
// Checks of Open MPI's default where it is han's hierarchical bcast or reduce (5.0 across nodes,
// a node holding two or more ranks; ompi_fixed.hpp) carry this algorithm name: ln(measured han /
// predicted tuned rule), the same residual as a default check of tuned's rule but of another code.
// They stand for the default only where han is the default (Selector::set_han_default), with
// range_in's rules and no fixed-rule agreement or forced stand-in: han runs none of tuned's
// configurations whole.
inline constexpr std::string_view kHanDefaultCheck = "han";
// The index of the candidate with the lowest pessimistic prediction among those whose pessimistic
// prediction beats the default's optimistic one; -1: keep the default.
int pick_with_checks(std::span<const double> predicted_us, std::span<const std::optional<ResidualRange>> ranges,
                     double default_us, const std::optional<ResidualRange> &default_range);

}  // namespace modeltuned
