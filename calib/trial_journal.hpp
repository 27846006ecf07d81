// The trials' journal (docs/calibration.md, "Candidates that crash or hang"): rank 0 of
// modeltuned-calibrate writes "start OP ALGORITHM BYTES RANKS" before another component's first
// call at a size and "done ..." or "hung ..." after it; a trial that started and never ended
// crashed or hung the job. Read by the calibrator (what an earlier run left out) and by
// `modeltuned calibrate` (whether a failed run ended in a trial, so that running it again helps).
#pragma once
#include <string>
#include <vector>

#include "model/calibration/table.hpp"

namespace modeltuned {

// Where the calibrator keeps its journal when this variable names a file (`modeltuned
// calibrate` sets it); else beside its output, <output>.trials.
inline constexpr const char *kTrialJournalVariable = "MODELTUNED_CALIBRATE_JOURNAL";

// The trials in `journal` that started and never ended, in the order they started; none when
// the file does not exist. A line cut short by a crash is skipped.
std::vector<UnusableCandidate> read_trial_journal(const std::string &journal);

}  // namespace modeltuned
