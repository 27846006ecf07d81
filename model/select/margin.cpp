#include "model/select/margin.hpp"

#include <algorithm>

namespace modeltuned {

double held_out_uncertainty(const CalibrationTable &table) {
  double worst = 0;
  const auto fit = table.provenance.find("fit");
  if (fit == table.provenance.end() || !fit->is_object()) return 0;
  for (const auto &channel : *fit) {
    if (!channel.is_object()) continue;
    for (const auto &kind : channel) {
      if (!kind.is_object()) continue;
      const auto held_out = kind.find("held_out");
      if (held_out == kind.end() || !held_out->is_object()) continue;
      const auto ape = held_out->find("median_ape");
      if (ape != held_out->end() && ape->is_number() && ape->get<double>() > 0)
        worst = std::max(worst, ape->get<double>() / 100);
    }
  }
  return std::min(worst, kMaxUncertainty);
}

}  // namespace modeltuned
