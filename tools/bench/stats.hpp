// Order statistics for benchmark repetitions: the median and a distribution-free confidence
// interval for it. Latency samples are skewed and heavy-tailed (preemption, page faults), so a
// mean with a normal interval would describe noise; the median's interval from order statistics
// assumes only independent repetitions.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <vector>

namespace modeltuned::bench {

struct MedianCi {
  double median = 0;
  std::optional<double> low, high;  // empty when there are too few samples for the confidence
  double coverage = 0;              // the interval's exact coverage (>= the requested level)
};

// The median of the samples (mean of the two middle ones for an even count).
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  if (n == 0) return 0;
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// [x(l+1), x(n-l)] (1-based order statistics) covers the population median with probability
// 1 - 2 P(B <= l), B ~ Binomial(n, 1/2): the number of samples below the median. The widest l
// whose coverage still reaches `level` gives the narrowest such interval.
inline MedianCi median_ci(std::vector<double> v, double level = 0.95) {
  std::sort(v.begin(), v.end());
  MedianCi out;
  const size_t n = v.size();
  if (n == 0) return out;
  out.median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  const double log_half_n = n * std::log(0.5);
  double cdf = 0;  // P(B <= l)
  for (size_t l = 0; 2 * l + 1 < n; ++l) {
    cdf += std::exp(std::lgamma(n + 1.0) - std::lgamma(l + 1.0) - std::lgamma(double(n - l) + 1) +
                    log_half_n);
    const double coverage = 1 - 2 * cdf;
    if (coverage < level) break;
    out.low = v[l];
    out.high = v[n - 1 - l];
    out.coverage = coverage;
  }
  return out;
}

}  // namespace modeltuned::bench
