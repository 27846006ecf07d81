// Who sends what to whom in Open MPI's alltoall algorithms (coll_base_alltoall.c, the same five
// in 4.1.4 and 5.0.7), round by round, in elements of the send type: the schedules the model's
// alltoall plans are built from, and which tests/mpi/schedules.c compares with the messages
// libmpi really sends.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/schedule/rounds.hpp"

namespace modeltuned {

// Every round of alltoall algorithm `algorithm` (tuned's number: 1 linear, 2 pairwise, 3 modified
// Bruck, 4 linear_sync, 5 two processes) on `size` ranks with `count` elements per block, in
// order, as the algorithm runs itself: linear and linear_sync post every send at once (one round,
// each rank's sends in the order it posts them: rank - 1, rank - 2, ...); empty for one rank, for
// two_proc on other than two ranks (Open MPI refuses it), and unknown numbers. A rank's own block
// is a local copy, not a send.
std::vector<Round> alltoall_rounds(int algorithm, int size, size_t count, size_t type_size, uint32_t segsize,
                                   int fanout = 0);

// Modified Bruck's blocks in its round at `distance`: the blocks i in 1..size-1 with that bit set.
size_t bruck_blocks(int size, int distance);

}  // namespace modeltuned
