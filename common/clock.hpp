// The time as the tables' provenance records it.
#pragma once
#include <ctime>
#include <string>

namespace modeltuned {

// Now, in UTC, ISO 8601 to the second: "2026-11-27T03:04:05Z".
inline std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

}  // namespace modeltuned
