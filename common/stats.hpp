// Statistics shared by the calibration, the tools and the benchmarks: one median, one quantile,
// one robust scale, the median's confidence interval for benchmark repetitions, and Student's t
// interval on the logarithm of paired ratios (modeltuned ab's A/B across jobs).
// Rule for empty input: the statistic of no values is NaN (an interval has no bounds), so a caller
// that forgets the case gets a value that poisons what it touches instead of a plausible 0.
#pragma once
#include <optional>
#include <vector>

namespace modeltuned {

// The median: the middle value, or the mean of the two middle ones for an even count.
double median(std::vector<double> values);
// The upper median: the middle value, or the larger of the two middle ones for an even count (the
// calibrator's planning estimate uses it; the tables never do).
double upper_median(std::vector<double> values);
// Linear-interpolated quantile, q in [0, 1] (clamped).
double quantile(std::vector<double> values, double q);
// 1.4826 * median absolute deviation from the median: the standard deviation for Gaussian data,
// unmoved by a minority of outliers.
double robust_scale(const std::vector<double> &values);

// The median and a distribution-free confidence interval for it. Latency samples are skewed and
// heavy-tailed (preemption, page faults), so a mean with a normal interval would describe noise;
// the median's interval from order statistics assumes only independent repetitions.
struct MedianCi {
  double median = 0;                // NaN for no samples
  std::optional<double> low, high;  // empty when there are too few samples for the confidence
  double coverage = 0;              // the interval's exact coverage (>= the requested level)
};
// [x(l+1), x(n-l)] (1-based order statistics) covers the population median with probability
// 1 - 2 P(B <= l), B ~ Binomial(n, 1/2): the number of samples below the median. The widest l
// whose coverage still reaches `level` gives the narrowest such interval.
MedianCi median_ci(std::vector<double> values, double level = 0.95);

// The regularized incomplete beta function I_x(a, b), a, b > 0, x in [0, 1] (continued fraction).
double incomplete_beta(double a, double b, double x);
// Student's t distribution with `dof` > 0 degrees of freedom: P(T <= t), and its inverse for p in
// (0, 1) (bisection on the distribution function; t(0.975, 5) = 2.5706). NaN outside the domain.
double student_t_cdf(double t, double dof);
double student_t_quantile(double p, double dof);

// The coefficient of determination of `predicted` against `measured` (aligned by index): NaN for
// fewer than two points or constant measurements.
double r_squared(const std::vector<double> &measured, const std::vector<double> &predicted);

// The geometric mean: exp of the mean logarithm. NaN for no values or a value <= 0.
double geometric_mean(const std::vector<double> &values);

// A ratio's geometric mean over paired repetitions and its confidence interval: Student's t on
// ln(ratio), so the interval is symmetric in log space (a ratio and its inverse get mirrored
// intervals) and assumes only that the log ratios of independent repetitions are roughly normal.
struct RatioCi {
  double geomean = 0;        // NaN when a ratio is not positive
  double low = 0, high = 0;  // NaN for fewer than two ratios
  size_t n = 0;
};
RatioCi ratio_ci(const std::vector<double> &ratios, double level = 0.95);
// "Significantly slower than x": the whole interval is above x; "faster than x": below it.
bool significantly_above(const RatioCi &ci, double x);
bool significantly_below(const RatioCi &ci, double x);

}  // namespace modeltuned
