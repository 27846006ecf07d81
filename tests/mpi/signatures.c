/* Ranks passing different datatypes of one type signature, run by check_signatures.
 *
 * MPI only requires the type signatures of a collective's ranks to match: the root may send
 * N x contiguous(4, MPI_INT) while the others receive 4N x MPI_INT, a padded struct may meet its
 * packed twin, a vector with holes may meet plain ints. For every algorithm named on the command
 * line the program allows only that one (coll_modeltuned_{bcast,reduce,allreduce}_algorithms through
 * MPI_T), duplicates MPI_COMM_WORLD (modeltuned snapshots the list per communicator) and runs every
 * case at counts 1, 17, 512 and 65530 with roots 0 and P-1, checking every value and that holes
 * of the receive layouts stay untouched, and that calls of a zero-size type (7 elements of
 * contiguous(0, MPI_INT)) write nothing, from every root. All ranks run the same sequence whatever they find, so a
 * wrong result never turns into a hang by itself.
 *
 * Usage: signatures --bcast=NAME:ID,... --reduce=NAME:ID,... --allreduce=NAME:ID,...
 * (modeltuned's names and tuned's numbers, for the MPI_T counters
 * coll_modeltuned_{bcast,reduce,allreduce}_calls). Allreduce runs the reduce cases, its layouts
 * chosen as for root 0, every rank checking its result (in place on every rank where the case is).
 * Output (rank 0): "signatures: ran op=OP algorithm=NAME calls=N fallback=M" per algorithm, then
 * "signatures: PASS|FAIL checks=N failures=N"; "signatures: MISMATCH ..." lines on stderr. */
#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_t.h"
#include "test_buffer.h"

enum { SENTINEL = 0x5A, MAX_REPORTED = 8, MAX_ALGORITHMS = 32 };

/* Layouts: how the logical sequence of a case's elements sits in memory. */
enum layout { L_INT, L_C4, L_VEC, L_PAD, L_FLAT, L_UINT, L_MAT };
static MPI_Datatype type_of[L_MAT + 1];
static int per_element[L_MAT + 1] = {1, 4, 4, 1, 1, 1, 4}; /* logical values per datatype element */
static const char *layout_name[] = {"int", "contig4", "vector", "padded_struct", "packed_struct", "uint32", "matrix"};

static int world_rank, world_size;
static long checks, failures;

static void mismatch(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void mismatch(const char *fmt, ...) {
  if (++failures > MAX_REPORTED) return;
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "signatures: MISMATCH rank=%d ", world_rank);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

/* Byte offset of logical value j (an int, a uint32 or an (int, double) pair) in a buffer. */
static size_t offset_of(enum layout l, size_t j) {
  static const size_t vec_slot[4] = {0, 1, 3, 4}; /* vector(2, 2, 3): holes at 2 */
  switch (l) {
    case L_VEC:
      return (j / 4 * 5 + vec_slot[j % 4]) * sizeof(int);
    case L_PAD:
      return j * 16;
    case L_FLAT:
      return j * 12;
    default:
      return j * 4;
  }
}

static size_t buffer_bytes(enum layout l, size_t values) {
  return values ? offset_of(l, values - 1) + (l == L_PAD ? 16 : l == L_FLAT ? 12 : 4) : 0;
}

/* Value j of rank r's contribution (reduce) or of the root's message (bcast, r = root). */
static int32_t int_value(int r, size_t j) { return (int32_t)((r + 1) * (int32_t)(j % 997 + 1)); }
static double double_value(int r, size_t j) { return (double)(r * 1000003 + (long)j) / 8.0; }

static void put(enum layout l, char *buf, size_t j, int r) {
  const int32_t i = int_value(r, j);
  memcpy(buf + offset_of(l, j), &i, sizeof i);
  if (l == L_PAD || l == L_FLAT) {
    const double d = double_value(r, j);
    memcpy(buf + offset_of(l, j) + (l == L_PAD ? 8 : 4), &d, sizeof d);
  }
}

/* A 2x2 matrix mod 2^32 per group of four uint32 values: rank r's g-th matrix. */
static void put_matrix(char *buf, size_t g, int r) {
  const uint32_t m[4] = {(uint32_t)r + 1, (uint32_t)g + 1, 1, (uint32_t)r + 2};
  memcpy(buf + g * sizeof m, m, sizeof m);
}

static void matrix_product(const uint32_t *a, uint32_t *b) /* b = a * b */
{
  const uint32_t c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
                         a[2] * b[1] + a[3] * b[3]};
  memcpy(b, c, sizeof c);
}

