// Who sends what to whom in Open MPI's allgather algorithms (coll_base_allgather.c: 4.1.4 has
// the first six, 5.0.7 the same six and sparbit, 6.0 a k-radix Bruck as 2 and direct messaging as
// 8), round by round, in elements of the receive
// type: the schedules the model's allgather plans are built from, and which tests/mpi/schedules.c
// compares with the messages libmpi really sends.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/schedule/rounds.hpp"

namespace modeltuned {

// Every round of allgather algorithm `algorithm` (tuned's number: 1 linear, 2 Bruck of radix
// `fanout` (2 below 2: 4.1's and 5.0's), 3 recursive doubling, 4 ring, 5 neighbor exchange, 6 two
// processes, 7 sparbit, 8 direct messaging) on `size` ranks with `count`
// elements per rank, in order, as the algorithm runs itself; empty for one rank, for linear (the
// communicator's own gather and bcast), for two_proc on other than two ranks (Open MPI refuses
// it), recursive doubling off powers of two and neighbor exchange on odd sizes (Open MPI runs
// another: the registry's runs_instead), and unknown numbers.
std::vector<Round> allgather_rounds(int algorithm, int size, size_t count, size_t type_size, uint32_t segsize,
                                    int fanout = 0);

}  // namespace modeltuned
