// The ORFEO EPYC data set: reading the measured collectives, and what tuned ran for each.
#include "tools/validate/measurements.hpp"

#include <fmt/format.h>

#include "calib/csv.hpp"
#include "common/stats.hpp"
#include "model/registry/registry.hpp"

namespace modeltuned::tools::validate {

std::vector<int> measured_algorithms(Op op) {
  return op == Op::bcast ? std::vector{0, 1, 2, 5, 6} : std::vector{0, 1, 2, 4};
}

std::string algorithm_label(Op op, int algorithm) {
  if (algorithm == 0) return "default";
  const AlgorithmSpec *spec = find_algorithm(op, algorithm);
  return spec ? std::string(spec->name) : std::to_string(algorithm);
}

namespace {

void read_collective_csv(const fs::path &path, Op op, int mapping, const char *latency_column, Measured &out) {
  if (!fs::exists(path))
    throw ValidateError(fmt::format("{}: cannot open; --data must be the orfeo-epyc data directory", path.string()));
  calib::CsvReader csv(path.string(), {"algorithm", "cores", "size", latency_column});
  std::map<Key, std::vector<double>> repeats;
  while (csv.next_row()) {
    Key k{static_cast<int>(op), csv.integer("algorithm"), mapping, csv.integer("cores"), csv.positive("size")};
    if (k.p < 2) throw ValidateError(csv.where() + ": column 'cores': a collective needs P >= 2");
    repeats[k].push_back(csv.positive(latency_column));
  }
  for (auto &[k, v] : repeats) out[k] = median(v);
}

}  // namespace

Measured read_measured(const fs::path &data, const char *latency_column) {
  Measured measured;
  for (Op op : {Op::bcast, Op::reduce})
    for (int m = 0; m < kMappingCount; ++m)
      read_collective_csv(data / fmt::format("{}_{}.csv", op_name(op), kMappings[m]), op, m, latency_column, measured);
  return measured;
}

std::pair<Channel, Channel> shape_of(int mapping, int p) {
  // Cached: fit_checks and select_on ask for the same (mapping, P) many times, and each is an emulation.
  static std::map<std::pair<int, int>, std::pair<Channel, Channel>> shapes;
  auto it = shapes.find({mapping, p});
  if (it == shapes.end()) {
    const Placement placement = emulate_placement(orfeo_epyc(2), p, kMapBy[mapping]);
    const std::pair shape{placement.neighbor_channel(), placement.widest_channel()};
    it = shapes.emplace(std::pair{mapping, p}, shape).first;
  }
  return it->second;
}

}  // namespace modeltuned::tools::validate
