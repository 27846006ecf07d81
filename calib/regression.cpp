#include "calib/regression.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <random>

#include <Eigen/Dense>

namespace modeltuned::calib {

namespace {

// Weighted least squares of y on (1, x) or on 1 alone, row weights `w` (not square-rooted);
// x is scaled to [0, 1] so the QR stays well conditioned over 1 B .. GiB.
Eigen::Vector2d weighted_line(std::span<const Point> points, const Eigen::VectorXd &w, bool with_slope) {
  const Eigen::Index n = static_cast<Eigen::Index>(points.size());
  double x_scale = 0;
  for (const auto &p : points) x_scale = std::max(x_scale, std::abs(p.x));
  if (x_scale == 0) x_scale = 1;
  Eigen::MatrixXd a(n, with_slope ? 2 : 1);
  Eigen::VectorXd b(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double sw = std::sqrt(w(i));
    a(i, 0) = sw;
    if (with_slope) a(i, 1) = sw * points[i].x / x_scale;
    b(i) = sw * points[i].y;
  }
  const Eigen::VectorXd coef = a.colPivHouseholderQr().solve(b);
  return {coef(0), with_slope ? coef(1) / x_scale : 0.0};
}

}  // namespace

LineFit fit_line_robust(std::span<const Point> points, Weighting weighting, const RobustOptions &options) {
  const Eigen::Index n = static_cast<Eigen::Index>(points.size());
  bool distinct_x = false;
  for (const auto &p : points) distinct_x = distinct_x || p.x != points.front().x;
  Eigen::VectorXd base(n);  // weights of the residuals' scale: relative error or absolute
  for (Eigen::Index i = 0; i < n; ++i) base(i) = weighting == Weighting::relative ? 1 / (points[i].y * points[i].y) : 1;

  auto irls = [&](bool with_slope) {
    Eigen::VectorXd w = base;
    Eigen::Vector2d coef = weighted_line(points, w, with_slope);
    std::vector<double> scaled(n);
    for (int iteration = 0; points.size() >= options.min_robust_points && iteration < options.max_iterations;
         ++iteration) {
      for (Eigen::Index i = 0; i < n; ++i)
        scaled[i] = std::sqrt(base(i)) * (points[i].y - coef(0) - coef(1) * points[i].x);
      const double s = robust_scale(scaled);
      if (!(s > 0)) break;  // at least half the points fit exactly: nothing to downweight
      if (options.method == RobustMethod::huber) {
        const double limit = options.huber_k * s;
        for (Eigen::Index i = 0; i < n; ++i)
          w(i) = base(i) * (std::abs(scaled[i]) <= limit ? 1 : limit / std::abs(scaled[i]));
      } else {
        // |r| = r^2 / |r|; the floor keeps points on the line from taking all the weight.
        const double floor = 1e-6 * s;
        for (Eigen::Index i = 0; i < n; ++i) w(i) = base(i) / std::max(std::abs(scaled[i]), floor);
      }
      const Eigen::Vector2d next = weighted_line(points, w, with_slope);
      const double change = (next - coef).cwiseAbs().cwiseQuotient(coef.cwiseAbs().cwiseMax(1e-300)).maxCoeff();
      coef = next;
      if (change < options.tolerance) break;
    }
    return coef;
  };

  Eigen::Vector2d coef = distinct_x ? irls(true) : irls(false);
  if (coef(1) < 0) coef = irls(false);  // time does not fall as size grows: the robust flat line
  LineFit fit{coef(0), coef(1), 0};
  for (const auto &p : points) {
    const double r = (p.y - fit.at(p.x)) * (weighting == Weighting::relative ? 1 / p.y : 1);
    fit.sse += r * r;
  }
  return fit;
}

LineFit fit_line_to_medians(std::span<const Point> points, Weighting weighting) {
  std::map<double, std::vector<double>> by_x;
  for (const auto &p : points) by_x[p.x].push_back(p.y);
  std::vector<Point> medians;
  for (const auto &[x, ys] : by_x) medians.push_back({x, median(ys)});
  if (medians.size() == 1) return {medians.front().y, 0, 0};
  return fit_line(medians, weighting);
}

std::vector<double> cross_validated_predictions(std::span<const Point> points, int folds, uint64_t seed,
                                                const LineFitter &fit_function) {
  const size_t n = points.size();
  if (folds < 2 || n < 2 * static_cast<size_t>(folds)) return {};
  std::vector<size_t> fold_of(n);
  for (size_t i = 0; i < n; ++i) fold_of[i] = i % folds;
  std::mt19937_64 rng(seed);
  std::shuffle(fold_of.begin(), fold_of.end(), rng);
  std::vector<double> predicted(n);
  for (int f = 0; f < folds; ++f) {
    std::vector<Point> training;
    for (size_t i = 0; i < n; ++i)
      if (fold_of[i] != static_cast<size_t>(f)) training.push_back(points[i]);
    const LineFit fit = fit_function(training);
    for (size_t i = 0; i < n; ++i)
      if (fold_of[i] == static_cast<size_t>(f)) predicted[i] = fit.at(points[i].x);
  }
  return predicted;
}

LineFit fit_line(std::span<const Point> points, Weighting weighting) {
  const Eigen::Index n = static_cast<Eigen::Index>(points.size());
  // x spans 1 B .. MiB; scaling it to [0, 1] keeps the QR well conditioned.
  double x_scale = 0;
  for (const auto &p : points) x_scale = std::max(x_scale, std::abs(p.x));
  if (x_scale == 0) x_scale = 1;
  Eigen::MatrixXd a(n, 2);
  Eigen::VectorXd b(n), sqrt_w(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const Point &p = points[i];
    sqrt_w(i) = weighting == Weighting::relative ? 1 / p.y : 1;
    a(i, 0) = sqrt_w(i);
    a(i, 1) = sqrt_w(i) * p.x / x_scale;
    b(i) = sqrt_w(i) * p.y;
  }
  Eigen::Vector2d coef = a.colPivHouseholderQr().solve(b);
  LineFit fit{coef(0), coef(1) / x_scale, 0};
  if (fit.slope < 0) {
    // Constrained optimum on slope = 0: the weighted mean.
    fit.slope = 0;
    fit.intercept = (sqrt_w.array().square() * (b.array() / sqrt_w.array())).sum() / sqrt_w.squaredNorm();
  }
  for (Eigen::Index i = 0; i < n; ++i) {
    const double r = sqrt_w(i) * (fit.intercept + fit.slope * points[i].x - points[i].y);
    fit.sse += r * r;
  }
  return fit;
}

PerByteCost fit_per_byte_cost(std::span<const Point> samples) {
  std::vector<Point> usable;
  std::map<double, std::vector<double>> by_size;
  for (const auto &p : samples)
    if (std::isfinite(p.x) && std::isfinite(p.y) && p.x > 0) {
      usable.push_back(p);
      by_size[p.x].push_back(p.y);
    }
  PerByteCost cost;
  if (by_size.size() >= 2) {
    const LineFit line = fit_line_robust(usable, Weighting::absolute);
    if (std::isfinite(line.slope) && line.slope > 0) {
      cost.us_per_byte = line.slope;
      cost.method = "median regression slope";
      return cost;
    }
  }
  cost.fallback = true;
  if (by_size.empty()) {
    cost.method = "no usable sample: 0";
    return cost;
  }
  const auto &[largest, times] = *by_size.rbegin();
  const double per_byte = median(times) / largest;
  const std::string why = by_size.size() < 2 ? "one size measured" : "noise left the fitted slope at 0 or below";
  if (std::isfinite(per_byte) && per_byte > 0) {
    cost.us_per_byte = per_byte;
    cost.method = why + ": the median time per byte at the largest size (" +
                  std::to_string(static_cast<long long>(largest)) + " B), an upper bound";
  } else {
    cost.method = why + ", and the largest size's median time is not positive: 0";
  }
  return cost;
}

std::optional<PiecewiseFit> fit_piecewise_hockney(std::span<const Point> points, const PiecewiseOptions &options) {
  const size_t n = points.size();
  if (n < 2) return std::nullopt;
  const double inf = std::numeric_limits<double>::infinity();
  // A piece needs min_points_per_piece points, but with little data one piece of all points.
  const size_t min_points = std::min<size_t>(std::max(options.min_points_per_piece, 2), n);

  // Piece covering points [i, j]: its range starts at the previous measured size (0 for the
  // first piece), and the time there must be positive (slope >= 0 makes it the minimum).
  std::vector<std::vector<LineFit>> piece(n, std::vector<LineFit>(n));
  std::vector<std::vector<double>> cost(n, std::vector<double>(n, inf));
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + min_points - 1; j < n; ++j) {
      const LineFit f = fit_line(points.subspan(i, j - i + 1), Weighting::relative);
      const double range_start = i == 0 ? 0 : points[i - 1].x;
      piece[i][j] = f;
      if (f.intercept + f.slope * range_start > 0) cost[i][j] = f.sse;
    }

