#include "model/collectives/barrier/schedule.hpp"

namespace modeltuned {
namespace {

// basic_linear: every other rank signals rank 0, which then releases them in rank order.
std::vector<Round> linear_rounds(int size) {
  Round gather, release;
  for (int r = 1; r < size; ++r) gather.push_back({r, 0, 0});
  for (int r = 1; r < size; ++r) release.push_back({0, r, 0});
  return {gather, release};
}

// double_ring: a token goes around the ring twice from rank 0; each hop waits for the previous.
std::vector<Round> double_ring_rounds(int size) {
  std::vector<Round> rounds;
  for (int lap = 0; lap < 2; ++lap)
    for (int r = 0; r < size; ++r) rounds.push_back({{r, (r + 1) % size, 0}});
  return rounds;
}

// recursive_doubling: the ranks above the largest power of two p' signal their partner
// rank - p' (and wait for its answer), p' ranks exchange with rank ^ 2^k, then the partners answer.
std::vector<Round> recursive_doubling_rounds(int size) {
  const int pof2 = floor_power_of_two(size), extra = size - pof2;
  std::vector<Round> rounds;
  Round fold, unfold;
  for (int r = pof2; r < size; ++r) fold.push_back({r, r - pof2, 0});
  for (int r = 0; r < extra; ++r) unfold.push_back({r, r + pof2, 0});
  if (extra > 0) rounds.push_back(fold);
  for (int distance = 1; distance < pof2; distance <<= 1) {
    Round round;
    for (int r = 0; r < pof2; ++r) round.push_back({r, r ^ distance, 0});
    rounds.push_back(round);
  }
  if (extra > 0) rounds.push_back(unfold);
  return rounds;
}

// bruck: ceil(log2 P) rounds; in round k every rank signals rank + 2^k and hears from rank - 2^k.
std::vector<Round> bruck_rounds(int size) {
  std::vector<Round> rounds;
  for (int distance = 1; distance < size; distance <<= 1) {
    Round round;
    for (int r = 0; r < size; ++r) round.push_back({r, (r + distance) % size, 0});
    rounds.push_back(round);
  }
  return rounds;
}

// tree: up a binomial tree to rank 0 (at distance 2^k, the higher rank of each aligned pair
// signals the lower), then down it again, distances shrinking.
std::vector<Round> tree_rounds(int size) {
  int depth = 1;
  while (depth < size) depth <<= 1;
  std::vector<Round> up, down;
  for (int jump = 1; jump < depth; jump <<= 1) {
    Round round;
    for (int low = 0; low + jump < size; low += 2 * jump) round.push_back({low + jump, low, 0});
    up.push_back(round);
  }
  for (int jump = depth >> 1; jump > 0; jump >>= 1) {
    Round round;
    for (int low = 0; low + jump < size; low += 2 * jump) round.push_back({low, low + jump, 0});
    down.push_back(round);
  }
  up.insert(up.end(), down.begin(), down.end());
  return up;
}

}  // namespace

std::vector<Round> barrier_rounds(int algorithm, int size, size_t, size_t, uint32_t, int) {
  if (size < 2) return {};
  switch (algorithm) {
    case 1:
      return linear_rounds(size);
    case 2:
      return double_ring_rounds(size);
    case 3:
      return recursive_doubling_rounds(size);
    case 4:
      return bruck_rounds(size);
    case 5:
      if (size == 2) return {{{0, 1, 0}, {1, 0, 0}}};
      return {};
    case 6:
      return tree_rounds(size);
  }
  return {};
}

}  // namespace modeltuned
