/* Exact-result checker for MPI_Bcast, MPI_Reduce, MPI_Allreduce, MPI_Allgather and MPI_Alltoall, and a
 * synchronisation checker for MPI_Barrier, run under mpirun by check_mpi.
 *
 * Every value is an integer, a multiple of 1/8 far below 2^53, or an element of the ring of
 * 2x2 matrices mod 2^32, so every correct reduction order gives bit-identical results and the
 * expected value can be computed locally. All ranks run the same sequence of collectives whatever
 * they find, so a wrong result never turns into a hang; the verdict and the barrier's clocks go
 * to rank 0 by point-to-point messages, so that the runs that check which algorithms ran see only
 * the collectives under test.
 *
 * Options:
 *   --ops=LIST             bcast,reduce,noncommutative,allreduce,barrier,allgather,alltoall
 *                          (default the first three; allreduce: its commutative and
 *                          non-commutative cases, MPI_IN_PLACE alternating; barrier: no rank
 *                          leaves before the last one entered, on the machine's one clock, with a
 *                          late rank in turn; allgather and alltoall: every kind and count,
 *                          MPI_IN_PLACE alternating, and ranks describing the same blocks with
 *                          other datatypes)
 *   --comms=LIST           world,dup,split,inter (default world,dup,split; split = odd/even,
 *                          reversed order; inter = an intercommunicator between the even and odd
 *                          ranks, with bcast, reduce, scatter, allreduce and barrier from each side)
 *   --max-bytes=N          skip cases whose payload exceeds N bytes (default 4 MiB)
 *   --all-roots-bytes=N    payloads above N bytes use roots 0, P/2, P-1 only (default 64 KiB)
 * Output: one summary line on rank 0 ("collectives: PASS|FAIL ranks= checks= failures=
 * bcast_calls= reduce_calls= allreduce_calls= barrier_calls= allgather_calls= alltoall_calls=", the call counts summed
 * over ranks and limited to non-empty calls, and barriers, on communicators of two or more ranks), and "collectives:
 * MISMATCH ..." lines on stderr for the first failures of each rank. Exit status 1 on any mismatch. */
#include <mpi.h>
#include <stdarg.h>
#include <time.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_buffer.h"

enum { SENTINEL = 0xA5, MAX_REPORTED_MISMATCHES = 8 };

/* Element kinds: the payload layout of one element of the MPI datatype under test. */
enum kind { K_BYTE, K_INT, K_DOUBLE, K_VEC, K_MAT };

struct kind_info {
  const char *name;
  size_t extent;  /* bytes from one element to the next in memory */
  size_t payload; /* bytes of data per element (what the collective moves) */
};

static const struct kind_info kinds[] = {
    [K_BYTE] = {"byte", 1, 1},
    [K_INT] = {"int", sizeof(int), sizeof(int)},
    [K_DOUBLE] = {"double", sizeof(double), sizeof(double)},
    /* two ints at offsets 0 and 2 of a four-int slot: holes at 1 and 3 must never be written */
    [K_VEC] = {"vector", 4 * sizeof(int), 2 * sizeof(int)},
    /* a 2x2 matrix of uint32 as a contiguous derived type */
    [K_MAT] = {"matrix", 4 * sizeof(uint32_t), 4 * sizeof(uint32_t)},
};

static MPI_Datatype vec_type, mat_type;
static MPI_Op vec_sum_op, mat_product_op;

static struct {
  int ops_bcast, ops_reduce, ops_noncommutative, ops_allreduce, ops_barrier, ops_allgather, ops_alltoall;
  int comm_world, comm_dup, comm_split, comm_inter;
  long max_bytes, all_roots_bytes;
} opt = {1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 4L << 20, 64L << 10};

static int world_rank;
static long checks, failures, op_misuse;
/* Calls with a non-empty payload on communicators of two or more ranks: the calls a coll
 * component can be expected to take (check_mpi compares them with modeltuned's trace lines). */
static long bcast_calls, reduce_calls, allreduce_calls, barrier_calls, allgather_calls, alltoall_calls;

static void count_call(MPI_Comm comm, long count, long *counter) {
  int size;
  MPI_Comm_size(comm, &size);
  if (count > 0 && size > 1) ++*counter;
}

static MPI_Datatype mpi_type(enum kind k) {
  switch (k) {
    case K_BYTE:
      return MPI_BYTE;
    case K_INT:
      return MPI_INT;
    case K_DOUBLE:
      return MPI_DOUBLE;
    case K_VEC:
      return vec_type;
    case K_MAT:
      return mat_type;
  }
  return MPI_DATATYPE_NULL;
}

/* ---- user operations ------------------------------------------------------------------- */

/* Commutative element-wise sum on the two data ints of a vector element; holes untouched. */
static void vec_sum(void *in, void *inout, int *len, MPI_Datatype *dt) {
  if (*dt != vec_type) op_misuse++;
  const int *a = in;
  int *b = inout;
  for (int i = 0; i < *len; i++) {
    b[4 * i] += a[4 * i];
    b[4 * i + 2] += a[4 * i + 2];
  }
}

static void mat_mul(const uint32_t *x, const uint32_t *y, uint32_t *out) {
  uint32_t r[4] = {x[0] * y[0] + x[1] * y[2], x[0] * y[1] + x[1] * y[3], x[2] * y[0] + x[3] * y[2],
                   x[2] * y[1] + x[3] * y[3]};
  memcpy(out, r, sizeof r);
}

