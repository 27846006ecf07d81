// The ORFEO EPYC data set as `modeltuned validate` sees it: its mappings, the algorithms measured
// and how tuned ran them, the in/out-of-sample split over P, and the measured collective latencies.
#pragma once
#include <compare>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "model/simulate/call.hpp"
#include "model/topology/placement.hpp"
#include "tools/lib/emulate.hpp"

namespace modeltuned::tools::validate {

namespace fs = std::filesystem;

class ValidateError : public std::runtime_error {
  using runtime_error::runtime_error;
};

inline constexpr const char *kMappings[] = {"core", "socket", "node"};
inline constexpr MapBy kMapBy[] = {MapBy::core, MapBy::socket, MapBy::node};
inline constexpr int kMappingCount = 3;
// Fit on the first node only, predict where the second node starts (map-by core and socket).
inline constexpr int kOutOfSampleFitMaxP = 126, kOutOfSampleMinP = 130;

// The algorithms measured (tuned numbers), the default (0) first.
std::vector<int> measured_algorithms(Op op);
// "default" for algorithm 0, else the algorithm's name.
std::string algorithm_label(Op op, int algorithm);

struct Key {
  int op, algorithm, mapping, p;
  double bytes;
  auto operator<=>(const Key &) const = default;
};

// Median of the repeats of each (algorithm, P, size): the socket files hold 2-3 repeats with
// spikes of hundreds of microseconds, which a mean would pass on.
using Measured = std::map<Key, double>;

// Every bcast_<mapping>.csv and reduce_<mapping>.csv of the data directory, by OSU's column
// `latency_column`: "latency" (each rank's time averaged over ranks) or "max" (the slowest rank).
Measured read_measured(const fs::path &data, const char *latency_column);

// A measured communicator's shape (Placement::neighbor_channel, widest_channel), by mapping and P.
std::pair<Channel, Channel> shape_of(int mapping, int p);

}  // namespace modeltuned::tools::validate
