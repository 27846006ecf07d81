// The C API's opaque types, shared by its implementation files (capi.cpp, table_info.cpp).
#pragma once
#include "model/calibration/table.hpp"
#include "model/capi/modeltuned_model.h"

// The provenance keys the component reads: "fit" (the held-out margin, select/margin.cpp), "hwloc",
// "host" and "source" (the topology warning, table_info.cpp). mt_table_load keeps only these.
inline constexpr const char *kProvenanceTheComponentReads[] = {"fit", "hwloc", "host", "source"};

struct mt_table {
  modeltuned::CalibrationTable table;
};