/* User-defined operations: they see each rank's own datatype (Open MPI refuses intrinsic ones on
 * derived datatypes), so they find the ints themselves. */
static void user_sum(void *in, void *inout, int *len, MPI_Datatype *dt) {
  const enum layout l = *dt == type_of[L_C4] ? L_C4 : *dt == type_of[L_VEC] ? L_VEC : L_INT;
  const size_t n = (size_t)*len * per_element[l];
  for (size_t j = 0; j < n; ++j) {
    int32_t a, b;
    memcpy(&a, (char *)in + offset_of(l, j), sizeof a);
    memcpy(&b, (char *)inout + offset_of(l, j), sizeof b);
    b += a;
    memcpy((char *)inout + offset_of(l, j), &b, sizeof b);
  }
}

static void user_product(void *in, void *inout, int *len, MPI_Datatype *dt) {
  const int groups = *dt == type_of[L_MAT] ? *len : *len / 4;
  for (int g = 0; g < groups; ++g) matrix_product((uint32_t *)in + 4 * g, (uint32_t *)inout + 4 * g);
}

static MPI_Op user_sum_op, user_product_op;
static MPI_Datatype empty_type; /* contiguous(0, MPI_INT): a zero-size element */

static void make_types(void) {
  type_of[L_INT] = MPI_INT;
  type_of[L_UINT] = MPI_UINT32_T;
  MPI_Type_contiguous(4, MPI_INT, &type_of[L_C4]);
  MPI_Type_vector(2, 2, 3, MPI_INT, &type_of[L_VEC]);
  MPI_Type_contiguous(4, MPI_UINT32_T, &type_of[L_MAT]);
  int lengths[2] = {1, 1};
  MPI_Datatype members[2] = {MPI_INT, MPI_DOUBLE};
  MPI_Aint padded[2] = {0, 8}, packed[2] = {0, 4};
  MPI_Datatype s;
  MPI_Type_create_struct(2, lengths, padded, members, &s);
  MPI_Type_create_resized(s, 0, 16, &type_of[L_PAD]);
  MPI_Type_free(&s);
  MPI_Type_create_struct(2, lengths, packed, members, &s);
  MPI_Type_create_resized(s, 0, 12, &type_of[L_FLAT]);
  MPI_Type_free(&s);
  for (int l = L_C4; l <= L_MAT; ++l)
    if (l != L_UINT) MPI_Type_commit(&type_of[l]);
  MPI_Type_contiguous(0, MPI_INT, &empty_type);
  MPI_Type_commit(&empty_type);
  MPI_Op_create(user_sum, 1, &user_sum_op);
  MPI_Op_create(user_product, 0, &user_product_op);
}

/* A case: the layout of the root and of the other ranks (alternate: even ranks root_layout, odd
 * ranks other_layout, whoever is root), the operation (NULL: bcast) and in-place use. */
struct test_case {
  const char *name;
  enum layout root_layout, other_layout;
  int alternate;
  MPI_Op *op; /* NULL: bcast */
  int in_place;
};

static enum layout layout_for(const struct test_case *c, int rank, int root) {
  if (c->alternate) return rank % 2 ? c->other_layout : c->root_layout;
  return rank == root ? c->root_layout : c->other_layout;
}

static void check_bcast(const struct test_case *c, size_t n, int root, MPI_Comm comm) {
  const enum layout l = layout_for(c, world_rank, root);
  const size_t values = n * 4; /* ints, or pairs: 4 per "big" element at every count */
  const size_t bytes = buffer_bytes(l, values);
  char *buf = test_buffer(0, bytes + 1);
  memset(buf, SENTINEL, bytes + 1);
  for (size_t j = 0; world_rank == root && j < values; ++j) put(l, buf, j, root);
  MPI_Bcast(buf, (int)(values / per_element[l]), type_of[l], root, comm);
  char *expected = test_buffer(1, bytes + 1);
  memset(expected, SENTINEL, bytes + 1);
  for (size_t j = 0; j < values; ++j) put(l, expected, j, root);
  ++checks;
  if (0 != memcmp(buf, expected, bytes + 1)) {
    size_t at = 0;
    while (buf[at] == expected[at]) ++at;
    mismatch("bcast case=%s layout=%s n=%zu root=%d: first wrong byte %zu of %zu", c->name, layout_name[l], n, root, at,
             bytes);
  }
}

