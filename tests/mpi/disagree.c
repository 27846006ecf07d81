/* Ranks that disagree on the collective they run: world rank 0 calls MPI_Allreduce, every other
 * rank MPI_Barrier, so the job hangs. The watchdog (watchdog.c) must end it, every rank naming the
 * collective it is in (tests/mpi/check_mpi.cpp, disagreeing_ranks_are_named). */
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, value = 1, sum = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (0 == rank)
    MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  else
    MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
