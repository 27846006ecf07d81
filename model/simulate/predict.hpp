// Predicted latency of one candidate on one placement.
#pragma once
#include <array>
#include <cstddef>
#include <optional>
#include <vector>

#include "calibration/table.hpp"
#include "schedule/algorithms.hpp"
#include "topology/placement.hpp"

namespace modeltuned {

// What a call looks like: every rank passes the same values (MPI requires matching signatures).
struct CallShape {
  Op op = Op::bcast;
  size_t count = 0;
  size_t type_size = 1;
  int root = 0;
  bool commutative = true;
  size_t bytes() const { return count * type_size; }
};

// stage_sum: the seed report's model (eq. 2-3): a tree algorithm runs in depth + segments - 1
// serial stages; each stage costs its slowest flat tree.
enum class ModelVariant { stage_sum };

// Open MPI's segmentation (COLL_BASE_COMPUTED_SEGCOUNT): elements per segment and segments.
struct Segmentation {
  size_t segcount = 0;
  size_t segments = 1;
};
Segmentation segmentation(uint32_t segsize, size_t type_size, size_t count);

// The part of a prediction that depends on the tree and placement but not on message size:
// for each tree depth, the distinct flat trees its internal ranks run, as peers per channel.
// Built once per (algorithm, fan-out, root) and evaluated for every segment size.
using PeersPerChannel = std::array<int, kChannels>;
struct TreeShape {
  std::vector<std::vector<PeersPerChannel>> flat_trees_by_depth;
  int final_send_channel = -1;  // in-order binary: last rank sends the result to the root
};

// Nullopt when the model cannot predict the algorithm.
std::optional<TreeShape> tree_shape(const Placement &placement, Op op, int algorithm, int fanout,
                                    int root);
double evaluate_shape(const CalibrationTable &table, const TreeShape &shape, const CallShape &call,
                      uint32_t segsize, ModelVariant variant = ModelVariant::stage_sum);

// Nullopt when the model cannot predict the candidate or Open MPI would silently run another
// algorithm for this call (so the selector never picks it).
std::optional<double> predict_us(const CalibrationTable &table, const Placement &placement,
                                 const Candidate &candidate, const CallShape &call,
                                 ModelVariant variant = ModelVariant::stage_sum);

}  // namespace modeltuned
