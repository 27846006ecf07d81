/* Which ompi_coll_base_* function each call of a sweep runs, with its segment size, fan-out and
 * request limit (interpose.c), on the communicators of the first m ranks of MPI_COMM_WORLD for every
 * m from 2: bcast, allgather and alltoall of 1 B up to --max-bytes in powers of two (MPI_BYTE;
 * allgather's size is one rank's block, alltoall's one peer's), reduce and allreduce of MPI_DOUBLE
 * sums of 8 B up, and one barrier.
 * Each size is the first call of its power-of-two class, where modeltuned decides. Run once with
 * modeltuned loaded and once under tuned with the rules modeltuned export-rules wrote: the lines
 * must be the same (tests/mpi/check_mpi.cpp, rules_file_runs_the_decisions).
 *
 * Output (world rank 0, the first rank of every communicator): one line per call,
 * "rule_runs: op=bcast ranks=4 bytes=1024 algorithm=2 segsize=0 fanout=4 max_requests=0 calls=1",
 * then "rule_runs: done lines=N". Exit status 0 unless MPI failed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"

#include "interpose.h"

static size_t max_bytes = 262144;
static int lines;

static void report(const char *op, MPI_Comm comm, size_t bytes) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (0 != rank) return;
  printf("rule_runs: op=%s ranks=%d bytes=%zu algorithm=%d segsize=%u fanout=%d max_requests=%d calls=%d\n", op, size,
         bytes, interposed.calls ? interposed.algorithm : 0, interposed.segsize, interposed.fanout,
         interposed.max_requests, interposed.calls);
  ++lines;
}

static void start(void) {
  memset(&interposed, 0, sizeof interposed);
  interposed.on = true;
}

/* One collective at every size, smallest first. Each collective's own sweep comes before any
 * other that may call it inside (allgather's linear runs the communicator's bcast, allreduce's
 * nonoverlapping its reduce and bcast), so the sizes compared are the first of their classes. */
static void sweep(MPI_Comm comm, char *bytes_buf, char *gathered, char *scattered, double *in, double *out) {
  start();
  MPI_Barrier(comm);
  interposed.on = false;
  report("barrier", comm, 0);
  for (size_t bytes = 1; bytes <= max_bytes; bytes *= 2) {
    start();
    MPI_Bcast(bytes_buf, (int)bytes, MPI_BYTE, 0, comm);
    interposed.on = false;
    report("bcast", comm, bytes);
  }
  for (size_t bytes = sizeof(double); bytes <= max_bytes; bytes *= 2) {
    start();
    MPI_Reduce(in, out, (int)(bytes / sizeof(double)), MPI_DOUBLE, MPI_SUM, 0, comm);
    interposed.on = false;
    report("reduce", comm, bytes);
  }
  for (size_t bytes = sizeof(double); bytes <= max_bytes; bytes *= 2) {
    start();
    MPI_Allreduce(in, out, (int)(bytes / sizeof(double)), MPI_DOUBLE, MPI_SUM, comm);
    interposed.on = false;
    report("allreduce", comm, bytes);
  }
  for (size_t bytes = 1; bytes <= max_bytes; bytes *= 2) {
    start();
    MPI_Allgather(bytes_buf, (int)bytes, MPI_BYTE, gathered, (int)bytes, MPI_BYTE, comm);
    interposed.on = false;
    report("allgather", comm, bytes);
  }
  for (size_t bytes = 1; bytes <= max_bytes; bytes *= 2) {
    start();
    MPI_Alltoall(scattered, (int)bytes, MPI_BYTE, gathered, (int)bytes, MPI_BYTE, comm);
    interposed.on = false;
    report("alltoall", comm, bytes);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  for (int i = 1; i < argc; ++i)
    if (0 == strncmp(argv[i], "--max-bytes=", 12)) max_bytes = strtoull(argv[i] + 12, NULL, 10);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char *bytes_buf = calloc(max_bytes, 1), *gathered = calloc(max_bytes, (size_t)size);
  char *scattered = calloc(max_bytes, (size_t)size);
  double *in = calloc(max_bytes / sizeof(double) + 1, sizeof(double));
  double *out = calloc(max_bytes / sizeof(double) + 1, sizeof(double));
  for (int m = 2; m <= size; ++m) {
    MPI_Comm comm;
    MPI_Comm_split(MPI_COMM_WORLD, rank < m ? 0 : MPI_UNDEFINED, rank, &comm);
    if (MPI_COMM_NULL == comm) continue;
    sweep(comm, bytes_buf, gathered, scattered, in, out);
    MPI_Comm_free(&comm);
  }
  if (0 == rank) printf("rule_runs: done lines=%d\n", lines);
  free(bytes_buf), free(gathered), free(scattered), free(in), free(out);
  MPI_Finalize();
  return 0;
}
