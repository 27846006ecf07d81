// Who sends what to whom in Open MPI's allreduce algorithms (coll_base_allreduce.c, the same in
// 4.1.4 and 5.0.7), round by round: the schedules the model's allreduce plans are built from, and
// which tests/mpi/schedules.c compares with the messages libmpi really sends.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/schedule/rounds.hpp"

namespace modeltuned {

// basic_linear: a linear reduce to rank 0 (every other rank sends), then a linear bcast from it.
std::vector<Round> linear_allreduce_schedule(int size, size_t count);

// Recursive doubling, in named parts: the fold of the first 2(P - p') ranks (even sends to odd),
// the exchange rounds over p' ranks, the unfold (odd sends the result back). fold and unfold are
// empty when P is a power of two.
struct RecursiveDoublingSchedule {
  Round fold;
  std::vector<Round> exchanges;
  Round unfold;
};
RecursiveDoublingSchedule recursive_doubling_schedule(int size, size_t count);

// The ring (segcount 0 or >= count / P: one phase of whole blocks) or the segmented ring: per phase
// P - 1 reduce-scatter rounds, then P - 1 allgather rounds of whole blocks. `phases` as
// segmented_ring_phases (below) says, 1 for the ring.
struct RingSchedule {
  std::vector<Round> reduce_scatter;  // phases x (P - 1) rounds
  std::vector<Round> allgather;       // P - 1 rounds
};
RingSchedule ring_schedule(int size, size_t count, size_t phases);

// Rabenseifner (redscat_allgather): the fold (odd and even exchange halves, then odd sends its
// combined half), recursive halving, recursive doubling, the unfold (even sends the result).
struct RabenseifnerSchedule {
  Round fold_exchange, fold_send;
  std::vector<Round> halving, doubling;
  Round unfold;
};
RabenseifnerSchedule allreduce_rabenseifner_schedule(int size, size_t count);

// Phases of the segmented ring: segments per block (coll_base_allreduce.c); 0 when Open MPI runs
// the whole ring instead (fewer than P x segcount elements, so always with segment size 0).
size_t segmented_ring_phases(uint32_t segsize, size_t type_size, size_t count, int comm_size);

// Every round of allreduce algorithm `algorithm` (tuned's number) as it runs itself, in order;
// empty for nonoverlapping (2: the communicator's own reduce and bcast) and unknown numbers.
// Which algorithm Open MPI really runs for a call is the registry's business (runs_instead).
std::vector<Round> allreduce_rounds(int algorithm, int size, size_t count, size_t type_size, uint32_t segsize,
                                    int fanout = 0);

}  // namespace modeltuned