/* MPI semantics: inout = in (x) inout, where `in` holds the lower-ranked operands. */
static void mat_product(void *in, void *inout, int *len, MPI_Datatype *dt) {
  if (*dt != mat_type) op_misuse++;
  const uint32_t *a = in;
  uint32_t *b = inout;
  for (int i = 0; i < *len; i++) mat_mul(a + 4 * i, b + 4 * i, b + 4 * i);
}

/* ---- values ------------------------------------------------------------------------------ */

static uint32_t mix(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

/* Value of element i contributed by comm rank q in the case identified by seed. Small integers
 * (|v| <= 1000) so sums over any number of ranks stay exact in int and in double. */
static int small_int(uint32_t seed, int q, long i) {
  return (int)(mix(seed ^ mix((uint32_t)q * 2654435761U ^ (uint32_t)i)) % 2001) - 1000;
}

/* Fills element i (layout of kind k) with rank q's contribution; holes are left alone. */
static void put_value(enum kind k, unsigned char *base, long i, uint32_t seed, int q) {
  unsigned char *e = base + (size_t)i * kinds[k].extent;
  switch (k) {
    case K_BYTE:
      *e = (unsigned char)mix(seed ^ mix((uint32_t)q * 977U + (uint32_t)i));
      break;
    case K_INT: {
      int v = small_int(seed, q, i);
      memcpy(e, &v, sizeof v);
      break;
    }
    case K_DOUBLE: {
      double v = small_int(seed, q, i) / 8.0;
      memcpy(e, &v, sizeof v);
      break;
    }
    case K_VEC: {
      int v0 = small_int(seed, q, 2 * i), v1 = small_int(seed + 1, q, 2 * i + 1);
      memcpy(e, &v0, sizeof v0);
      memcpy(e + 2 * sizeof(int), &v1, sizeof v1);
      break;
    }
    case K_MAT: {
      uint32_t m[4];
      for (int j = 0; j < 4; j++) m[j] = mix(seed ^ mix((uint32_t)q * 4U + (uint32_t)j) ^ (uint32_t)i * 7919U);
      memcpy(e, m, sizeof m);
      break;
    }
  }
}

/* ---- reporting --------------------------------------------------------------------------- */

struct ctx {
  const char *comm_name;
  const char *op; /* "bcast" or reduce op name */
  enum kind kind;
  long count;
  int root;
  int in_place;
};

static void mismatch(const struct ctx *c, const char *fmt, ...) {
  failures++;
  if (failures > MAX_REPORTED_MISMATCHES) return;
  char what[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  fprintf(stderr, "collectives: MISMATCH world_rank=%d comm=%s op=%s type=%s count=%ld root=%d%s: %s\n", world_rank,
          c->comm_name, c->op, kinds[c->kind].name, c->count, c->root, c->in_place ? " in_place" : "", what);
}

/* Compares n bytes; reports the first differing byte offset and how many differ. */
static void compare_bytes(const struct ctx *c, const char *what, const unsigned char *got,
                          const unsigned char *expected, size_t n) {
  checks++;
  if (memcmp(got, expected, n) == 0) return;
  size_t first = 0, differing = 0;
  for (size_t b = 0; b < n; b++)
    if (got[b] != expected[b]) {
      if (differing++ == 0) first = b;
    }
  mismatch(c, "%s: %zu of %zu bytes differ, first at byte %zu (element %zu): got 0x%02x expected 0x%02x", what,
           differing, n, first, first / kinds[c->kind].extent, got[first], expected[first]);
}

/* ---- the two collectives ------------------------------------------------------------------ */

/* n bytes of the sentinel in test buffer `slot` (test_buffer.h): each buffer live at once in a
 * case has a slot of its own. */
enum { SLOT_EXPECTED, SLOT_RECV, SLOT_SEND, SLOT_SEND_COPY, SLOT_CONTRIBUTION };
static unsigned char *alloc_filled(int slot, size_t n) {
  unsigned char *p = test_buffer(slot, n);
  memset(p, SENTINEL, n);
  return p;
}

static uint32_t case_seed(const char *comm_name, int op_id, enum kind k, long count, int root) {
  uint32_t s = 0x9e3779b9U;
  for (const char *p = comm_name; *p; p++) s = mix(s ^ (unsigned char)*p);
  return mix(s ^ mix((uint32_t)op_id * 131U + (uint32_t)k) ^ mix((uint32_t)count) ^ (uint32_t)root * 17U);
}

static void run_bcast(MPI_Comm comm, const char *comm_name, enum kind k, long count, int root) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  size_t n = (size_t)count * kinds[k].extent;
  uint32_t seed = case_seed(comm_name, 0, k, count, root);
  unsigned char *expected = alloc_filled(SLOT_EXPECTED, n), *buf = alloc_filled(SLOT_RECV, n);
  for (long i = 0; i < count; i++) put_value(k, expected, i, seed, root);
  if (rank == root) memcpy(buf, expected, n);
  MPI_Bcast(buf, (int)count, mpi_type(k), root, comm);
  count_call(comm, count, &bcast_calls);
  struct ctx c = {comm_name, "bcast", k, count, root, 0};
  compare_bytes(&c, rank == root ? "root buffer changed" : "received data", buf, expected, n);
}

struct reduce_op {
  const char *name;
  int id;
  MPI_Op *op; /* pointer: user ops are created at run time */
  int commutative;
};

static MPI_Op op_sum = MPI_SUM, op_max = MPI_MAX, op_bxor = MPI_BXOR;

/* Folds contribution `v` (element i of kind k) into the accumulator `acc` in rank order. */
static void fold(const struct reduce_op *op, enum kind k, unsigned char *acc, const unsigned char *v, long count) {
  for (long i = 0; i < count; i++) {
    unsigned char *a = acc + (size_t)i * kinds[k].extent;
    const unsigned char *b = v + (size_t)i * kinds[k].extent;
    switch (k) {
      case K_BYTE:
        *a ^= *b;
        break;
      case K_INT: {
        int x, y;
        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        x = *op->op == MPI_MAX ? (x > y ? x : y) : x + y;
        memcpy(a, &x, sizeof x);
        break;
      }
      case K_DOUBLE: {
        double x, y;
        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        x = *op->op == MPI_MAX ? (x > y ? x : y) : x + y;
        memcpy(a, &x, sizeof x);
        break;
      }
      case K_VEC: {
        int v2 = 1; /* element-wise on the two data ints */
        vec_sum((void *)b, a, &v2, &vec_type);
        break;
      }
      case K_MAT:
        mat_mul((const uint32_t *)a, (const uint32_t *)b, (uint32_t *)a);
        break;
    }
  }
}

/* v_0 op v_1 op ... op v_{P-1} of every rank's values for this case, in rank order; holes keep
 * the sentinel. */
static unsigned char *expected_reduction(const struct reduce_op *op, enum kind k, long count, uint32_t seed, int size) {
  const size_t n = (size_t)count * kinds[k].extent;
  unsigned char *expected = alloc_filled(SLOT_EXPECTED, n), *contribution = alloc_filled(SLOT_CONTRIBUTION, n);
  for (long i = 0; i < count; i++) put_value(k, expected, i, seed, 0);
  for (int q = 1; q < size; q++) {
    for (long i = 0; i < count; i++) put_value(k, contribution, i, seed, q);
    fold(op, k, expected, contribution, count);
  }
  return expected;
}

static void run_reduce(MPI_Comm comm, const char *comm_name, const struct reduce_op *op, enum kind k, long count,
                       int root, int in_place) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  size_t n = (size_t)count * kinds[k].extent;
  uint32_t seed = case_seed(comm_name, op->id, k, count, root);
  unsigned char *send = alloc_filled(SLOT_SEND, n), *send_copy = alloc_filled(SLOT_SEND_COPY, n),
                *recv = alloc_filled(SLOT_RECV, n);
  for (long i = 0; i < count; i++) put_value(k, send, i, seed, rank);
  memcpy(send_copy, send, n);
  if (in_place && rank == root) {
    memcpy(recv, send, n);
    MPI_Reduce(MPI_IN_PLACE, recv, (int)count, mpi_type(k), *op->op, root, comm);
  } else {
    MPI_Reduce(send, recv, (int)count, mpi_type(k), *op->op, root, comm);
  }
  count_call(comm, count, &reduce_calls);
  struct ctx c = {comm_name, op->name, k, count, root, in_place && rank == root};
  if (!(in_place && rank == root)) compare_bytes(&c, "send buffer changed", send, send_copy, n);
  if (rank == root) {
    unsigned char *expected = expected_reduction(op, k, count, seed, size);
    compare_bytes(&c, "reduced data", recv, expected, n);
  }
}

