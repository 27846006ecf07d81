// The CSV files of the output directory (docs/validation.md): accuracy, selection, every scored
// decision and every prediction. Each throws ValidateError when the file cannot be written.
#pragma once
#include <string>
#include <vector>

#include "tools/validate/accuracy.hpp"
#include "tools/validate/measurements.hpp"
#include "tools/validate/models.hpp"
#include "tools/validate/selection.hpp"

namespace modeltuned::tools::validate {

void write_accuracy_csv(const fs::path &path, const std::vector<AccuracyRow> &rows);
void write_selection_csv(const fs::path &path, const std::vector<SelectionRow> &rows);
// Every scored case of every selection row: what was picked, what was best, both measured.
void write_decisions_csv(const fs::path &path, const std::vector<SelectionRow> &rows);
// Every measured point beside the prediction of each model in `models` (empty: not predictable).
void write_predictions_csv(const fs::path &path, const Measured &measured, const Measured &measured_max,
                           const Predictions &pred, const std::vector<std::string> &models);

}  // namespace modeltuned::tools::validate
