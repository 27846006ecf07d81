// report.md: accuracy beside the seed report's tables, selection, Open MPI's fixed rules and the
// targets of docs/validation.md, checked.
#pragma once
#include <string>
#include <vector>

#include "model/calibration/table.hpp"
#include "tools/validate/accuracy.hpp"
#include "tools/validate/measurements.hpp"
#include "tools/validate/options.hpp"
#include "tools/validate/selection.hpp"

namespace modeltuned::tools::validate {

// `plots`: the PNGs drawn under plots/, linked at the end.
void write_report(const fs::path &path, const ValidateOptions &o, const CalibrationTable &table,
                  const std::vector<AccuracyRow> &acc, const std::vector<SelectionRow> &sel,
                  const std::vector<FixedRulesRow> &fixed, const std::vector<std::string> &plots);

}  // namespace modeltuned::tools::validate
