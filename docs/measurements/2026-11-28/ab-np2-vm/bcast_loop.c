#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int n = argc > 1 ? atoi(argv[1]) : 200000;
  int bytes = argc > 2 ? atoi(argv[2]) : 1;
  char *buf = calloc(bytes, 1);
  for (int i = 0; i < 20000; ++i) MPI_Bcast(buf, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int i = 0; i < n; ++i) MPI_Bcast(buf, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  double t = MPI_Wtime() - t0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t1 = MPI_Wtime();
  for (int i = 0; i < n; ++i) MPI_Barrier(MPI_COMM_WORLD);
  double tb = MPI_Wtime() - t1;
  if (rank == 0) printf("%.1f %.1f\n", 1e9 * t / n, 1e9 * tb / n);
  MPI_Finalize();
}
