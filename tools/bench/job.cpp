// The job-wide verdicts and agreements of modeltuned-bench (see job.hpp).
#include "tools/bench/job.hpp"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <random>

#include "common/exit_status.hpp"

namespace modeltuned::bench {

void die_everywhere(int code) {
  MPI_T_finalize();
  MPI_Finalize();
  std::exit(code);
}

void usage_error(const std::string &text) {
  if (world_rank == 0) std::fprintf(stderr, "%s: %s\n", kProgram, text.c_str());
  die_everywhere(cli::kUsageError);
}

void agree_or_exit(const std::string &rank0_error) {
  int bad = world_rank == 0 && !rank0_error.empty();
  MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (bad) usage_error(rank0_error);
}

uint64_t agree_on_seed(const std::optional<uint64_t> &requested) {
  uint64_t seed = requested.value_or(0);
  if (!requested && world_rank == 0) seed = std::random_device{}() * 0x100000001ull ^ std::random_device{}();
  MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  return seed;
}

bool all_on_one_node() {
  MPI_Comm node;
  int node_size, one_node = 0;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &node_size);
  int local_all = node_size == world_size;
  MPI_Allreduce(&local_all, &one_node, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  MPI_Comm_free(&node);
  return one_node;
}

}  // namespace modeltuned::bench
