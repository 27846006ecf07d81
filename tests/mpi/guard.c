/*
 * Many calls of a few sizes, so that modeltuned's guard reaches its comparison windows, each
 * result checked exactly; then what the guard's MPI_T counters say, per rank:
 *   "pvar takebacks <op> <n>" and "pvar guard_windows <op> <n>" (op: each the component decides),
 * and on rank 0 "collectives: PASS calls=N" or "collectives: FAIL ...".
 * Usage: guard [--calls N] [--until-taken-back MAX] [--ops LIST] [bytes ...]   (default 300 calls of
 * 1024, 65536 and 1048576 bytes; every op at root 0 of MPI_COMM_WORLD; reduce and allreduce on
 * MPI_INT with MPI_SUM, in place on odd calls of allreduce; allgather a block of that many bytes
 * per rank, in place on odd calls; alltoall that many bytes per rank, a P-th to each peer; then
 * as many barriers). --ops: the ops called, comma-separated (default all of bcast, reduce,
 * allreduce, allgather, alltoall, barrier). With --until-taken-back, a size whose calls the guard
 * compared in a window but did not take back goes on, up to MAX calls, until it is taken back: a
 * window that noise let the slowed pick win postpones the next by a longer gap. The counters are
 * the same on every rank, so every rank makes the same calls.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_t.h"

/* The ops this program calls with data, and the component's collectives, which its counters list. */
enum { BCAST, REDUCE, ALLREDUCE, ALLGATHER, ALLTOALL, OPS };
static const char *called_names[OPS + 1] = {"bcast", "reduce", "allreduce", "allgather", "alltoall", "barrier"};
enum { COUNTED = 6 };
static const char *op_names[COUNTED] = {"bcast", "reduce", "allreduce", "barrier", "allgather", "alltoall"};
/* Each called op's place in the counters (OPS: the barrier's). */
static const int counted_index[OPS + 1] = {0, 1, 2, 4, 5, 3};

/* Rank r's element i at call k: small enough that the sum over 64 ranks fits an int. */
static int element(int r, long k, long i) { return (int)((r * 1000003L + k * 17 + i) % (1 << 24)); }

static int check_bcast(int rank, long k, long n, char *buf) {
  for (long i = 0; i < n; ++i) buf[i] = rank == 0 ? (char)(k * 31 + i * 7 + 1) : 0;
  MPI_Bcast(buf, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD);
  for (long i = 0; i < n; ++i)
    if (buf[i] != (char)(k * 31 + i * 7 + 1)) return 1;
  return 0;
}