/* Every rank gets v_0 op v_1 op ... op v_{P-1}; holes keep what the receive buffer held (the
 * sentinel, or the rank's own holes in place). */
static void run_allreduce(MPI_Comm comm, const char *comm_name, const struct reduce_op *op, enum kind k, long count,
                          int in_place) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  size_t n = (size_t)count * kinds[k].extent;
  uint32_t seed = case_seed(comm_name, 100 + op->id, k, count, 0);
  unsigned char *send = alloc_filled(SLOT_SEND, n), *send_copy = alloc_filled(SLOT_SEND_COPY, n),
                *recv = alloc_filled(SLOT_RECV, n);
  for (long i = 0; i < count; i++) put_value(k, send, i, seed, rank);
  memcpy(send_copy, send, n);
  if (in_place) {
    memcpy(recv, send, n);
    MPI_Allreduce(MPI_IN_PLACE, recv, (int)count, mpi_type(k), *op->op, comm);
  } else {
    MPI_Allreduce(send, recv, (int)count, mpi_type(k), *op->op, comm);
  }
  count_call(comm, count, &allreduce_calls);
  struct ctx c = {comm_name, op->name, k, count, -1, in_place};
  if (!in_place) compare_bytes(&c, "send buffer changed", send, send_copy, n);
  unsigned char *expected = expected_reduction(op, k, count, seed, size);
  compare_bytes(&c, "allreduced data", recv, expected, n);
}

/* ---- the case table ---------------------------------------------------------------------- */

