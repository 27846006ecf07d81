// The options of `modeltuned validate` (registered in tools/validate/validate.cpp).
#pragma once
#include <string>
#include <vector>

namespace modeltuned::tools::validate {

struct ValidateOptions {
  std::string data_dir, out_dir, variant = "both";
  bool plots = true, quick = false;
  // Same estimate as the shipped table (calib/local.mk, ORFEO_REDUCE_US_PER_BYTE): the data set
  // has no local-reduction measurement.
  double reduce_us_per_byte = 5e-5;
  // Off by default: derived from nbft.csv above 64 KiB (--contention-from 65536) it improves the
  // selection under map-by core but worsens the chain's accuracy (docs/validation.md).
  double contention_from_bytes = 0;
  std::string checks_out;  // where to write the fitted checks (JSON), for modeltuned fit --checks
  // Fit each mapping's neighbour channel's relay cost on the forced chain bcasts at P <= 126
  // (collective data, scored on P >= 130 only: issue 12, item 5).
  bool relay_from_chains = false;
  // The realistic protocols (protocol.hpp): one per allocation size N, checks fitted on the sizes
  // modeltuned-calibrate measures there, scored on the other sizes.
  std::vector<int> calibrated_on;
};

}  // namespace modeltuned::tools::validate
