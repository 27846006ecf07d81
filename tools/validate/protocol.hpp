// Where the component's checks are fitted and where it is scored. The held-out protocol fits them
// on every communicator size of the first node (P <= 126, pooled in power-of-two bands) and scores
// on the second (P >= 130). The realistic one, --calibrated-on N, is what a user gets who
// calibrates once on an N-rank allocation and then runs communicators of other sizes: checks on
// exactly the sizes modeltuned-calibrate measures there (check_group_sizes), scored on every other
// measured size from the smallest of them / 2 up to N, beside the model-free baseline of a user
// who measured the same sizes (nearest) and the measured best (oracle).
#pragma once
#include <string>
#include <vector>

#include "tools/validate/measurements.hpp"
#include "tools/validate/selection.hpp"

namespace modeltuned::tools::validate {

struct Protocol {
  std::string name;              // "held-out" or "calibrated-on-N"
  std::vector<int> check_sizes;  // the communicator sizes checks are fitted on; empty: P <= 126, pooled
  int allocation = 0;            // N (calibrated-on)

  // Whether the checks are fitted on P, and whether P is scored.
  bool fits(int p) const;
  bool scores(int p) const;
  std::string sizes_text() const;  // "254;126;62", "" for held-out
};

Protocol held_out_protocol();
Protocol calibrated_on(int ranks);

// The baseline without a model: per case, what was measured fastest (the default included) at the
// same mapping, message size and op on the check size nearest P (in ratio; ties to the larger);
// the default where that was not measured.
SelectionRow select_nearest(const std::vector<Case> &cases, const Protocol &protocol, Op op, int mapping);
// The measured best, per case: the most any rule could get.
SelectionRow select_oracle(const std::vector<Case> &cases, const Protocol &protocol, Op op, int mapping);

// Seconds modeltuned-calibrate would spend measuring the checks of `protocol` for `mapping` on the
// data set's machine: per check size, op, message size it measures (4^k and 2 x 4^k, up to the
// data's largest) and configuration (the default twice, each measured algorithm once), the
// slowest rank's time plus a barrier (estimated as two 1-byte default bcasts), times the rounds it
// runs plus its warm-up round.
double calibration_seconds(const Measured &measured_max, const Protocol &protocol, int mapping, int rounds);
// The rounds modeltuned-calibrate runs per check (calib/calibrate/checks.cpp, kMaxRounds).
inline constexpr int kCalibratorRounds = 40;

}  // namespace modeltuned::tools::validate
