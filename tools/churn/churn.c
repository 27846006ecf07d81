/*
 * Communicator churn: ITERATIONS x (MPI_Comm_dup of MPI_COMM_WORLD, one MPI_Bcast and one
 * MPI_Reduce of BYTES bytes, MPI_Comm_free), the cost a component adds to communicator creation and
 * to the first calls on a new communicator. The calls are rooted at 0, or with ROOTS=rotate at
 * rank i mod P in iteration i (every root's first call on each new communicator). Prints the
 * median over REPETITIONS of the time per iteration (rank 0's, after a barrier). Run under both
 * coll settings by tools/churn/run-churn (make churn).
 * Usage: churn [ITERATIONS [REPETITIONS [BYTES [ROOTS]]]]   (default 2000 x 5, 8 bytes, root 0;
 * ROOTS: zero or rotate)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const long iterations = argc > 1 ? atol(argv[1]) : 2000;
  const int repetitions = argc > 2 ? atoi(argv[2]) : 5;
  const long bytes = argc > 3 ? atol(argv[3]) : 8;
  const char *roots = argc > 4 ? argv[4] : "zero";
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rotate = 0 == strcmp(roots, "rotate");
  if (iterations < 1 || repetitions < 1 || repetitions > 100 || bytes < 8 || bytes % 8 != 0 ||
      (!rotate && 0 != strcmp(roots, "zero"))) {
    if (0 == rank)
      fprintf(stderr, "churn: ITERATIONS >= 1, 1 <= REPETITIONS <= 100, BYTES a multiple of 8, ROOTS zero or rotate\n");
    MPI_Finalize();
    return 2;
  }
  const int count = (int)(bytes / 8);
  long *value = calloc((size_t)count, sizeof *value), *sum = calloc((size_t)count, sizeof *sum);
  for (int i = 0; i < count; ++i) value[i] = rank + i;
  double per_iteration[100];
  for (int r = 0; r < repetitions; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double began = MPI_Wtime();
    for (long i = 0; i < iterations; ++i) {
      const int root = rotate ? (int)(i % size) : 0;
      MPI_Comm comm;
      MPI_Comm_dup(MPI_COMM_WORLD, &comm);
      MPI_Bcast(value, count, MPI_LONG, root, comm);
      MPI_Reduce(value, sum, count, MPI_LONG, MPI_SUM, root, comm);
      MPI_Comm_free(&comm);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    per_iteration[r] = (MPI_Wtime() - began) / (double)iterations * 1e6;
  }
  qsort(per_iteration, repetitions, sizeof *per_iteration, compare);
  if (0 == rank)
    printf("churn: us_per_iteration=%.2f iterations=%ld repetitions=%d bytes=%ld roots=%s\n",
           per_iteration[repetitions / 2], iterations, repetitions, bytes, roots);
  free(value);
  free(sum);
  MPI_Finalize();
  return 0;
}
