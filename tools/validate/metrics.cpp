// Accuracy metrics and the geometric mean (see metrics.hpp).
#include "tools/validate/metrics.hpp"

#include <algorithm>
#include <cmath>

#include "common/stats.hpp"

namespace modeltuned::tools::validate {

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

}  // namespace modeltuned::tools::validate
