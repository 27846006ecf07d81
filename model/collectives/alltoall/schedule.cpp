#include "model/collectives/alltoall/schedule.hpp"

namespace modeltuned {
namespace {

// linear and linear_sync: every rank posts its sends to all others at once, from rank - 1 down.
Round all_at_once(int size, size_t count) {
  Round round;
  for (int r = 0; r < size; ++r)
    for (int step = 1; step < size; ++step) round.push_back({r, (r - step + size) % size, count});
  return round;
}

// pairwise: P - 1 rounds, rank r sending to r + step and receiving from r - step.
std::vector<Round> pairwise_rounds(int size, size_t count) {
  std::vector<Round> rounds;
  for (int step = 1; step < size; ++step) {
    Round round;
    for (int r = 0; r < size; ++r) round.push_back({r, (r + step) % size, count});
    rounds.push_back(round);
  }
  return rounds;
}

// modified Bruck: at distance 2^k every rank sends to rank + 2^k, in one message, the blocks
// whose index (after its local rotation) has bit k set.
std::vector<Round> bruck_rounds(int size, size_t count) {
  std::vector<Round> rounds;
  for (int distance = 1; distance < size; distance <<= 1) {
    Round round;
    for (int r = 0; r < size; ++r) round.push_back({r, (r + distance) % size, bruck_blocks(size, distance) * count});
    rounds.push_back(round);
  }
  return rounds;
}

}  // namespace

size_t bruck_blocks(int size, int distance) {
  size_t blocks = 0;
  for (int i = 1; i < size; ++i) blocks += (i & distance) == distance;
  return blocks;
}

std::vector<Round> alltoall_rounds(int algorithm, int size, size_t count, size_t, uint32_t, int) {
  if (size < 2) return {};
  switch (algorithm) {
    case 1:
    case 4:
      return {all_at_once(size, count)};
    case 2:
      return pairwise_rounds(size, count);
    case 3:
      return bruck_rounds(size, count);
    case 5:
      if (size == 2) return {{{0, 1, count}, {1, 0, count}}};
      return {};
  }
  return {};
}

}  // namespace modeltuned
