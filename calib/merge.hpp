// Combining calibration tables measured in separate runs on one kind of machine: typically one
// run on a full node (the cache, core and socket channels at full core count) and one across
// nodes with one or a few ranks per node (the node channel). `modeltuned fit --merge`.
#pragma once
#include <string>
#include <vector>

#include "calib/fit.hpp"
#include "model/calibration/table.hpp"

namespace modeltuned::calib {

struct MergeInput {
  std::string name;  // for messages and the provenance (the file name)
  CalibrationTable table;
};

// Each channel comes from the input that measured it with the largest group (the largest P of
// its fan-out curve; on a tie, the earlier input); the local reduction and fresh-memory costs
// from the first input that measured them. Refuses, with one line naming both inputs, tables
// from different node topologies (provenance.hwloc.signature) or Open MPI versions
// (provenance.mpi_library), where both say. Throws FitError.
CalibrationTable merge_tables(const std::vector<MergeInput> &inputs);

// "Open MPI v4.1.4" from MPI_Get_library_version's text; empty when not recognised.
std::string mpi_version_of(const std::string &library_version);

}  // namespace modeltuned::calib
