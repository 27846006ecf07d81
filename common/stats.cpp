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

}  // namespace modeltuned