/* Element counts tried for every kind; "around P" ones are added per communicator. */
static const long common_counts[] = {0, 1, 7, 1000, 12345};
/* A few large cases (bytes of payload), mapped to element counts per kind. */
struct large_case {
  enum kind kind;
  long payload_bytes;
};
static const struct large_case large_bcast[] = {
    {K_BYTE, 4L << 20}, {K_BYTE, (1L << 20) + 3}, {K_DOUBLE, 4L << 20}, {K_VEC, 800008}};

struct reduce_case {
  struct reduce_op op;
  enum kind kind;
};
static struct reduce_case reduce_cases[] = {
    {{"sum", 1, &op_sum, 1}, K_INT},    {{"max", 2, &op_max, 1}, K_INT},
    {{"sum", 3, &op_sum, 1}, K_DOUBLE}, {{"max", 4, &op_max, 1}, K_DOUBLE},
    {{"bxor", 5, &op_bxor, 1}, K_BYTE}, {{"user_vec_sum", 6, &vec_sum_op, 1}, K_VEC},
};
static struct reduce_case noncommutative_case = {{"user_matrix_product", 7, &mat_product_op, 0}, K_MAT};
/* A few large reductions: index into reduce_cases and payload bytes. */
static const struct {
  int reduce_case;
  long payload_bytes;
} large_reduce[] = {{0, (1L << 20) + 4}, {2, 4L << 20}, {5, 400008}};

/* Roots to try: all of them for small payloads, first/middle/last for large ones. */
static int roots_for(int size, long payload, int *roots) {
  if (payload <= opt.all_roots_bytes) {
    for (int r = 0; r < size; r++) roots[r] = r;
    return size;
  }
  int n = 0;
  int candidates[3] = {0, size / 2, size - 1};
  for (int j = 0; j < 3; j++) {
    int dup = 0;
    for (int m = 0; m < n; m++) dup |= roots[m] == candidates[j];
    if (!dup) roots[n++] = candidates[j];
  }
  return n;
}

/* Counts for one communicator: the common ones plus P-1, P, P+1. */
static int counts_for(int size, long *counts) {
  int n = 0;
  for (size_t j = 0; j < sizeof common_counts / sizeof *common_counts; j++) counts[n++] = common_counts[j];
  for (long c = size - 1; c <= size + 1; c++) {
    int dup = 0;
    for (int m = 0; m < n; m++) dup |= counts[m] == c;
    if (!dup) counts[n++] = c;
  }
  return n;
}

static void reduce_all_roots(MPI_Comm comm, const char *name, const struct reduce_case *rc, long count,
                             int case_index) {
  int size;
  MPI_Comm_size(comm, &size);
  long payload = count * (long)kinds[rc->kind].payload;
  if (payload > opt.max_bytes) return;
  int roots[size > 3 ? size : 3];
  int nroots = roots_for(size, payload, roots);
  for (int j = 0; j < nroots; j++) /* alternate MPI_IN_PLACE so every root and every case sees both forms */
    run_reduce(comm, name, &rc->op, rc->kind, count, roots[j], (roots[j] + case_index) % 2);
}

/* Allreduce: every commutative case and the non-commutative one at every count, and the large
 * ones, in place on every other call. */
static void test_allreduce(MPI_Comm comm, const char *name, const long *counts, int ncounts) {
  for (size_t c = 0; c < sizeof reduce_cases / sizeof *reduce_cases; c++)
    for (int j = 0; j < ncounts; j++)
      if (counts[j] * (long)kinds[reduce_cases[c].kind].payload <= opt.max_bytes)
        run_allreduce(comm, name, &reduce_cases[c].op, reduce_cases[c].kind, counts[j], (int)(c + j) % 2);
  for (size_t j = 0; j < sizeof large_reduce / sizeof *large_reduce; j++) {
    const struct reduce_case *rc = &reduce_cases[large_reduce[j].reduce_case];
    if (large_reduce[j].payload_bytes <= opt.max_bytes)
      run_allreduce(comm, name, &rc->op, rc->kind, large_reduce[j].payload_bytes / (long)kinds[rc->kind].payload,
                    (int)j % 2);
  }
  for (int j = 0; j < ncounts; j++)
    if (counts[j] * (long)kinds[K_MAT].payload <= opt.max_bytes)
      run_allreduce(comm, name, &noncommutative_case.op, K_MAT, counts[j], j % 2);
}

/* Every rank's `n` values of `type` (extent `extent`) in rank order at rank 0, by point-to-point
 * messages: no collective the runs count. */
static void collect_at_zero(const void *mine, int n, MPI_Datatype type, size_t extent, void *all, MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (rank != 0) {
    MPI_Send(mine, n, type, 0, 4712, comm);
    return;
  }
  memcpy(all, mine, (size_t)n * extent);
  for (int q = 1; q < size; q++)
    MPI_Recv((char *)all + (size_t)q * (size_t)n * extent, n, type, q, 4712, comm, MPI_STATUS_IGNORE);
}

/* Barrier: in each round one rank, in turn, enters 2 ms late; afterwards every round's latest
 * entry must precede its earliest exit. CLOCK_MONOTONIC is the machine's one clock, also across
 * emulated nodes, and a correct barrier orders every exit after every entry through its
 * messages, so this holds on any load; a barrier that lets a rank through early fails it. */
