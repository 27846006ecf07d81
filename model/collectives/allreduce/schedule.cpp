#include "model/collectives/allreduce/schedule.hpp"

namespace modeltuned {
namespace {

// COLL_BASE_COMPUTE_BLOCKCOUNT: `count` in `blocks` blocks, the first count % blocks one larger.
size_t block_count(size_t count, size_t blocks, size_t block) {
  return count / blocks + (block < count % blocks ? 1 : 0);
}

// The real rank of virtual rank v among the p' ranks left after a fold of `extra` pairs, whose
// survivor is the pair's odd rank (recursive doubling) or its even one (Rabenseifner).
int real_rank(int v, int extra, bool odd_survives) { return v < extra ? 2 * v + (odd_survives ? 1 : 0) : v + extra; }

}  // namespace

std::vector<Round> linear_allreduce_schedule(int size, size_t count) {
  Round reduce, bcast;
  for (int r = 1; r < size; ++r) reduce.push_back({r, 0, count});
  for (int r = 1; r < size; ++r) bcast.push_back({0, r, count});
  return {reduce, bcast};
}

RecursiveDoublingSchedule recursive_doubling_schedule(int size, size_t count) {
  const int pof2 = floor_power_of_two(size), extra = size - pof2;
  RecursiveDoublingSchedule s;
  for (int i = 0; i < extra; ++i) {
    s.fold.push_back({2 * i, 2 * i + 1, count});
    s.unfold.push_back({2 * i + 1, 2 * i, count});
  }
  for (int distance = 1; distance < pof2; distance <<= 1) {
    Round round;
    for (int v = 0; v < pof2; ++v)
      round.push_back({real_rank(v, extra, true), real_rank(v ^ distance, extra, true), count});
    s.exchanges.push_back(round);
  }
  return s;
}

RingSchedule ring_schedule(int size, size_t count, size_t phases) {
  const size_t p = static_cast<size_t>(size);
  auto block = [&](int b) { return block_count(count, p, static_cast<size_t>(b)); };
  RingSchedule s;
  for (size_t phase = 0; phase < phases; ++phase)
    for (int step = 0; step + 1 < size; ++step) {  // rank r passes on block r - step, this phase's part
      Round round;
      for (int r = 0; r < size; ++r) {
        const int b = ((r - step) % size + size) % size;
        round.push_back({r, (r + 1) % size, block_count(block(b), phases, phase)});
      }
      s.reduce_scatter.push_back(round);
    }
  for (int step = 0; step + 1 < size; ++step) {  // rank r passes on block r + 1 - step, whole
    Round round;
    for (int r = 0; r < size; ++r) round.push_back({r, (r + 1) % size, block(((r + 1 - step) % size + size) % size)});
    s.allgather.push_back(round);
  }
  return s;
}

RabenseifnerSchedule allreduce_rabenseifner_schedule(int size, size_t count) {
  const int pof2 = floor_power_of_two(size), extra = size - pof2;
  const size_t lhalf = count / 2, rhalf = count - lhalf;
  RabenseifnerSchedule s;
  for (int i = 0; i < extra; ++i) {
    s.fold_exchange.push_back({2 * i + 1, 2 * i, lhalf});
    s.fold_exchange.push_back({2 * i, 2 * i + 1, rhalf});
    s.fold_send.push_back({2 * i + 1, 2 * i, rhalf});
    s.unfold.push_back({2 * i, 2 * i + 1, count});
  }
  // Each virtual rank's window: in halving the lower rank of a pair keeps the lower half (the
  // smaller one when odd); doubling sends back what each kept, in reverse.
  std::vector<size_t> window(pof2, count);
  std::vector<std::vector<size_t>> kept(pof2);
  for (int mask = 1; mask < pof2; mask <<= 1) {
    Round round;
    for (int v = 0; v < pof2; ++v) {
      const int rank = real_rank(v, extra, false), dest = real_rank(v ^ mask, extra, false);
      const size_t lower = window[v] / 2, upper = window[v] - lower;
      // The lower rank keeps (receives) the lower half and sends the upper one.
      const size_t send = rank < dest ? upper : lower, keep = rank < dest ? lower : upper;
      round.push_back({rank, dest, send});
      kept[v].push_back(keep);
      window[v] = keep;
    }
    s.halving.push_back(round);
  }
  for (int step = static_cast<int>(s.halving.size()) - 1, mask = pof2 >> 1; mask > 0; mask >>= 1, --step) {
    Round round;
    for (int v = 0; v < pof2; ++v)  // sends what it reduced at that step, receives what it sent
      round.push_back({real_rank(v, extra, false), real_rank(v ^ mask, extra, false), kept[v][step]});
    s.doubling.push_back(round);
  }
  return s;
}

size_t segmented_ring_phases(uint32_t segsize, size_t type_size, size_t count, int comm_size) {
  size_t segcount = count;  // COLL_BASE_COMPUTED_SEGCOUNT
  if (type_size > 0 && segsize >= type_size && segsize < type_size * count) {
    segcount = segsize / type_size;
    if (segsize - segcount * type_size > (type_size >> 1)) ++segcount;
  }
  const size_t per_phase = static_cast<size_t>(comm_size) * segcount;
  if (segcount == 0 || count < per_phase) return 0;
  size_t phases = count / per_phase;
  const size_t rest = count % per_phase;
  if (rest >= static_cast<size_t>(comm_size) && rest > per_phase / 2) ++phases;
  return phases;
}

std::vector<Round> allreduce_rounds(int algorithm, int size, size_t count, size_t type_size, uint32_t segsize, int) {
  std::vector<Round> out;
  const auto append = [&out](const std::vector<Round> &rounds) { out.insert(out.end(), rounds.begin(), rounds.end()); };
  if (algorithm == 1) return linear_allreduce_schedule(size, count);
  if (algorithm == 3) {
    const RecursiveDoublingSchedule s = recursive_doubling_schedule(size, count);
    out.push_back(s.fold);
    append(s.exchanges);
    out.push_back(s.unfold);
  } else if (algorithm == 4 || algorithm == 5) {
    const size_t phases = algorithm == 5 ? segmented_ring_phases(segsize, type_size, count, size) : 1;
    const RingSchedule s = ring_schedule(size, count, phases == 0 ? 1 : phases);
    append(s.reduce_scatter);
    append(s.allgather);
  } else if (algorithm == 6) {
    const RabenseifnerSchedule s = allreduce_rabenseifner_schedule(size, count);
    out.push_back(s.fold_exchange);
    out.push_back(s.fold_send);
    append(s.halving);
    append(s.doubling);
    out.push_back(s.unfold);
  }
  return out;
}

}  // namespace modeltuned
