#include "model/collectives/allreduce/simulate.hpp"

namespace modeltuned {
namespace {

// Elements of the largest ring block (COLL_BASE_COMPUTE_BLOCKCOUNT's early block).
size_t early_block(size_t count, size_t blocks) { return (count + blocks - 1) / blocks; }

// One reduce-scatter pass around the ring on blocks of `block` bytes: P - 1 steps, each receiving
// a block, combining it and passing it on (after the first, what an earlier step delivered).
double ring_reduce_scatter_us(const CalibrationTable &table, const RingPlan &plan, double block) {
  const double first = busy_step_us(table, plan.ring, block, BusyRound::exchange, plan.size);
  const double later = first + relay_step_us(table, plan.ring, block);
  return first + (plan.size - 2) * later + (plan.size - 1) * block * table.reduce_us_per_byte;
}

// The allgather around the ring: P - 1 exchanges of whole blocks, each passing on the last one.
double ring_allgather_us(const CalibrationTable &table, const RingPlan &plan, double block) {
  return (plan.size - 1) * (busy_step_us(table, plan.ring, block, BusyRound::exchange, plan.size) +
                            relay_step_us(table, plan.ring, block));
}

}  // namespace

LinearAllreducePlan linear_allreduce_plan(const Placement &placement) {
  return LinearAllreducePlan{placement.size(), linear_plan(placement, 0)};
}

// The plans take their peers from the schedules (schedule.hpp), which the MPI tests
// compare with what libmpi sends; counts do not change who talks to whom.
RecursiveDoublingPlan recursive_doubling_plan(const Placement &placement) {
  const RecursiveDoublingSchedule s = recursive_doubling_schedule(placement.size(), 1);
  RecursiveDoublingPlan plan;
  plan.size = placement.size();
  plan.fold = round_mask(placement, s.fold);
  for (const Round &round : s.exchanges) plan.rounds.push_back(round_mask(placement, round));
  return plan;
}

RingPlan ring_plan(const Placement &placement) {
  RingPlan plan;
  plan.size = placement.size();
  if (plan.size > 1) plan.ring = round_mask(placement, ring_schedule(plan.size, plan.size, 1).allgather.front());
  return plan;
}

RabenseifnerPlan allreduce_rabenseifner_plan(const Placement &placement) {
  const RabenseifnerSchedule s = allreduce_rabenseifner_schedule(placement.size(), placement.size());
  RabenseifnerPlan plan;
  plan.size = placement.size();
  plan.pairing = round_mask(placement, s.fold_exchange);
  for (const Round &round : s.halving) plan.halving.push_back(round_mask(placement, round));
  for (const Round &round : s.doubling) plan.gather.push_back(round_mask(placement, round));
  return plan;
}

double evaluate_linear_allreduce(const Evaluation &e, const LinearAllreducePlan &plan) {
  // Both halves complete before the other starts: their completion times add, whatever the metric.
  CallShape part = e.call;
  part.root = 0;
  part.metric = Metric::completion;
  const Candidate unsegmented{};
  part.op = Op::reduce;
  const double reduce = evaluate_tree(Evaluation{e.table, part, unsegmented, e.tree_schedule}, plan.flat);
  part.op = Op::bcast;
  return reduce + evaluate_tree(Evaluation{e.table, part, unsegmented, e.tree_schedule}, plan.flat);
}

double evaluate_recursive_doubling(const Evaluation &e, const RecursiveDoublingPlan &plan) {
  const CalibrationTable &table = e.table;
  const double bytes = static_cast<double>(e.call.bytes());
  const int pof2 = floor_power_of_two(plan.size);
  // A fresh copy of the message per call (coll_base_allreduce.c mallocs it).
  double total = table.fresh_us_per_byte(bytes) * bytes;
  if (plan.fold) total += step_us(table, plan.fold, bytes) + bytes * table.reduce_us_per_byte;
  bool first = !plan.fold;
  for (ChannelMask mask : plan.rounds) {
    total += busy_step_us(table, mask, bytes, BusyRound::exchange, pof2) + bytes * table.reduce_us_per_byte +
             (first ? 0 : relay_step_us(table, mask, bytes));
    first = false;
  }
  if (plan.fold) total += step_us(table, plan.fold, bytes) + relay_step_us(table, plan.fold, bytes);
  return total;
}

double evaluate_ring(const Evaluation &e, const RingPlan &plan) {
  if (plan.size < 2) return 0;
  const double block = static_cast<double>(early_block(e.call.count, plan.size) * e.call.type_size);
  return e.table.fresh_us_per_byte(2 * block) * 2 * block + ring_reduce_scatter_us(e.table, plan, block) +
         ring_allgather_us(e.table, plan, block);
}

double evaluate_segmented_ring(const Evaluation &e, const RingPlan &plan) {
  const size_t phases = segmented_ring_phases(e.candidate.segsize, e.call.type_size, e.call.count, plan.size);
  if (plan.size < 2 || phases == 0) return evaluate_ring(e, plan);
  const size_t block_count = early_block(e.call.count, plan.size);
  const double segment = static_cast<double>(early_block(block_count, phases) * e.call.type_size);
  const double block = static_cast<double>(block_count * e.call.type_size);
  // Each phase reduce-scatters one segment of every block; the allgather then moves whole blocks.
  return e.table.fresh_us_per_byte(2 * segment) * 2 * segment +
         static_cast<double>(phases) * ring_reduce_scatter_us(e.table, plan, segment) +
         ring_allgather_us(e.table, plan, block);
}

double evaluate_allreduce_rabenseifner(const Evaluation &e, const RabenseifnerPlan &plan) {
  const CalibrationTable &table = e.table;
  const CallShape &call = e.call;
  const int pof2 = floor_power_of_two(plan.size);
  const double ts = static_cast<double>(call.type_size), bytes = static_cast<double>(call.bytes());
  const double half = static_cast<double>(call.count / 2) * ts;
  double total = table.fresh_us_per_byte(bytes) * bytes;  // its temporary buffer of the whole message
  if (plan.pairing)  // exchange halves, reduce, the odd rank sends its combined half on
    total += 2 * busy_step_us(table, plan.pairing, half, BusyRound::exchange, 2 * (plan.size - pof2)) +
             half * table.reduce_us_per_byte;
  double window = bytes;
  bool first = !plan.pairing;
  for (ChannelMask mask : plan.halving) {  // reduce-scatter by recursive halving
    window /= 2;
    total += busy_step_us(table, mask, window, BusyRound::exchange, pof2) + window * table.reduce_us_per_byte +
             (first ? 0 : relay_step_us(table, mask, window));
    first = false;
  }
  for (ChannelMask mask : plan.gather) {  // allgather by recursive doubling: every rank exchanges
    total += busy_step_us(table, mask, window, BusyRound::exchange, pof2) + relay_step_us(table, mask, window);
    window *= 2;
  }
  if (plan.pairing) total += step_us(table, plan.pairing, bytes) + relay_step_us(table, plan.pairing, bytes);
  return total;
}

}  // namespace modeltuned
