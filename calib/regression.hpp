// Straight-line fits and the piecewise (segmented) Hockney fit used by the calibration.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/stats.hpp"
#include "model/calibration/table.hpp"

namespace modeltuned::calib {

struct Point {
  double x;
  double y;
};

struct LineFit {
  double intercept = 0;
  double slope = 0;
  double sse = 0;  // weighted sum of squared residuals
  double at(double x) const { return intercept + slope * x; }
};

enum class Weighting {
  absolute,  // ordinary least squares
  relative,  // weights 1/y^2: minimizes relative error, so small y are not drowned by large ones
};

// Least squares y = intercept + slope * x with slope >= 0 (time never falls as size or P grows
// within one fit; when the free fit says otherwise the noise wins, and the best flat line is the
// constrained optimum). Needs at least two distinct x.
LineFit fit_line(std::span<const Point> points, Weighting weighting);

// Huber M-estimate by iteratively reweighted least squares (Eigen QR at every step), slope >= 0.
// Residuals are weighted as `weighting` says (relative: (y - fit) / y); a residual beyond
// huber_k robust standard deviations (1.4826 MAD of the residuals) gets weight huber_k * s / |r|,
// so a gross outlier pulls the line with a bounded force instead of its squared distance.
// Heavy-tailed, strictly positive noise (Legrand's notes) therefore moves the line by little.
// All x equal: the robust constant. With fewer than min_robust_points points the scale of the
// residuals cannot be estimated (the MAD of three residuals lets the line fit two points exactly
// and drop the third), so the plain least-squares line is returned. Needs at least one point.
// method median: least absolute (weighted) residuals, i.e. median regression, by IRLS with weights
// 1 / max(|r|, tiny): the line through the conditional median, which half the samples may exceed
// by any amount without moving it. It is the default: with a constant piece it gives exactly the
// median of the raw samples, like the per-size medians the table was fitted from before.
enum class RobustMethod { median, huber };
struct RobustOptions {
  RobustMethod method = RobustMethod::median;
  double huber_k = 1.345;  // 95 % efficiency under Gaussian noise
  int max_iterations = 100;
  double tolerance = 1e-9;  // on the relative change of the coefficients
  size_t min_robust_points = 8;
};
LineFit fit_line_robust(std::span<const Point> points, Weighting weighting, const RobustOptions &options = {});

// Out-of-fold predictions of k-fold cross-validation: every point is predicted by a fit made
// without it (folds drawn at random with a fixed seed, so the report is reproducible). Empty when
// there are fewer than 2 * folds points.
using LineFitter = std::function<LineFit(std::span<const Point>)>;
std::vector<double> cross_validated_predictions(std::span<const Point> points, int folds, uint64_t seed,
                                                const LineFitter &fit);

// Least squares over the per-x medians of the points: robust against heavy-tailed repeats at one
// x, while every x counts fully (for the flat trees, where a P that deviates from the line is
// the machine's behaviour, not noise).
LineFit fit_line_to_medians(std::span<const Point> points, Weighting weighting);

struct PiecewiseOptions {
  int max_pieces = 4;
  int min_points_per_piece = 3;
  // One more piece is kept only if it removes at least this fraction of the remaining weighted
  // error, and only while the relative RMS error is above good_enough_rms.
  double min_improvement = 0.5;
  double good_enough_rms = 0.02;
};

struct PiecewiseFit {
  std::vector<HockneyPiece> pieces;  // last one unbounded
  std::vector<size_t> first_point;   // index of each piece's first point
  double sse = 0;                    // relative (weights 1/y^2)
};

// Piecewise Hockney fit of (bytes, latency) points sorted by bytes with distinct bytes. Each
// piece ends at its last measured size; the breakpoints are chosen by exact dynamic programming
// over all splits between measured sizes, for every piece count up to max_pieces, and a piece
// count is accepted only when it pays off (see PiecewiseOptions). Every piece gives a positive
// time over its whole range. Returns nullopt when no valid fit exists (fewer than 2 points).
std::optional<PiecewiseFit> fit_piecewise_hockney(std::span<const Point> points, const PiecewiseOptions &options);

// A cost per byte (us/B) of local work, from (bytes, microseconds) samples of two sizes or more:
// finite and never negative, whatever the noise. Median regression over the raw samples (slope
// >= 0); where noise leaves it no positive slope (a descheduled call at a small size, a fast one at
// a large size), the largest size's median time per byte, an upper bound that includes the call's
// fixed cost. `method` says which, and why, for the table's provenance.
struct PerByteCost {
  double us_per_byte = 0;
  std::string method;
  bool fallback = false;  // noise decided: the upper bound (or 0 when even that is not positive)
};
PerByteCost fit_per_byte_cost(std::span<const Point> samples);

// What a call's temporaries cost through the allocator, as a step: glibc serves blocks it keeps
// warm, and only from some size on (mmap'd blocks, a heap top above the trim threshold) do they
// fault in anew every call. From samples (x: bytes allocated at once, y: microseconds beyond
// writing as much warm memory), per size the median cost per byte; `from_bytes` the smallest size
// measured from which every larger one costs at least kFreshStepShare of the largest size's
// per-byte cost, and `us_per_byte` the median of those sizes' costs per byte (0, and from_bytes
// 0, when even the largest costs nothing).
inline constexpr double kFreshStepShare = 0.5;
struct FreshStep {
  double from_bytes = 0;
  double us_per_byte = 0;
};
FreshStep fit_fresh_step(std::span<const Point> samples);

}  // namespace modeltuned::calib