static int check_reduction(int op, int rank, int size, long k, long n, int *in, int *out) {
  const int in_place = op == ALLREDUCE && k % 2;
  for (long i = 0; i < n; ++i) {
    in[i] = element(rank, k, i);
    out[i] = in_place ? in[i] : -1;
  }
  if (op == REDUCE)
    MPI_Reduce(in, out, (int)n, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  else
    MPI_Allreduce(in_place ? MPI_IN_PLACE : in, out, (int)n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (op == REDUCE && rank != 0) return 0;
  for (long i = 0; i < n; ++i) {
    long expected = 0;
    for (int r = 0; r < size; ++r) expected += element(r, k, i);
    if (out[i] != (int)expected) return 1;
  }
  return 0;
}

/* Every rank's block of n bytes, each rank's own in place on odd calls. */
static int check_allgather(int rank, int size, long k, long n, char *block, char *all) {
  const int in_place = k % 2;
  for (int r = 0; r < size; ++r)
    for (long i = 0; i < n; ++i) all[r * n + i] = r == rank && in_place ? (char)(r * 7 + k * 31 + i) : 0;
  for (long i = 0; i < n; ++i) block[i] = (char)(rank * 7 + k * 31 + i);
  MPI_Allgather(in_place ? MPI_IN_PLACE : block, (int)n, MPI_BYTE, all, (int)n, MPI_BYTE, MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r)
    for (long i = 0; i < n; ++i)
      if (all[r * n + i] != (char)(r * 7 + k * 31 + i)) return 1;
  return 0;
}

/* Every rank's block of n bytes for every peer: block j of rank r's send buffer goes to rank j. */
static int check_alltoall(int rank, int size, long k, long n, char *send, char *receive) {
  for (int j = 0; j < size; ++j)
    for (long i = 0; i < n; ++i) {
      send[j * n + i] = (char)(rank * 7 + j * 13 + k * 31 + i);
      receive[j * n + i] = 0;
    }
  MPI_Alltoall(send, (int)n, MPI_BYTE, receive, (int)n, MPI_BYTE, MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r)
    for (long i = 0; i < n; ++i)
      if (receive[r * n + i] != (char)(r * 7 + rank * 13 + k * 31 + i)) return 1;
  return 0;
}

/* A counter opened before the calls (it counts from then on); -1: not found. */
static int open_counter(MPI_T_pvar_session session, const char *name, MPI_T_pvar_handle *handle) {
  return mpi_t_open_counter(session, name, handle) == COUNTED ? 0 : -1;
}

static void print_counter(MPI_T_pvar_session session, MPI_T_pvar_handle handle, int opened, const char *label) {
  unsigned long long values[COUNTED] = {0};
  if (opened < 0) {
    printf("pvar %s missing\n", label);
    return;
  }
  MPI_T_pvar_read(session, handle, values);
  for (int op = 0; op < COUNTED; ++op) printf("pvar %s %s %llu\n", label, op_names[op], values[op]);
}

/* One call of `op` (OPS: a barrier) with `n` elements; nonzero if its result is wrong. */
static int check_call(int op, int rank, int size, long k, long n, char *buf, char *gathered, int *in, int *out) {
  if (op == OPS) return MPI_Barrier(MPI_COMM_WORLD) != MPI_SUCCESS;
  return op == BCAST       ? check_bcast(rank, k, n, buf)
         : op == ALLGATHER ? check_allgather(rank, size, k, n, buf, gathered)
         : op == ALLTOALL  ? check_alltoall(rank, size, k, n, buf, gathered)
                           : check_reduction(op, rank, size, k, n, in, out);
}

/* Which ops (OPS: the barrier) a comma-separated list names; 0 if it names another. */
static int parse_ops(const char *list, int called[OPS + 1]) {
  for (int op = 0; op <= OPS; ++op) called[op] = 0;
  char copy[256];
  snprintf(copy, sizeof copy, "%s", list);
  for (char *name = strtok(copy, ","); name; name = strtok(NULL, ",")) {
    int found = 0;
    for (int op = 0; op <= OPS; ++op)
      if (0 == strcmp(name, called_names[op])) called[op] = found = 1;
    if (!found) return 0;
  }
  return 1;
}

/* Counter `index` of an opened counter; 0 if it is not. */
static unsigned long long counter_value(MPI_T_pvar_session session, MPI_T_pvar_handle handle, int opened, int index) {
  unsigned long long values[COUNTED] = {0};
  if (opened == 0) MPI_T_pvar_read(session, handle, values);
  return values[index];
}

int main(int argc, char **argv) {
  int provided, rank, size, first = 1;
  long calls = 300, until_taken_back = 0, sizes[16] = {1024, 65536, 1048576};
  int nsizes = 3, called[OPS + 1] = {1, 1, 1, 1, 1, 1};
  MPI_Init(&argc, &argv);
  MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > first + 1 && 0 == strcmp(argv[first], "--calls")) {
    calls = atol(argv[first + 1]);
    first += 2;
  }
  if (argc > first + 1 && 0 == strcmp(argv[first], "--until-taken-back")) {
    until_taken_back = atol(argv[first + 1]);
    first += 2;
  }
  if (argc > first + 1 && 0 == strcmp(argv[first], "--ops")) {
    if (!parse_ops(argv[first + 1], called)) {
      if (rank == 0)
        fprintf(
            stderr,
            "guard: --ops takes a comma-separated list of bcast, reduce, allreduce, allgather, alltoall, barrier\n");
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    first += 2;
  }
  if (argc > first) {
    nsizes = 0;
    for (int i = first; i < argc && nsizes < 16; ++i) sizes[nsizes++] = atol(argv[i]);
  }
  MPI_T_pvar_session session;
  MPI_T_pvar_handle takebacks, windows;
  MPI_T_pvar_session_create(&session);
  const int takebacks_opened = open_counter(session, "coll_modeltuned_takebacks", &takebacks);
  const int windows_opened = open_counter(session, "coll_modeltuned_guard_windows", &windows);
  long largest = 4;
  for (int i = 0; i < nsizes; ++i) largest = sizes[i] > largest ? sizes[i] : largest;
  char *buf = malloc(largest), *gathered = malloc((size_t)largest * (size_t)size);
  int *in = malloc(largest), *out = malloc(largest);
  int wrong = 0;
  for (int op = 0; op <= OPS; ++op) /* OPS: the barriers, one size class */
    for (int s = 0; s < (!called[op] ? 0 : op == OPS ? 1 : nsizes); ++s) {
      const int index = counted_index[op];
      const unsigned long long windows_before = counter_value(session, windows, windows_opened, index);
      const unsigned long long takebacks_before = counter_value(session, takebacks, takebacks_opened, index);
      const long n = op == OPS                         ? 0
                     : op == REDUCE || op == ALLREDUCE ? sizes[s] / 4
                     : op == ALLTOALL                  ? sizes[s] / size
                                                       : sizes[s];
      for (long k = 0;; ++k) {
        if (k >= calls) {
          const int compared = counter_value(session, windows, windows_opened, index) > windows_before;
          const int taken_back = counter_value(session, takebacks, takebacks_opened, index) > takebacks_before;
          if (k >= until_taken_back || !compared || taken_back) break;
        }
        const int bad = check_call(op, rank, size, k, n, buf, gathered, in, out);
        if (bad && !wrong)
          fprintf(stderr, "rank %d: wrong %s result, %ld bytes, call %ld\n", rank, called_names[op],
                  op == OPS ? 0 : sizes[s], k);
        wrong |= bad;
      }
    }
  /* On a communicator of its own: this call, and whatever a composed pick of it calls (6.0's
   * allgather_reduce an allgather), are not the watched calls on MPI_COMM_WORLD. */
  int any_wrong = 0;
  MPI_Comm verdict;
  MPI_Comm_dup(MPI_COMM_WORLD, &verdict);
  MPI_Allreduce(&wrong, &any_wrong, 1, MPI_INT, MPI_LOR, verdict);
  MPI_Comm_free(&verdict);

  print_counter(session, takebacks, takebacks_opened, "takebacks");
  print_counter(session, windows, windows_opened, "guard_windows");
  fflush(stdout);
  if (rank == 0) printf("collectives: %s calls=%ld\n", any_wrong ? "FAIL wrong results" : "PASS", calls);
  MPI_T_pvar_session_free(&session);
  free(buf);
  free(gathered);
  free(in);
  free(out);
  MPI_T_finalize();
  MPI_Finalize();
  return any_wrong;
}
