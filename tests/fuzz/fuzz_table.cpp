// libFuzzer target: the calibration table parser (model/calibration/table.cpp). Any input either
// fails with one CalibrationError line or yields a table whose canonical text parses back to the
// same table and checksum (what the component's cross-rank agreement relies on).
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "model/calibration/table.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string_view text(reinterpret_cast<const char *>(data), size);
  modeltuned::CalibrationTable table;
  try {
    table = modeltuned::parse_calibration(text, "fuzz.json");
  } catch (const modeltuned::CalibrationError &e) {
    if (std::string_view(e.what()).find('\n') != std::string_view::npos) std::abort();  // one line
    return 0;
  }
  const std::string canonical = modeltuned::to_json_text(table);
  const modeltuned::CalibrationTable again = modeltuned::parse_calibration(canonical, "canonical.json");
  if (!(again.channels == table.channels) || again.checksum != table.checksum ||
      modeltuned::to_json_text(again) != canonical)
    std::abort();
  return 0;
}
