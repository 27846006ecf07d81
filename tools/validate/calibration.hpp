// The calibration tables validate predicts with: fitted on p2p.csv and nbft.csv alone, plus the
// optional terms the options ask for (contention from the fan-out fits, relay from the chains).
#pragma once
#include <string>

#include "calib/fit.hpp"
#include "model/calibration/table.hpp"
#include "tools/validate/measurements.hpp"
#include "tools/validate/options.hpp"

namespace modeltuned::tools::validate {

// The table fitted on `samples` (`source` goes into its provenance) with --contention-from's
// concurrent curves and --relay-from-chains' relay cost, the latter fitted on `measured_max`; the
// relay fitted, per channel, is in provenance["relay"]["channels"].
CalibrationTable fit_validation_table(const calib::Samples &samples, const ValidateOptions &o,
                                      const std::string &source, const Measured &measured_max);

}  // namespace modeltuned::tools::validate