  // best[k][j]: least error covering points [0, j] with k + 1 pieces; from[k][j]: first point
  // of the last of them.
  const size_t max_pieces = std::max(1, options.max_pieces);
  std::vector<std::vector<double>> best(max_pieces, std::vector<double>(n, inf));
  std::vector<std::vector<size_t>> from(max_pieces, std::vector<size_t>(n, 0));
  for (size_t j = 0; j < n; ++j) best[0][j] = cost[0][j];
  for (size_t k = 1; k < max_pieces; ++k)
    for (size_t j = 0; j < n; ++j)
      for (size_t i = 1; i <= j; ++i)
        if (best[k - 1][i - 1] + cost[i][j] < best[k][j]) {
          best[k][j] = best[k - 1][i - 1] + cost[i][j];
          from[k][j] = i;
        }

  // Fewest pieces that explain the data: add one only when it pays off.
  size_t chosen = max_pieces;
  for (size_t k = 0; k < max_pieces; ++k) {
    if (!std::isfinite(best[k][n - 1])) continue;
    if (chosen == max_pieces) chosen = k;
    const double rms = std::sqrt(best[chosen][n - 1] / n);
    if (k > chosen && rms > options.good_enough_rms &&
        best[k][n - 1] < (1 - options.min_improvement) * best[chosen][n - 1])
      chosen = k;
  }
  if (chosen == max_pieces) return std::nullopt;