static double monotonic_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void test_barrier(MPI_Comm comm, const char *name) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int rounds = 2 * size + 2;
  double *mine = malloc(sizeof(double) * 2 * (size_t)rounds);
  double *all = malloc(sizeof(double) * 2 * (size_t)rounds * (size_t)size);
  for (int k = 0; k < rounds; k++) {
    if (rank == k % size) usleep(2000);
    mine[2 * k] = monotonic_seconds();
    MPI_Barrier(comm);
    mine[2 * k + 1] = monotonic_seconds();
    count_call(comm, 1, &barrier_calls);
  }
  collect_at_zero(mine, 2 * rounds, MPI_DOUBLE, sizeof(double), all, comm);
  for (int k = 0; rank == 0 && k < rounds; k++) {
    double last_entry = all[2 * k], first_exit = all[2 * k + 1];
    int late = 0, early = 0;
    for (int q = 0; q < size; q++) {
      const double entry = all[2 * rounds * q + 2 * k], exit = all[2 * rounds * q + 2 * k + 1];
      if (entry > last_entry) last_entry = entry, late = q;
      if (exit < first_exit) first_exit = exit, early = q;
    }
    checks++;
    if (first_exit < last_entry) {
      struct ctx c = {name, "barrier", K_BYTE, 0, -1, 0};
      mismatch(&c, "round %d: rank %d left %.1f us before rank %d entered", k, early, 1e6 * (last_entry - first_exit),
               late);
    }
  }
  free(mine);
  free(all);
}

/* How the odd ranks of an allgather or alltoall case describe their ints: as the even ranks do;
 * as half as many two-int elements, on both sides; as vector elements on the send side only (a
 * rank whose two sides differ in layout; alltoall's cases). */
enum layout { SAME_LAYOUT, PAIRS, STRIDED_SEND };

/* Allgather: rank q's block holds the values seeded by q; the whole receive buffer, holes
 * included, must equal every block in rank order. In place, a rank's own block is in the receive
 * buffer beforehand (and its send count 0, which MPI ignores). */
static void run_allgather(MPI_Comm comm, const char *comm_name, enum kind k, long count, int in_place,
                          enum layout layout) {
  const int pairs = layout == PAIRS;
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const size_t block = (size_t)count * kinds[k].extent, n = block * (size_t)size;
  const uint32_t seed = case_seed(comm_name, 5 + pairs, k, count, 0);
  unsigned char *expected = alloc_filled(SLOT_EXPECTED, n), *rbuf = alloc_filled(SLOT_RECV, n),
                *sbuf = alloc_filled(SLOT_SEND, block);
  for (int q = 0; q < size; q++)
    for (long i = 0; i < count; i++) put_value(k, expected + (size_t)q * block, i, seed, q);
  memcpy(in_place ? rbuf + (size_t)rank * block : sbuf, expected + (size_t)rank * block, block);
  MPI_Datatype type = mpi_type(k), pair = MPI_DATATYPE_NULL;
  int elements = (int)count;
  if (pairs && rank % 2) {
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    type = pair;
    elements = (int)count / 2;
  }
  MPI_Allgather(in_place ? MPI_IN_PLACE : sbuf, in_place ? 0 : elements, type, rbuf, elements, type, comm);
  count_call(comm, count, &allgather_calls);
  struct ctx c = {comm_name, pairs ? "allgather(two-int elements on odd ranks)" : "allgather", k, count, -1, in_place};
  compare_bytes(&c, "gathered data", rbuf, expected, n);
  if (pair != MPI_DATATYPE_NULL) MPI_Type_free(&pair);
}

/* The odd ranks' send side of an alltoall of ints, as vector elements: two ints 8 bytes apart,
 * 16 bytes each, a hole after each int; `ints` holds `blocks` blocks of `count` ints. */
static unsigned char *strided_copy(const unsigned char *ints, int blocks, long count) {
  const size_t elements = (size_t)blocks * (size_t)count / 2;
  unsigned char *out = alloc_filled(SLOT_SEND_COPY, elements * kinds[K_VEC].extent);
  for (size_t j = 0; j < elements; j++) {
    memcpy(out + j * kinds[K_VEC].extent, ints + 2 * j * sizeof(int), sizeof(int));
    memcpy(out + j * kinds[K_VEC].extent + 2 * sizeof(int), ints + (2 * j + 1) * sizeof(int), sizeof(int));
  }
  return out;
}

/* Alltoall: rank q's block for rank d holds the values seeded by (q, d); rank r's receive buffer,
 * holes included, must hold every rank's block for r in rank order. In place, the blocks a rank
 * sends are in its receive buffer beforehand (and its send count 0, which MPI ignores). */
