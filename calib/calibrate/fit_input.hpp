// Which of the measured samples fit_table can use. A run may end with a channel that cannot be
// fitted (rank 0 has a single peer there, so flat trees exist only at P = 2; or the budget or an
// interrupt cut the flat trees before a second P): such parts are left out of the table, with a
// note saying why, instead of failing the whole fit. The raw CSV keeps everything.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "fit.hpp"

namespace modeltuned::calibrate {

struct FitInput {
  calib::Samples samples;
  std::vector<std::string> notes;  // one line per thing left out
};

// offered_max_p[c]: the largest flat tree the placement offers on channel c (rank 0 and all its
// peers there), used to say why a channel is missing.
FitInput select_fittable(const calib::Samples &measured, const std::array<int, kChannels> &offered_max_p);

}  // namespace modeltuned::calibrate
