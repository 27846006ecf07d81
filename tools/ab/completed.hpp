// With --baseline-may-fail: a baseline whose job can fail part way (Open MPI with a component
// switched on that crashes at some sizes) is scored only where it completed. Its tables must be a
// prefix of the modeltuned job's (the same tables, names and sizes, cut short); every round's
// tables are then cut to the sizes that every round's baseline completed, and a table no baseline
// reached is left out.
#pragma once
#include <string>
#include <vector>

#include "tools/ab/analysis.hpp"

namespace modeltuned::ab {

// Cuts `rounds` as above, the first round's modeltuned tables being the full ones; returns one
// line per table cut or left out, naming the sizes and how the baseline jobs ended. Throws
// RunError where a baseline's tables are no prefix of the modeltuned job's.
std::vector<std::string> score_completed(std::vector<Round> &rounds);

}  // namespace modeltuned::ab