static void run_alltoall(MPI_Comm comm, const char *comm_name, enum kind k, long count, int in_place,
                         enum layout layout) {
  const int pairs = layout == PAIRS, strided = layout == STRIDED_SEND;
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const size_t block = (size_t)count * kinds[k].extent, n = block * (size_t)size;
  const uint32_t seed = case_seed(comm_name, 7 + pairs, k, count, 0);
  unsigned char *expected = alloc_filled(SLOT_EXPECTED, n), *rbuf = alloc_filled(SLOT_RECV, n),
                *sbuf = alloc_filled(SLOT_SEND, n);
  for (int q = 0; q < size; q++)
    for (long i = 0; i < count; i++) {
      put_value(k, expected + (size_t)q * block, i, seed + 7919u * (uint32_t)rank, q);
      put_value(k, (in_place ? rbuf : sbuf) + (size_t)q * block, i, seed + 7919u * (uint32_t)q, rank);
    }
  MPI_Datatype type = mpi_type(k), pair = MPI_DATATYPE_NULL;
  int elements = (int)count;
  if (pairs && rank % 2) {
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    type = pair;
    elements = (int)count / 2;
  }
  unsigned char *send = sbuf;
  MPI_Datatype send_type = type;
  int send_elements = elements;
  if (strided && rank % 2) {
    send = strided_copy(sbuf, size, count);
    send_type = vec_type;
    send_elements = (int)count / 2;
  }
  MPI_Alltoall(in_place ? MPI_IN_PLACE : send, in_place ? 0 : send_elements, send_type, rbuf, elements, type, comm);
  count_call(comm, count, &alltoall_calls);
  struct ctx c = {comm_name,
                  pairs     ? "alltoall(two-int elements on odd ranks)"
                  : strided ? "alltoall(odd ranks send vector elements)"
                            : "alltoall",
                  k,
                  count,
                  -1,
                  in_place};
  compare_bytes(&c, "exchanged data", rbuf, expected, n);
  if (pair != MPI_DATATYPE_NULL) MPI_Type_free(&pair);
}

typedef void (*exchange_case)(MPI_Comm comm, const char *comm_name, enum kind k, long count, int in_place,
                              enum layout layout);

/* Allgather's and alltoall's cases: every kind at every count, in place on every other call, the
 * mixed layouts at even counts (a strided send side, where `strided`, not in place), and a few
 * large blocks, as far as the whole receive buffer fits in --max-bytes. */
static void test_exchange(MPI_Comm comm, const char *name, const long *counts, int ncounts, exchange_case run,
                          int strided) {
  int size;
  MPI_Comm_size(comm, &size);
  static const long large_blocks[] = {(64L << 10) + 4, 256L << 10};
  for (enum kind k = K_BYTE; k <= K_MAT; k++)
    for (int j = 0; j < ncounts; j++)
      if (counts[j] * (long)kinds[k].payload * size <= opt.max_bytes)
        run(comm, name, k, counts[j], (int)(k + j) % 2, SAME_LAYOUT);
  for (int j = 0; j < ncounts; j++)
    if (counts[j] % 2 == 0 && counts[j] * (long)sizeof(int) * size <= opt.max_bytes) {
      run(comm, name, K_INT, counts[j], j % 2, PAIRS);
      if (strided) run(comm, name, K_INT, counts[j], 0, STRIDED_SEND);
    }
  for (size_t j = 0; j < sizeof large_blocks / sizeof *large_blocks; j++)
    if (large_blocks[j] * size <= opt.max_bytes) {
      const long count = large_blocks[j] / (long)sizeof(int);
      run(comm, name, K_INT, count, (int)j % 2, SAME_LAYOUT);
      if (count % 2 == 0) {
        run(comm, name, K_INT, count, (int)(j + 1) % 2, PAIRS);
        if (strided) run(comm, name, K_INT, count, 0, STRIDED_SEND);
      }
    }
}

static void test_comm(MPI_Comm comm, const char *name) {
  int size;
  MPI_Comm_size(comm, &size);
  long counts[16];
  int ncounts = counts_for(size, counts);
  int roots[size > 3 ? size : 3];

  if (opt.ops_bcast) {
    for (enum kind k = K_BYTE; k <= K_VEC; k++)
      for (int j = 0; j < ncounts; j++) {
        long payload = counts[j] * (long)kinds[k].payload;
        if (payload > opt.max_bytes) continue;
        int nroots = roots_for(size, payload, roots);
        for (int r = 0; r < nroots; r++) run_bcast(comm, name, k, counts[j], roots[r]);
      }
    for (size_t j = 0; j < sizeof large_bcast / sizeof *large_bcast; j++) {
      const struct large_case *lc = &large_bcast[j];
      if (lc->payload_bytes > opt.max_bytes) continue;
      long count = lc->payload_bytes / (long)kinds[lc->kind].payload;
      int nroots = roots_for(size, lc->payload_bytes, roots);
      for (int r = 0; r < nroots; r++) run_bcast(comm, name, lc->kind, count, roots[r]);
    }
  }
  if (opt.ops_reduce) {
    for (size_t c = 0; c < sizeof reduce_cases / sizeof *reduce_cases; c++)
      for (int j = 0; j < ncounts; j++) reduce_all_roots(comm, name, &reduce_cases[c], counts[j], (int)(c + j));
    for (size_t j = 0; j < sizeof large_reduce / sizeof *large_reduce; j++) {
      const struct reduce_case *rc = &reduce_cases[large_reduce[j].reduce_case];
      reduce_all_roots(comm, name, rc, large_reduce[j].payload_bytes / (long)kinds[rc->kind].payload, (int)j);
    }
  }
  if (opt.ops_noncommutative) {
    for (int j = 0; j < ncounts; j++) reduce_all_roots(comm, name, &noncommutative_case, counts[j], j);
    reduce_all_roots(comm, name, &noncommutative_case, (1L << 20) / (long)kinds[K_MAT].payload + 1, 0);
  }
  if (opt.ops_allreduce) test_allreduce(comm, name, counts, ncounts);
  if (opt.ops_barrier) test_barrier(comm, name);
  if (opt.ops_allgather) test_exchange(comm, name, counts, ncounts, run_allgather, 0);
  if (opt.ops_alltoall) test_exchange(comm, name, counts, ncounts, run_alltoall, 1);
}

