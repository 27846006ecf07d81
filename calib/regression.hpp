// Straight-line fits and the piecewise (segmented) Hockney fit used by the calibration.
#pragma once
#include <optional>
#include <span>
#include <vector>

#include "calibration/table.hpp"

namespace modeltuned::calib {

struct Point { double x; double y; };

struct LineFit {
  double intercept = 0;
  double slope = 0;
  double sse = 0;  // weighted sum of squared residuals
};

enum class Weighting {
  absolute,  // ordinary least squares
  relative,  // weights 1/y^2: minimizes relative error, so small y are not drowned by large ones
};

// Least squares y = intercept + slope * x with slope >= 0 (time never falls as size or P grows
// within one fit; when the free fit says otherwise the noise wins, and the best flat line is the
// constrained optimum). Needs at least two distinct x.
LineFit fit_line(std::span<const Point> points, Weighting weighting);

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

double median(std::vector<double> values);

}  // namespace modeltuned::calib
