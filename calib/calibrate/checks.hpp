// Held-out checks (docs/calibration.md, "Checks"): after the fit, the calibrator runs Open MPI's
// default decision and the configurations the fitted model ranks best on MPI_COMM_WORLD, at two
// sizes in every size band, and records how far the model's predictions were off (the table's
// `checks`). The margin (model/select/margin.hpp) then leaves the default only where these
// measurements say the pick is faster, and keeps it wherever nothing was measured.
//
// Configurations run through tuned, forced per communicator with its MPI_T variables
// (coll_tuned_<op>_algorithm, _segmentsize, _chain_fanout, bcast _knomial_radix): the same
// ompi_coll_base_* functions with the same arguments as modeltuned's dispatch. Tuned reads them
// only with coll_tuned_use_dynamic_rules, a start-up variable: request_forced_algorithms sets it
// in the environment before MPI_Init. Nothing forced, tuned then runs its fixed rules (the default).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "calib/calibrate/progress.hpp"
#include "calib/calibrate/trials.hpp"
#include "model/calibration/table.hpp"
#include "model/schedule/ompi_version.hpp"
#include "model/simulate/call.hpp"
#include "model/topology/placement.hpp"

namespace modeltuned::calibrate {

// Before MPI_Init. Leaves a value the user set alone.
void request_forced_algorithms();
// After MPI_Init, the same on every rank: why checks cannot be measured ("" when they can).
std::string checks_unavailable();

// The sizes measured for an op up to max_bytes: 4^k and 2 * 4^k (the reductions: multiples of 4
// bytes, MPI_INT), two per size band [4^k, 4^(k+1)) of the table's checks; a barrier's one call
// (0 bytes, band [0, 1)).
std::vector<uint64_t> check_sizes(Op op, uint64_t max_bytes);

// How many of the best-predicted candidates are measured beside the default and the best of each
// other algorithm, per size and objective.
inline constexpr int kCheckedCandidates = 3;

// Which configurations the checks measure beside Open MPI's default.
enum class CheckedCandidates {
  // The model's kCheckedCandidates best and the best of every other algorithm, with the segment
  // sizes and fan-outs the model ranks best: what modeltuned needs to leave the default.
  model,
  // Every algorithm with the parameters tuned gives it when forced (no segments, its default
  // fan-out or radix) and nothing the model ranks: what a model-free autotuner measures. For
  // comparing the model's value against measuring alone, at the same budget.
  algorithms,
};

struct ChecksResult {
  std::vector<CheckResidual> residuals;  // rank 0
  std::string source;
  nlohmann::json provenance;  // rank 0: settings, and per op, size and configuration the predictions and medians
  std::string problem;        // why no checks were measured ("" when they were)
};

// Collective over MPI_COMM_WORLD. `table` (rank 0; ignored elsewhere) is the fitted table without
// checks, with the algorithms earlier runs found unusable; `placement` is MPI_COMM_WORLD's (every
// rank's copy is the same). Measures in rounds until `deadline` (MPI_Wtime, rank 0's) or
// `max_rounds` (0: 40), at least 3 rounds when the first fits. Another component's first call at
// each size runs as one of `trials` (nullptr: unwatched).
ChecksResult measure_checks(const CalibrationTable *table, const Placement &placement, OmpiVersion ompi,
                            CheckedCandidates candidates, uint64_t max_bytes, int max_rounds, double deadline,
                            uint64_t seed, Progress &progress, Trials *trials);

}  // namespace modeltuned::calibrate
