#include "common/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace modeltuned {

double median(std::vector<double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + mid, values.end());
  const double upper = values[mid];
  if (values.size() % 2) return upper;
  return (*std::max_element(values.begin(), values.begin() + mid) + upper) / 2;
}

double upper_median(std::vector<double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

double quantile(std::vector<double> values, double q) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const double at = std::clamp(q, 0.0, 1.0) * (values.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(at));
  const size_t above = std::min(below + 1, values.size() - 1);
  return values[below] + (at - below) * (values[above] - values[below]);
}

double robust_scale(const std::vector<double> &values) {
  const double center = median(values);
  std::vector<double> deviations;
  deviations.reserve(values.size());
  for (double v : values) deviations.push_back(std::abs(v - center));
  return 1.4826 * median(deviations);
}

MedianCi median_ci(std::vector<double> values, double level) {
  MedianCi out;
  out.median = median(values);
  const size_t n = values.size();
  std::sort(values.begin(), values.end());
  const double log_half_n = n * std::log(0.5);
  double cdf = 0;  // P(B <= l)
  for (size_t l = 0; 2 * l + 1 < n; ++l) {
    cdf += std::exp(std::lgamma(n + 1.0) - std::lgamma(l + 1.0) - std::lgamma(double(n - l) + 1) + log_half_n);
    const double coverage = 1 - 2 * cdf;
    if (coverage < level) break;
    out.low = values[l];
    out.high = values[n - 1 - l];
    out.coverage = coverage;
  }
  return out;
}

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The continued fraction of I_x(a, b) (modified Lentz), which converges fast for x < (a+1)/(a+b+2).
double beta_fraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300, kEpsilon = 1e-15;
  double c = 1, d = 1 - (a + b) * x / (a + 1);
  if (std::abs(d) < kTiny) d = kTiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 10000; ++m) {
    for (int step = 0; step < 2; ++step) {  // the even term, then the odd one
      const double coefficient = step == 0 ? m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
                                           : -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
      d = 1 + coefficient * d;
      if (std::abs(d) < kTiny) d = kTiny;
      c = 1 + coefficient / c;
      if (std::abs(c) < kTiny) c = kTiny;
      d = 1 / d;
      h *= d * c;
      if (step == 1 && std::abs(d * c - 1) < kEpsilon) return h;
    }
  }
  return h;
}

}  // namespace

double incomplete_beta(double a, double b, double x) {
  if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1)) return kNaN;
  if (x == 0 || x == 1) return x;
  const double log_front = std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  if (x < (a + 1) / (a + b + 2)) return std::exp(log_front) * beta_fraction(a, b, x) / a;
  return 1 - std::exp(log_front) * beta_fraction(b, a, 1 - x) / b;
}

double student_t_cdf(double t, double dof) {
  if (!(dof > 0) || std::isnan(t)) return kNaN;
  if (std::isinf(t)) return t > 0 ? 1 : 0;
  const double tail = 0.5 * incomplete_beta(dof / 2, 0.5, dof / (dof + t * t));  // P(T > |t|)
  return t >= 0 ? 1 - tail : tail;
}

double student_t_quantile(double p, double dof) {
  if (!(dof > 0) || !(p > 0) || !(p < 1)) return kNaN;
  if (p < 0.5) return -student_t_quantile(1 - p, dof);
  double low = 0, high = 1;
  while (student_t_cdf(high, dof) < p && high < 1e300) high *= 2;
  for (int i = 0; i < 2000 && high - low > 1e-13 * high; ++i) {
    const double mid = (low + high) / 2;
    (student_t_cdf(mid, dof) < p ? low : high) = mid;
  }
  return (low + high) / 2;
}

double r_squared(const std::vector<double> &measured, const std::vector<double> &predicted) {
  if (measured.size() < 2) return kNaN;
  double mean = 0;
  for (double v : measured) mean += v / static_cast<double>(measured.size());
  double ss_res = 0, ss_tot = 0;
  for (size_t i = 0; i < measured.size(); ++i) {
    ss_res += (predicted[i] - measured[i]) * (predicted[i] - measured[i]);
    ss_tot += (measured[i] - mean) * (measured[i] - mean);
  }
  return ss_tot > 0 ? 1 - ss_res / ss_tot : kNaN;
}

double geometric_mean(const std::vector<double> &values) {
  if (values.empty()) return kNaN;
  double sum = 0;
  for (double v : values) {
    if (!(v > 0)) return kNaN;
    sum += std::log(v);
  }
  return std::exp(sum / values.size());
}

RatioCi ratio_ci(const std::vector<double> &ratios, double level) {
  RatioCi out;
  out.n = ratios.size();
  out.geomean = geometric_mean(ratios);
  out.low = out.high = kNaN;
  if (out.n < 2 || std::isnan(out.geomean)) return out;
  const double mean = std::log(out.geomean);
  double squares = 0;
  for (double r : ratios) squares += (std::log(r) - mean) * (std::log(r) - mean);
  const double standard_error = std::sqrt(squares / (out.n - 1) / out.n);
  const double half = student_t_quantile((1 + level) / 2, out.n - 1.0) * standard_error;
  out.low = std::exp(mean - half);
  out.high = std::exp(mean + half);
  return out;
}

bool significantly_above(const RatioCi &ci, double x) { return ci.low > x; }
bool significantly_below(const RatioCi &ci, double x) { return ci.high < x; }

}  // namespace modeltuned
