// Algorithm selection on the measured latencies: each model's pick per measured case (alone, with
// Open MPI's default as a candidate, with the component's margin or checks), scored by regret
// against the measured best; what Open MPI's fixed rules pick; and the checks fitted for the
// component from the model's residuals.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "model/calibration/table.hpp"
#include "tools/validate/measurements.hpp"

namespace modeltuned::tools::validate {

struct SelectionRow {
  std::string model;
  std::string protocol = "held-out";       // protocol.hpp: where the checks were fitted and what is scored
  std::string check_sizes;                 // the communicator sizes of the checks ("254;126;62"), calibrated-on only
  double calibration_seconds = NAN;        // what measuring those checks would take (calibrated-on only)
  std::string scored_against = "latency";  // the OSU column: latency (rank mean) or max (completion)
  Op op = Op::bcast;
  int mapping = 0;
  size_t cases = 0;
  double regret_geomean = NAN, regret_p95 = NAN, regret_worst = NAN, speedup_vs_default = NAN;
  double oracle_speedup_vs_default = NAN;  // measured best over the default: the most a pick can gain
  struct Decision {                        // one scored case, for decisions.csv
    int p = 0;
    double bytes = 0;
    int pick = 0, best = 0;                                 // tuned algorithm numbers (0: Open MPI's default)
    double pick_us = NAN, best_us = NAN, default_us = NAN;  // measured
  };
  std::vector<Decision> decisions;
};

struct FixedRulesRow {
  Op op = Op::bcast;
  int mapping = 0;
  size_t cases = 0, in_measured = 0;
  double in_measured_regret_geomean = NAN;  // the fixed rule's measured latency / best, where measured
  double default_vs_best_geomean = NAN;     // measured default / measured best of the forced ones
  std::map<std::string, size_t> picks;
};

// One (op, mapping, P, size) where every forced algorithm (and maybe the default) was measured.
struct Case {
  Key base;  // algorithm 0
  std::map<int, double> measured;
};

std::vector<Case> selection_cases(const Measured &measured);

// The model's residuals on measured collectives, ln(measured / predicted), per op, algorithm
// ("default" for algorithm 0), size band [4^k, 4^(k+1)) bytes, communicator shape and
// communicator-size band [2^j, 2^(j+1)) ranks (exact_ranks: per communicator size, as the
// calibrator measures them), from the cases with fitted(P) only: the table's checks (margin.hpp),
// fitted where they are not scored.
std::vector<CheckResidual> fit_checks(const Measured &measured, const std::map<Key, double> &predicted,
                                      const char *objective, const std::function<bool(int)> &fitted, bool exact_ranks);

// with_default: Open MPI's default decision (what its fixed rules run, predicted like any
// algorithm) is a candidate too, and the best is taken over it as well: the component can always
// leave a call to Open MPI.
// margin > 0: the component's rule (model/select/margin.hpp): the fastest forced algorithm
// replaces the default only when predicted faster by that factor.
// checks: a table with checks (margin.hpp), whose rule replaces the factor; only cases whose P
// `scored` accepts are scored (checks fitted on P <= 126 are scored on P >= 130).
struct ChecksRule {
  const CalibrationTable *table = nullptr;
  Metric metric = Metric::completion;
  std::function<bool(int)> scored = [](int) { return true; };
};

SelectionRow select_on(const std::vector<Case> &cases, const std::map<Key, double> &predicted, const std::string &model,
                       Op op, int mapping, bool with_default = false, double margin = 0, const ChecksRule &checks = {});

// A row's figures from its scored cases (decisions.csv lists the same ones).
void score(SelectionRow &row);

FixedRulesRow fixed_rules(const std::vector<Case> &cases, Op op, int mapping);

}  // namespace modeltuned::tools::validate
