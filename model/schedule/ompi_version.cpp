#include "model/schedule/ompi_version.hpp"

namespace modeltuned {

std::optional<OmpiVersion> parse_ompi_version(std::string_view text) {
  auto line = [&](std::string_view series) {
    return text == series ||
           (text.size() > series.size() && text.substr(0, series.size()) == series && text[series.size()] == '.');
  };
  if (line("4.1")) return OmpiVersion::v4_1;
  if (line("5.0")) return OmpiVersion::v5_0;
  if (line("6.0")) return OmpiVersion::v6_0;
  return std::nullopt;
}

std::string_view ompi_version_name(OmpiVersion v) {
  switch (v) {
    case OmpiVersion::v4_1:
      return "4.1";
    case OmpiVersion::v5_0:
      return "5.0";
    case OmpiVersion::v6_0:
      return "6.0";
  }
  return "4.1";
}

std::string_view ompi_version_names() { return "4.1, 5.0 or 6.0"; }

}  // namespace modeltuned
