// Who signals whom in Open MPI's barrier algorithms (coll_base_barrier.c, the same in 4.1.4 and
// 5.0.7), round by round: empty messages only. The barrier's plans are built from these rounds,
// and tests/mpi/schedules.c compares them with the messages libmpi really sends.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/schedule/rounds.hpp"

namespace modeltuned {

// Every round of barrier algorithm `algorithm` (tuned's number: 1 linear, 2 double ring,
// 3 recursive doubling, 4 Bruck, 5 two processes, 6 tree) on `size` ranks, in order; empty for
// one rank, for two_proc on other than two ranks (Open MPI refuses it there) and unknown numbers.
// The message arguments are the families' common signature (collectives/family.hpp); a barrier
// has none.
std::vector<Round> barrier_rounds(int algorithm, int size, size_t count, size_t type_size, uint32_t segsize,
                                  int fanout = 0);

}  // namespace modeltuned
