// Schedules as rounds of transfers: the shape of every collective whose algorithm is a sequence
// of concurrent exchanges rather than a tree (allreduce's, and the reduce-scatter and allgather
// phases inside others). A family's schedule lists its rounds; its plan takes each round's
// channels; the MPI tests compare what each rank sends with what libmpi really sends.
#pragma once
#include <cstddef>
#include <vector>

namespace modeltuned {

struct Transfer {
  int from = 0, to = 0;
  size_t count = 0;  // elements
  bool operator==(const Transfer &) const = default;
};
// Transfers under way at once; a rank's own transfers in a round are listed in the order it starts them.
using Round = std::vector<Transfer>;

// What each rank sends, in order: every round's transfers from it, rounds in order.
std::vector<std::vector<Transfer>> sends_per_rank(int size, const std::vector<Round> &rounds);

// The largest power of two <= n (the ranks that recursive doubling and halving pair up).
int floor_power_of_two(int n);

}  // namespace modeltuned
