// C API: what the component can tell a user about its calibration table (provenance checks).
#include <cstdio>
#include <map>
#include <sstream>
#include <string>

#include "model/capi/capi_internal.hpp"

using namespace modeltuned;

extern "C" int mt_table_topology_mismatch(const mt_table *table, int packages, int numa, int l3, int cores, int pus,
                                          char *msg, size_t len) {
  auto say = [&](const std::string &text) {
    if (msg && len) std::snprintf(msg, len, "%s", text.c_str());
  };
  try {
    const nlohmann::json &provenance = table->table.provenance;
    const auto hwloc = provenance.find("hwloc");
    if (hwloc == provenance.end() || !hwloc->is_object() || !hwloc->contains("signature") ||
        !(*hwloc)["signature"].is_string()) {
      say("the calibration table records no hwloc topology signature (provenance.hwloc.signature); "
          "it cannot be checked against this machine");
      return -1;
    }
    const std::string recorded = (*hwloc)["signature"].get<std::string>();
    const std::map<std::string, int> here = {
        {"pack", packages}, {"numa", numa}, {"l3", l3}, {"core", cores}, {"pu", pus}};
    std::string here_text;
    for (const char *key : {"pack", "numa", "l3", "core", "pu"})
      here_text += (here_text.empty() ? "" : " ") + std::string(key) + ":" + std::to_string(here.at(key));
    std::istringstream tokens(recorded);
    bool differs = false;
    for (std::string token; tokens >> token;) {
      const size_t colon = token.find(':');
      if (colon == std::string::npos) continue;
      const auto it = here.find(token.substr(0, colon));
      if (it != here.end() && token.substr(colon + 1) != std::to_string(it->second)) differs = true;
    }
    if (!differs) {
      say("the calibration table's topology (" + recorded + ") matches this node (" + here_text + ")");
      return 0;
    }
    std::string where;
    if (provenance.contains("host") && provenance["host"].is_string())
      where = " on " + provenance["host"].get<std::string>();
    else if (provenance.contains("source") && provenance["source"].is_string())
      where = " (" + provenance["source"].get<std::string>() + ")";
    say("the calibration table was measured" + where + " on topology '" + recorded + "', this node is '" + here_text +
        "': its costs may not hold here; calibrate this machine with modeltuned-calibrate");
    return 1;
  } catch (...) {
    say("unexpected error while reading the calibration table's provenance");
    return -1;
  }
}