/* Reduce (root >= 0) or allreduce (root < 0: every rank gets the result; layouts as for root 0). */
static void check_reduce(const struct test_case *c, size_t n, int root, MPI_Comm comm, int size) {
  const int all = root < 0;
  const enum layout l = layout_for(c, world_rank, all ? 0 : root);
  const size_t values = n * 4;
  const size_t bytes = buffer_bytes(l, values);
  const int matrices = *c->op == user_product_op;
  char *in = test_buffer(0, bytes), *out = test_buffer(1, bytes + 1), *expected = test_buffer(2, bytes + 1);
  memset(in, SENTINEL, bytes);
  memset(out, SENTINEL, bytes + 1);
  memset(expected, SENTINEL, bytes + 1);
  for (size_t j = 0; j < values; ++j) {
    if (matrices) {
      if (j % 4 == 0) put_matrix(in, j / 4, world_rank);
    } else {
      put(l, in, j, world_rank);
    }
  }
  const int in_place = c->in_place && (all || world_rank == root);
  if (in_place) memcpy(out, in, bytes);
  if (all)
    MPI_Allreduce(in_place ? MPI_IN_PLACE : in, out, (int)(values / per_element[l]), type_of[l], *c->op, comm);
  else
    MPI_Reduce(in_place ? MPI_IN_PLACE : in, out, (int)(values / per_element[l]), type_of[l], *c->op, root, comm);
  if (all || world_rank == root) {
    for (size_t j = 0; j < values; ++j) {
      if (matrices) {
        if (j % 4) continue;
        uint32_t m[4] = {1, 0, 0, 1}, next[4];
        for (int r = size - 1; r >= 0; --r) { /* M_0 * M_1 * ... * M_{P-1} */
          put_matrix((char *)next, 0, r);
          next[1] = (uint32_t)(j / 4) + 1;
          matrix_product(next, m);
        }
        memcpy(expected + j * 4, m, sizeof m);
      } else {
        int32_t sum = 0;
        for (int r = 0; r < size; ++r) sum += int_value(r, j);
        memcpy(expected + offset_of(l, j), &sum, sizeof sum);
      }
    }
    ++checks;
    if (0 != memcmp(out, expected, bytes + 1)) {
      size_t at = 0;
      while (out[at] == expected[at]) ++at;
      mismatch("%s case=%s layout=%s n=%zu root=%d: first wrong byte %zu of %zu", all ? "allreduce" : "reduce", c->name,
               layout_name[l], n, root, at, bytes);
    }
  }
}

static const char *const ops[3] = {"bcast", "reduce", "allreduce"};

/* A message of zero bytes with a non-zero count: nothing may be written anywhere (Open MPI 4.1.4's
 * k-nomial bcast wrote into such buffers). */
static void check_empty(int op, int root, MPI_Comm comm) {
  char buf[64], out[64], expected[64];
  memset(buf, SENTINEL, sizeof buf);
  memset(out, SENTINEL, sizeof out);
  memset(expected, SENTINEL, sizeof expected);
  if (2 == op)
    MPI_Allreduce(buf, out, 7, empty_type, user_sum_op, comm);
  else if (op)
    MPI_Reduce(buf, out, 7, empty_type, user_sum_op, root, comm);
  else
    MPI_Bcast(buf, 7, empty_type, root, comm);
  ++checks;
  if (0 != memcmp(buf, expected, sizeof buf) || 0 != memcmp(out, expected, sizeof out))
    mismatch("%s of a zero-size type root=%d wrote into a buffer", ops[op], root);
}

static const struct test_case bcast_cases[] = {
    {"contig4_to_int", L_C4, L_INT, 0, NULL, 0},     {"int_to_contig4", L_INT, L_C4, 0, NULL, 0},
    {"vector_to_int", L_VEC, L_INT, 0, NULL, 0},     {"int_to_vector", L_INT, L_VEC, 0, NULL, 0},
    {"padded_to_packed", L_PAD, L_FLAT, 0, NULL, 0}, {"alternating_structs", L_PAD, L_FLAT, 1, NULL, 0},
};

static const struct test_case reduce_cases[] = {
    {"sum_contig4_root", L_C4, L_INT, 0, &user_sum_op, 0},
    {"sum_int_root", L_INT, L_C4, 0, &user_sum_op, 0},
    {"sum_vector_root", L_VEC, L_INT, 0, &user_sum_op, 0},
    {"sum_vector_others", L_INT, L_VEC, 0, &user_sum_op, 0},
    {"sum_vector_root_in_place", L_VEC, L_INT, 0, &user_sum_op, 1},
    {"sum_alternating", L_VEC, L_C4, 1, &user_sum_op, 0},
    {"user_product_matrix_root", L_MAT, L_UINT, 0, &user_product_op, 0},
    {"user_product_uint_root", L_UINT, L_MAT, 0, &user_product_op, 0},
};

