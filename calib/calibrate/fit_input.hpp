// Which of the measured samples fit_table can use. A run may end with a channel that cannot be
// fitted (the budget or an interrupt came before two p2p sizes or any flat tree): it is left out
// of the table, with a note saying why, instead of failing the whole fit; flat trees measured at
// a single P are kept (the table estimates larger groups from them), with a note when the budget,
// not the placement, was the cause. The raw CSV keeps everything.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "calib/fit.hpp"

namespace modeltuned::calibrate {

struct FitInput {
  calib::Samples samples;
  std::vector<std::string> notes;  // one line per thing left out
};

// offered_max_p[c]: the largest flat tree the placement offers on channel c (rank 0 and all its
// peers there), used to say why a channel is missing.
FitInput select_fittable(const calib::Samples &measured, const std::array<int, kChannels> &offered_max_p);

}  // namespace modeltuned::calibrate