/* ---- intercommunicator -------------------------------------------------------------------- */

/* On an intercommunicator a root's data go to the other group, and reductions combine the other
 * group's contributions. No coll component under test may take these calls (modeltuned declines
 * intercommunicators), so they are not counted; what is checked is that they run and are right.
 * Group g holds the world ranks of parity g; its local rank l is world rank 2 l + g. */
static void expect_ints(const char *op, int root, long count, const int *got, const int *expected) {
  struct ctx c = {"inter", op, K_INT, count, root, 0};
  compare_bytes(&c, "received data", (const unsigned char *)got, (const unsigned char *)expected,
                (size_t)count * sizeof(int));
}

/* Sum over the ranks of group g of their contribution to the case `seed`. */
static void sum_of_group(int g, int world_size, uint32_t seed, long count, int *sum) {
  for (long i = 0; i < count; i++) sum[i] = 0;
  for (int q = g; q < world_size; q += 2)
    for (long i = 0; i < count; i++) sum[i] += small_int(seed, q, i);
}

static void intercomm_case(MPI_Comm inter, int group, int world_size, int root_group, int root, long count) {
  int remote_size, local_rank;
  MPI_Comm_remote_size(inter, &remote_size);
  MPI_Comm_rank(inter, &local_rank);
  const int at_root = group == root_group && local_rank == root;
  const int root_arg = group != root_group ? root : at_root ? MPI_ROOT : MPI_PROC_NULL;
  const int root_world = 2 * root + root_group;
  const uint32_t seed = case_seed("inter", 8 + root_group, K_INT, count, root);
  int *mine = malloc(sizeof(int) * (size_t)(count * (remote_size + 1) + 1));
  int *buf = malloc(sizeof(int) * (size_t)(count * (remote_size + 1) + 1));
  int *expected = malloc(sizeof(int) * (size_t)(count + 1));
  for (long i = 0; i < count; i++) mine[i] = small_int(seed, 2 * local_rank + group, i);

  /* bcast: the root's values reach the other group */
  for (long i = 0; i < count; i++) buf[i] = at_root ? small_int(seed, root_world, i) : 0;
  MPI_Bcast(buf, (int)count, MPI_INT, root_arg, inter);
  for (long i = 0; i < count; i++) expected[i] = small_int(seed, root_world, i);
  if (group != root_group) expect_ints("bcast", root, count, buf, expected);

  /* reduce: the root gets the sum of the other group's values */
  MPI_Reduce(mine, buf, (int)count, MPI_INT, MPI_SUM, root_arg, inter);
  sum_of_group(1 - root_group, world_size, seed, count, expected);
  if (at_root) expect_ints("reduce", root, count, buf, expected);

  /* scatter: remote rank l gets the root's block l */
  for (long i = 0; i < count * remote_size; i++) mine[count + i] = small_int(seed + 1, root_world, i);
  MPI_Scatter(mine + count, (int)count, MPI_INT, buf, (int)count, MPI_INT, root_arg, inter);
  for (long i = 0; i < count; i++) expected[i] = small_int(seed + 1, root_world, local_rank * count + i);
  if (group != root_group) expect_ints("scatter", root, count, buf, expected);

  /* allreduce: each group gets the sum of the other group's values */
  MPI_Allreduce(mine, buf, (int)count, MPI_INT, MPI_SUM, inter);
  sum_of_group(1 - group, world_size, seed, count, expected);
  expect_ints("allreduce", -1, count, buf, expected);

  MPI_Barrier(inter);
  free(mine);
  free(buf);
  free(expected);
}

static void test_intercomm(int world_size) {
  if (world_size < 2) return;
  const int group = world_rank % 2;
  MPI_Comm parent, local, inter;
  MPI_Comm_dup(MPI_COMM_WORLD, &parent); /* its split's MPI_Allgather is not the program's call */
  MPI_Comm_split(parent, group, world_rank, &local);
  MPI_Comm_free(&parent);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - group, 4711, &inter);
  static const long counts[] = {1, 7, 1000, 12345};
  for (int root_group = 0; root_group < 2; root_group++) {
    const int group_size = (world_size + 1 - root_group) / 2;
    for (size_t j = 0; j < sizeof counts / sizeof *counts; j++)
      if (counts[j] * (long)sizeof(int) <= opt.max_bytes) {
        intercomm_case(inter, group, world_size, root_group, 0, counts[j]);
        intercomm_case(inter, group, world_size, root_group, group_size - 1, counts[j]);
      }
  }
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
}

/* ---- options and main -------------------------------------------------------------------- */

static void usage_error(const char *arg) {
  if (world_rank == 0)
    fprintf(
        stderr,
        "collectives: bad argument '%s'; use --ops=bcast,reduce,noncommutative,allreduce,barrier,allgather,alltoall "
        "--comms=world,dup,split,inter --max-bytes=N --all-roots-bytes=N\n",
        arg);
  MPI_Finalize();
  exit(2);
}

