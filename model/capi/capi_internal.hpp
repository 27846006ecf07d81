// The C API's opaque types, shared by its implementation files (capi.cpp, table_info.cpp).
#pragma once
#include "model/calibration/table.hpp"
#include "model/capi/modeltuned_model.h"

struct mt_table {
  modeltuned::CalibrationTable table;
};
