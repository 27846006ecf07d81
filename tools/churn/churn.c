/*
 * Communicator churn: ITERATIONS x (MPI_Comm_dup of MPI_COMM_WORLD, one 8-byte MPI_Bcast, one
 * 8-byte MPI_Reduce, MPI_Comm_free), the cost a component adds to communicator creation and to
 * the first calls on a new communicator. Prints the median over REPETITIONS of the time per
 * iteration (rank 0's, after a barrier). Run under both coll settings by tools/churn/run-churn
 * (make churn).
 * Usage: churn [ITERATIONS [REPETITIONS]]   (default 2000 x 5)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int compare(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const long iterations = argc > 1 ? atol(argv[1]) : 2000;
  const int repetitions = argc > 2 ? atoi(argv[2]) : 5;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (iterations < 1 || repetitions < 1 || repetitions > 100) {
    if (0 == rank) fprintf(stderr, "churn: ITERATIONS >= 1 and 1 <= REPETITIONS <= 100\n");
    MPI_Finalize();
    return 2;
  }
  double per_iteration[100];
  long value = rank, sum = 0;
  for (int r = 0; r < repetitions; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double began = MPI_Wtime();
    for (long i = 0; i < iterations; ++i) {
      MPI_Comm comm;
      MPI_Comm_dup(MPI_COMM_WORLD, &comm);
      MPI_Bcast(&value, 1, MPI_LONG, 0, comm);
      MPI_Reduce(&value, &sum, 1, MPI_LONG, MPI_SUM, 0, comm);
      MPI_Comm_free(&comm);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    per_iteration[r] = (MPI_Wtime() - began) / (double)iterations * 1e6;
  }
  qsort(per_iteration, repetitions, sizeof *per_iteration, compare);
  if (0 == rank)
    printf("churn: us_per_iteration=%.2f iterations=%ld repetitions=%d\n", per_iteration[repetitions / 2], iterations,
           repetitions);
  MPI_Finalize();
  return 0;
}