static int parse_list(const char *list, const char *const *names, int *const *flags, int n) {
  for (int j = 0; j < n; j++) *flags[j] = 0;
  char copy[256];
  snprintf(copy, sizeof copy, "%s", list);
  for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    int found = 0;
    for (int j = 0; j < n; j++)
      if (strcmp(tok, names[j]) == 0) *flags[j] = found = 1;
    if (!found) return 0;
  }
  return 1;
}

static int parse_size(const char *text, long *out) {
  char *end;
  long v = strtol(text, &end, 10);
  if (end == text || *end || v < 0) return 0;
  *out = v;
  return 1;
}

static void parse_options(int argc, char **argv) {
  for (int a = 1; a < argc; a++) {
    const char *arg = argv[a];
    static const char *const op_names[] = {"bcast",   "reduce",    "noncommutative", "allreduce",
                                           "barrier", "allgather", "alltoall"};
    static const char *const comm_names[] = {"world", "dup", "split", "inter"};
    int *const op_flags[] = {&opt.ops_bcast,   &opt.ops_reduce,    &opt.ops_noncommutative, &opt.ops_allreduce,
                             &opt.ops_barrier, &opt.ops_allgather, &opt.ops_alltoall};
    int *const comm_flags[] = {&opt.comm_world, &opt.comm_dup, &opt.comm_split, &opt.comm_inter};
    if (strncmp(arg, "--ops=", 6) == 0) {
      if (!parse_list(arg + 6, op_names, op_flags, 7)) usage_error(arg);
    } else if (strncmp(arg, "--comms=", 8) == 0) {
      if (!parse_list(arg + 8, comm_names, comm_flags, 4)) usage_error(arg);
    } else if (strncmp(arg, "--max-bytes=", 12) == 0) {
      if (!parse_size(arg + 12, &opt.max_bytes)) usage_error(arg);
    } else if (strncmp(arg, "--all-roots-bytes=", 18) == 0) {
      if (!parse_size(arg + 18, &opt.all_roots_bytes)) usage_error(arg);
    } else {
      usage_error(arg);
    }
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int world_size;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  parse_options(argc, argv);

  MPI_Datatype vec_raw;
  MPI_Type_vector(2, 1, 2, MPI_INT, &vec_raw);
  MPI_Type_create_resized(vec_raw, 0, (MPI_Aint)kinds[K_VEC].extent, &vec_type);
  MPI_Type_commit(&vec_type);
  MPI_Type_free(&vec_raw);
  MPI_Type_contiguous(4, MPI_UINT32_T, &mat_type);
  MPI_Type_commit(&mat_type);
  MPI_Op_create(vec_sum, 1, &vec_sum_op);
  MPI_Op_create(mat_product, 0, &mat_product_op);

  if (opt.comm_world) test_comm(MPI_COMM_WORLD, "world");
  if (opt.comm_dup) {
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_name(dup, "world_dup");
    test_comm(dup, "world_dup");
    MPI_Comm_free(&dup);
  }
  if (opt.comm_split) {
    /* odd/even halves with comm ranks in reverse world order, so comm rank != world rank / 2. Split
     * from an unnamed copy of world: Open MPI's split gathers the colours with the parent's
     * MPI_Allgather, a call the program does not count. */
    MPI_Comm parent, half;
    const char *name = world_rank % 2 ? "split_odd" : "split_even";
    MPI_Comm_dup(MPI_COMM_WORLD, &parent);
    MPI_Comm_split(parent, world_rank % 2, world_size - world_rank, &half);
    MPI_Comm_free(&parent);
    MPI_Comm_set_name(half, (char *)name);
    test_comm(half, name);
    MPI_Comm_free(&half);
  }

  if (opt.comm_inter) test_intercomm(world_size);

  if (op_misuse) {
    struct ctx c = {"-", "user op", K_MAT, 0, -1, 0};
    mismatch(&c, "user operation called %ld times with a datatype other than the one reduced", op_misuse);
  }

  enum { N = 8 };
  long mine[N] = {checks,          failures,      bcast_calls,     reduce_calls,
                  allreduce_calls, barrier_calls, allgather_calls, alltoall_calls},
       total[N] = {0};
  long *all = malloc(sizeof mine * (size_t)world_size);
  collect_at_zero(mine, N, MPI_LONG, sizeof(long), all, MPI_COMM_WORLD);
  for (int r = 0; world_rank == 0 && r < world_size; r++)
    for (int j = 0; j < N; j++) total[j] += all[N * r + j];
  free(all);
  long total_failures = world_rank == 0 ? total[1] : failures; /* the verdict is rank 0's */
  if (world_rank == 0)
    printf(
        "collectives: %s ranks=%d checks=%ld failures=%ld bcast_calls=%ld reduce_calls=%ld allreduce_calls=%ld "
        "barrier_calls=%ld allgather_calls=%ld alltoall_calls=%ld\n",
        total_failures ? "FAIL" : "PASS", world_size, total[0], total_failures, total[2], total[3], total[4], total[5],
        total[6], total[7]);
  fflush(stdout);

  MPI_Op_free(&vec_sum_op);
  MPI_Op_free(&mat_product_op);
  MPI_Type_free(&vec_type);
  MPI_Type_free(&mat_type);
  MPI_Finalize();
  return total_failures ? 1 : 0;
}
