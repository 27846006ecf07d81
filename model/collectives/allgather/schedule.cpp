#include "model/collectives/allgather/schedule.hpp"

#include <algorithm>
#include <bit>

namespace modeltuned {
namespace {

// Bruck of radix k (4.1's and 5.0's bruck is k = 2; 6.0's k-radix Bruck takes k): at distance
// k^i every rank sends the blocks it has (k^i, fewer in the last round) to rank - j k^i and
// receives as many from rank + j k^i, for each j in 1..k-1 below the size, all at once.
std::vector<Round> bruck_rounds(int size, size_t count, int radix) {
  std::vector<Round> rounds;
  for (int distance = 1; distance < size; distance *= radix) {
    Round round;
    for (int j = 1; j < radix && distance * j < size; ++j) {
      const int blocks = distance <= size / radix ? distance : std::min(distance, size - distance * j);
      for (int r = 0; r < size; ++r)
        round.push_back({r, (r - distance * j + size) % size, static_cast<size_t>(blocks) * count});
    }
    rounds.push_back(round);
  }
  return rounds;
}

// direct messaging (6.0): one round in which every rank sends its block to every other, starting
// with the next rank.
Round direct_messaging_round(int size, size_t count) {
  Round round;
  for (int r = 0; r < size; ++r)
    for (int i = 1; i < size; ++i) round.push_back({r, (r + i) % size, count});
  return round;
}

// recursive_doubling (powers of two only): at distance 2^k rank r exchanges its 2^k blocks with r ^ 2^k.
std::vector<Round> recursive_doubling_rounds(int size, size_t count) {
  std::vector<Round> rounds;
  for (int distance = 1; distance < size; distance <<= 1) {
    Round round;
    for (int r = 0; r < size; ++r) round.push_back({r, r ^ distance, static_cast<size_t>(distance) * count});
    rounds.push_back(round);
  }
  return rounds;
}

// ring: P - 1 rounds, every rank passing one block to rank + 1.
std::vector<Round> ring_rounds(int size, size_t count) {
  std::vector<Round> rounds(static_cast<size_t>(size - 1));
  for (Round &round : rounds)
    for (int r = 0; r < size; ++r) round.push_back({r, (r + 1) % size, count});
  return rounds;
}

// neighbor exchange (even sizes only): one block with the first neighbour (even ranks' right,
// odd ranks' left), then P/2 - 1 rounds of two blocks, alternating between the two neighbours.
std::vector<Round> neighbor_exchange_rounds(int size, size_t count) {
  std::vector<Round> rounds;
  for (int step = 0; step < size / 2; ++step) {
    Round round;
    for (int r = 0; r < size; ++r) {
      const bool right = (r % 2 == 0) == (step % 2 == 0);
      round.push_back({r, right ? (r + 1) % size : (r - 1 + size) % size, step == 0 ? count : 2 * count});
    }
    rounds.push_back(round);
  }
  return rounds;
}

// sparbit: ceil(log2 P) rounds at distances halving from 2^(ceil(log2 P) - 1); in each, every
// rank sends each block it holds to rank + distance, one message per block, except one block in
// the rounds whose distance is a set bit of the ignore mask (sizes that are not powers of two).
std::vector<Round> sparbit_rounds(int size, size_t count) {
  const int log = std::bit_width(static_cast<unsigned>(size - 1));
  const unsigned trailing = static_cast<unsigned>(std::countr_zero(static_cast<unsigned>(size)));
  const uint32_t ignore_steps = (~(static_cast<uint32_t>(size) >> trailing) | 1u) << trailing;
  uint32_t distance = 1u << (log - 1);
  int expected = 1;
  std::vector<Round> rounds;
  for (int i = 0; i < log; ++i, distance >>= 1) {
    const int exclusion = (distance & ignore_steps) == distance ? 1 : 0;
    Round round;
    for (int r = 0; r < size; ++r)
      for (int block = 0; block < expected - exclusion; ++block)
        round.push_back(
            {r, static_cast<int>((static_cast<uint32_t>(r) + distance) % static_cast<uint32_t>(size)), count});
    rounds.push_back(round);
    expected = 2 * expected - exclusion;
  }
  return rounds;
}

}  // namespace

std::vector<Round> allgather_rounds(int algorithm, int size, size_t count, size_t, uint32_t, int fanout) {
  if (size < 2) return {};
  switch (algorithm) {
    case 2:
      return bruck_rounds(size, count, std::max(fanout, 2));
    case 3:
      if (!std::has_single_bit(static_cast<unsigned>(size))) return {};
      return recursive_doubling_rounds(size, count);
    case 4:
      return ring_rounds(size, count);
    case 5:
      if (size % 2 != 0) return {};
      return neighbor_exchange_rounds(size, count);
    case 6:
      if (size == 2) return {{{0, 1, count}, {1, 0, count}}};
      return {};
    case 7:
      return sparbit_rounds(size, count);
    case 8:
      return {direct_messaging_round(size, count)};
  }
  return {};
}

}  // namespace modeltuned
