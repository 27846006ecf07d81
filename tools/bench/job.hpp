// The MPI job as every part of modeltuned-bench sees it: this rank and the job's size, verdicts
// that end every rank alike, and the facts all ranks agree on before measuring (the seed, whether
// they share one node's clock).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace modeltuned::bench {

inline constexpr const char *kProgram = "modeltuned-bench";

// Set once by main right after MPI_Init.
inline int world_rank = 0, world_size = 1;

// Finalizes MPI_T and MPI, then exits with `code`.
[[noreturn]] void die_everywhere(int code);
// Every rank sees the same arguments, so these verdicts agree without communication: rank 0
// prints "PROGRAM: text" and every rank exits with the usage status.
[[noreturn]] void usage_error(const std::string &text);
// Rank 0 checked something only it can see (files); every rank learns the verdict.
void agree_or_exit(const std::string &rank0_error);

// --seed, or one drawn on rank 0; the same on every rank.
uint64_t agree_on_seed(const std::optional<uint64_t> &requested);
// All ranks on one node share CLOCK_MONOTONIC: a repetition then lasts from the first rank's
// start to the last rank's end. Otherwise, the slowest rank's own duration.
bool all_on_one_node();

}  // namespace modeltuned::bench