  PiecewiseFit result;
  result.sse = best[chosen][n - 1];
  size_t j = n - 1;
  for (size_t k = chosen + 1; k-- > 0;) {
    const size_t i = k == 0 ? 0 : from[k][j];
    const LineFit &f = piece[i][j];
    HockneyPiece p;
    p.upto_bytes = j == n - 1 ? inf : points[j].x;
    p.alpha_us = f.intercept;
    p.beta_us_per_byte = f.slope;
    result.pieces.insert(result.pieces.begin(), p);
    result.first_point.insert(result.first_point.begin(), i);
    if (i > 0) j = i - 1;
  }
  return result;
}

FreshStep fit_fresh_step(std::span<const Point> samples) {
  std::map<double, std::vector<double>> by_size;
  for (const Point &p : samples)
    if (p.x > 0 && std::isfinite(p.y)) by_size[p.x].push_back(p.y);
  std::vector<std::pair<double, double>> per_byte;  // (size, median cost per byte), ascending
  for (auto &[bytes, us] : by_size) per_byte.emplace_back(bytes, std::max(0.0, median(us)) / bytes);
  if (per_byte.empty() || !(per_byte.back().second > 0)) return {};
  const double top = per_byte.back().second;
  size_t first = per_byte.size() - 1;
  while (first > 0 && per_byte[first - 1].second >= kFreshStepShare * top) --first;
  std::vector<double> costs;
  for (size_t i = first; i < per_byte.size(); ++i) costs.push_back(per_byte[i].second);
  return {per_byte[first].first, median(costs)};
}

}  // namespace modeltuned::calib
