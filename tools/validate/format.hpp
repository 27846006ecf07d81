// How validate's tables print a number: fixed digits, "nan" for anything not finite (a metric of
// no points, a regression that failed), so every output file parses the same way.
#pragma once
#include <cmath>
#include <string>

#include <fmt/format.h>

namespace modeltuned::tools::validate {

inline std::string num(double v, int digits = 3) {
  return std::isfinite(v) ? fmt::format("{:.{}f}", v, digits) : "nan";
}

}  // namespace modeltuned::tools::validate
