// Accuracy metrics and the geometric mean (see metrics.hpp).
#include "tools/validate/metrics.hpp"

#include <algorithm>
#include <cmath>

#include "common/stats.hpp"

namespace modeltuned::tools::validate {

double r_squared(const std::vector<double> &m, const std::vector<double> &p) {
  if (m.size() < 2) return NAN;
  double mean = 0;
  for (double v : m) mean += v;
  mean /= static_cast<double>(m.size());
  double ss_res = 0, ss_tot = 0;
  for (size_t i = 0; i < m.size(); ++i) {
    ss_res += (m[i] - p[i]) * (m[i] - p[i]);
    ss_tot += (m[i] - mean) * (m[i] - mean);
  }
  return ss_tot > 0 ? 1 - ss_res / ss_tot : NAN;
}

// Regressions can predict negative latencies; their log is taken at 0.01 us.
double r_squared_log(const std::vector<double> &m, const std::vector<double> &p) {
  std::vector<double> lm, lp;
  for (size_t i = 0; i < m.size(); ++i) {
    lm.push_back(std::log(m[i]));
    lp.push_back(std::log(std::max(p[i], 0.01)));
  }
  return r_squared(lm, lp);
}

double mdape(const std::vector<double> &m, const std::vector<double> &p) {
  std::vector<double> e;
  for (size_t i = 0; i < m.size(); ++i) e.push_back(100 * std::abs(p[i] - m[i]) / m[i]);
  return e.empty() ? NAN : median(e);
}

double geomean(const std::vector<double> &v) {
  double s = 0;
  for (double x : v) s += std::log(x);
  return v.empty() ? NAN : std::exp(s / static_cast<double>(v.size()));
}

}  // namespace modeltuned::tools::validate