/* Runs `op`'s cases with only `algorithm` allowed; prints what ran. */
static void run_algorithm(int op, const char *algorithm, int id, MPI_T_pvar_session session, MPI_T_pvar_handle counter,
                          int counter_size) {
  static const size_t counts[] = {1, 17, 512, 65530};
  char cvar[64];
  for (int other = 0; other < 3; ++other) { /* the others all allowed: an allreduce may run them */
    snprintf(cvar, sizeof cvar, "coll_modeltuned_%s_algorithms", ops[other]);
    if (0 != mpi_t_set_string_cvar(cvar, other == op ? algorithm : "") && 0 == world_rank)
      printf("signatures: cannot set %s through MPI_T\n", cvar);
  }
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  unsigned long long before[MAX_ALGORITHMS] = {0}, after[MAX_ALGORITHMS] = {0};
  if (counter_size > 0) MPI_T_pvar_read(session, counter, before);
  for (int root = 0; root < world_size; ++root) check_empty(op, root, comm);
  const struct test_case *cases = op ? reduce_cases : bcast_cases;
  const size_t ncases = op ? sizeof reduce_cases / sizeof *reduce_cases : sizeof bcast_cases / sizeof *bcast_cases;
  for (size_t k = 0; k < ncases; ++k)
    for (size_t i = 0; i < sizeof counts / sizeof *counts; ++i)
      for (int root = 0; root<world_size; root += world_size> 1 ? world_size - 1 : 1) {
        if (2 == op && root > 0) break; /* no root: once */
        if (op)
          check_reduce(&cases[k], counts[i], 2 == op ? -1 : root, comm, world_size);
        else
          check_bcast(&cases[k], counts[i], root, comm);
      }
  if (counter_size > 0) MPI_T_pvar_read(session, counter, after);
  if (0 == world_rank)
    printf("signatures: ran op=%s algorithm=%s calls=%llu fallback=%llu\n", ops[op], algorithm,
           id < counter_size ? after[id] - before[id] : 0ULL, after[0] - before[0]);
  MPI_Comm_free(&comm);
}

int main(int argc, char **argv) {
  int provided;
  MPI_Init(&argc, &argv);
  MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  make_types();

  static const char *const counter_names[3] = {"coll_modeltuned_bcast_calls", "coll_modeltuned_reduce_calls",
                                               "coll_modeltuned_allreduce_calls"};
  MPI_T_pvar_session session;
  MPI_T_pvar_session_create(&session);
  for (int a = 1; a < argc; ++a) {
    const int op = 0 == strncmp(argv[a], "--reduce=", 9) ? 1 : 0 == strncmp(argv[a], "--allreduce=", 12) ? 2 : 0;
    if (!op && 0 != strncmp(argv[a], "--bcast=", 8)) {
      if (0 == world_rank) fprintf(stderr, "signatures: unknown argument '%s'\n", argv[a]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_T_pvar_handle counter;
    int counter_size = mpi_t_open_counter(session, counter_names[op], &counter);
    if (counter_size > MAX_ALGORITHMS) counter_size = -1;
    char *list = strdup(strchr(argv[a], '=') + 1), *save = NULL;
    for (char *item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
      char *colon = strchr(item, ':');
      if (NULL == colon) continue;
      *colon = '\0';
      run_algorithm(op, item, atoi(colon + 1), session, counter, counter_size);
    }
    free(list);
    if (counter_size > 0) MPI_T_pvar_handle_free(session, &counter);
  }
  MPI_T_pvar_session_free(&session);

  /* The verdict through allgather, which modeltuned does not take. */
  long *all = malloc(sizeof(long) * world_size);
  MPI_Allgather(&failures, 1, MPI_LONG, all, 1, MPI_LONG, MPI_COMM_WORLD);
  long total = 0;
  for (int r = 0; r < world_size; ++r) total += all[r];
  free(all);
  if (0 == world_rank)
    printf("signatures: %s ranks=%d checks=%ld failures=%ld\n", total ? "FAIL" : "PASS", world_size, checks, total);
  fflush(stdout);
  MPI_T_finalize();
  MPI_Finalize();
  return total ? 1 : 0;
}
