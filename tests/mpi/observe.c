/*
 * Makes a known sequence of MPI_Bcast (MPI_BYTE) and MPI_Reduce (MPI_INT, MPI_SUM) calls at root
 * 0 on MPI_COMM_WORLD (or a dup of it), then prints what modeltuned's MPI_T counters say ran, one line per
 * non-zero counter: "pvar <op> <algorithm number> <calls>" (0 = handed to the previous component).
 * Usage: observe [--dup] [--rotate-roots] [bytes ...]   (default 1 100 4096 65536 1048576), 3
 * calls of each op per size. --dup: on a dup of MPI_COMM_WORLD instead. --rotate-roots: the root of
 * each call is the next rank, twice round, instead of 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_t.h"

int main(int argc, char **argv) {
  int provided, rank;
  long sizes[16] = {1, 100, 4096, 65536, 1048576};
  int nsizes = 5;
  MPI_Init(&argc, &argv);
  MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int first = 1, rotate = 0, size;
  MPI_Comm comm = MPI_COMM_WORLD;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > first && 0 == strcmp(argv[first], "--dup")) {
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    ++first;
  }
  if (argc > first && 0 == strcmp(argv[first], "--rotate-roots")) {
    rotate = 1;
    ++first;
  }
  if (argc > first) {
    nsizes = 0;
    for (int i = first; i < argc && nsizes < 16; ++i) sizes[nsizes++] = atol(argv[i]);
  }
  const char *names[2] = {"coll_modeltuned_bcast_calls", "coll_modeltuned_reduce_calls"};
  const char *ops[2] = {"bcast", "reduce"};
  MPI_T_pvar_session session;
  MPI_T_pvar_handle handles[2];
  int counts[2];
  MPI_T_pvar_session_create(&session);
  for (int op = 0; op < 2; ++op) counts[op] = mpi_t_open_counter(session, names[op], &handles[op]);

  long largest = 4;
  for (int i = 0; i < nsizes; ++i) largest = sizes[i] > largest ? sizes[i] : largest;
  char *buf = calloc(largest, 1), *out = calloc(largest, 1);
  for (int i = 0; i < nsizes; ++i) {
    const int calls = rotate ? 2 * size : 3;
    for (int k = 0; k < calls; ++k) {
      const int root = rotate ? k % size : 0;
      MPI_Bcast(buf, (int)sizes[i], MPI_BYTE, root, comm);
      if (sizes[i] >= 4) MPI_Reduce(buf, out, (int)(sizes[i] / 4), MPI_INT, MPI_SUM, root, comm);
    }
  }
  for (int op = 0; op < 2; ++op) {
    unsigned long long values[64] = {0};
    if (counts[op] < 0 || counts[op] > 64) {
      printf("pvar %s missing\n", ops[op]);
      continue;
    }
    MPI_T_pvar_read(session, handles[op], values);
    for (int a = 0; a < counts[op]; ++a)
      if (values[a]) printf("pvar %s %d %llu\n", ops[op], a, values[a]);
    MPI_T_pvar_handle_free(session, &handles[op]);
  }
  MPI_T_pvar_session_free(&session);
  if (MPI_COMM_WORLD != comm) MPI_Comm_free(&comm);
  fflush(stdout);
  free(buf);
  free(out);
  MPI_T_finalize();
  MPI_Finalize();
  return 0;
}
