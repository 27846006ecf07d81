// What every algorithm family's evaluator shares: the evaluation context, Open MPI's
// segmentation, and the cost of a step of concurrent transfers.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "model/calibration/table.hpp"
#include "model/cost/channel_cost.hpp"
#include "model/schedule/rounds.hpp"
#include "model/simulate/call.hpp"
#include "model/topology/placement.hpp"

namespace modeltuned {

// Open MPI's segmentation (COLL_BASE_COMPUTED_SEGCOUNT): elements per segment and segments.
struct Segmentation {
  size_t segcount = 0;
  size_t segments = 1;
};
Segmentation segmentation(uint32_t segsize, size_t type_size, size_t count);

using PeersPerChannel = std::array<int, kChannels>;

// Bit c set: some transfer of a step goes through channel c.
using ChannelMask = unsigned;

// The channels a round's transfers go through.
ChannelMask round_mask(const Placement &placement, const Round &round);

// Cost of a step moving `bytes` per pair through the channels of `mask`: its slowest transfer.
double step_us(const CalibrationTable &table, ChannelMask mask, double bytes);
// The same step when `ranks` ranks are busy in it at once (every rank of a recursive-doubling
// round, the senders and receivers of a scatter round): each transfer costs what the channel's
// contention curve says for that many busy ranks (busy_round_us); as step_us without curves.
double busy_step_us(const CalibrationTable &table, ChannelMask mask, double bytes, BusyRound kind, int ranks);
// A step whose senders pass on what they received in an earlier step (every step of an
// algorithm after its first): the largest relay cost among the channels of `mask` (relay_us).
double relay_step_us(const CalibrationTable &table, ChannelMask mask, double bytes);

struct TreePlan;
// How a tree algorithm's flat trees combine into the collective's completion time, given each
// distinct flat tree's time per segment. The model's own is schedule_us (docs/model.md); tools
// pass others to compare with it.
using TreeSchedule = double (*)(const TreePlan &plan, std::span<const double> flat_us, size_t segments);

// What an evaluator is given besides its plan.
struct Evaluation {
  const CalibrationTable &table;
  const CallShape &call;
  const Candidate &candidate;            // its segment size and fan-out
  TreeSchedule tree_schedule = nullptr;  // nullptr: the model's schedule
};

}  // namespace modeltuned
