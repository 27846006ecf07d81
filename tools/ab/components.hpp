// --component-arm's comparisons, from the same rounds as the main one (the baseline against
// modeltuned): per component, modeltuned against Open MPI with the component switched on
// (against-C/), and Open MPI's own decisions against the component switched on (C-alone/, ratio
// baseline job / component job). Each is scored where every one of the component's jobs completed
// (completed.hpp), and written as the main comparison is: report.txt, sizes.csv, summary.csv.
#pragma once
#include <filesystem>
#include <vector>

#include "tools/ab/analysis.hpp"
#include "tools/ab/arms.hpp"
#include "tools/ab/report.hpp"

namespace modeltuned::ab {

// `main` is the main comparison's report context; `rounds` as run, before any scoring cut them.
void write_component_comparisons(const Arms &arms, const std::vector<Round> &rounds, const ReportContext &main,
                                 const std::filesystem::path &dir);

}  // namespace modeltuned::ab
