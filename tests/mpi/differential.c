/* The differential test's program (tests/mpi/check_differential.cpp runs it): a random but valid
 * sequence of the collectives modeltuned decides, drawn from one seed the same way on every rank,
 * on communicators made every way applications make them (dup, split in reverse order, created
 * from a group that leaves world rank 0 out, an intercommunicator's merge, a split by a random
 * key), with predefined and user-defined operations (commutative and not), derived datatypes,
 * per-rank different datatypes of one type signature (where MPI allows them), MPI_IN_PLACE, every root, empty and large
 * counts, and point-to-point messages received with MPI_ANY_SOURCE while a collective runs.
 *
 * Each rank prints one line per step with a digest of every buffer the step touched (holes of
 * strided datatypes included); the driver runs the same seed under plain Open MPI and with
 * modeltuned and compares the lines. Every result is exact whatever order the combination runs
 * in (integers, bitwise and logical operations, MIN, MAX and MAXLOC, integer-valued doubles, a
 * user sum modulo 2^32) or depends on the order and nothing else (a user composition of affine
 * maps modulo 2^32, non-commutative), so every algorithm Open MPI may run gives the bits plain
 * Open MPI gives.
 *
 *   differential --seed=S [--steps=N] [--max-bytes=N]
 *
 * Output: "step=K ... digest=X" per step and rank, then on rank 0
 * "collectives: PASS ranks=P steps=N seed=S". */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- draws shared by every rank (one seed, the same sequence everywhere) ------------------ */

static uint64_t shared_state;

static uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static uint64_t draw(void) { return mix64(shared_state += 0x9e3779b97f4a7c15ULL); }
static uint64_t draw_below(uint64_t n) { return draw() % n; }

/* A rank's own data: a function of the step, the rank and the position only. */
static uint64_t datum(uint64_t step, int rank, size_t i, int salt) {
  return mix64(mix64(step * 0x10001ULL + (uint64_t)salt) ^ ((uint64_t)rank << 40) ^ i);
}

/* ---- the digest of a step's buffers --------------------------------------------------------- */

static uint64_t digest_bytes(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 0x100000001b3ULL;
  return h;
}

/* ---- layouts: one type signature (pairs of 4-byte integers), three datatypes ---------------- */

enum layout { L_FLAT, L_PAIR, L_STRIDED, L_COUNT };
static const char *layout_names[L_COUNT] = {"flat", "pair", "strided"};
/* MPI_INT- and MPI_UNSIGNED-based: [base][layout] */
static MPI_Datatype layout_types[2][L_COUNT];

static void make_layouts(void) {
  const MPI_Datatype bases[2] = {MPI_INT, MPI_UNSIGNED};
  for (int b = 0; b < 2; ++b) {
    MPI_Datatype vector;
    layout_types[b][L_FLAT] = bases[b];
    MPI_Type_contiguous(2, bases[b], &layout_types[b][L_PAIR]);
    MPI_Type_commit(&layout_types[b][L_PAIR]);
    /* two integers at 0 and 2 of a four-integer slot: 1 and 3 are holes nobody may write */
    MPI_Type_vector(2, 1, 2, bases[b], &vector);
    MPI_Type_create_resized(vector, 0, 4 * sizeof(int), &layout_types[b][L_STRIDED]);
    MPI_Type_commit(&layout_types[b][L_STRIDED]);
    MPI_Type_free(&vector);
  }
}

/* `pairs` pairs in layout `l`: the count to pass, the integers the buffer holds, and where the
 * j-th integer of the signature sits. */
static int layout_count(enum layout l, int pairs) { return L_FLAT == l ? 2 * pairs : pairs; }
static size_t layout_ints(enum layout l, int pairs) { return (L_STRIDED == l ? 4 : 2) * (size_t)pairs; }
static size_t layout_index(enum layout l, size_t j) { return L_STRIDED == l ? j / 2 * 4 + j % 2 * 2 : j; }

static enum layout layout_of(MPI_Datatype t) {
  for (int b = 0; b < 2; ++b)
    for (int l = 0; l < L_COUNT; ++l)
      if (t == layout_types[b][l]) return (enum layout)l;
  fprintf(stderr, "differential: user operation called with an unknown datatype\n");
  MPI_Abort(MPI_COMM_WORLD, 3);
  return L_FLAT;
}

/* A buffer of `pairs` pairs in layout `l`: the signature's integers from `value`, holes from a
 * pattern of their own. */
static uint32_t *layout_buffer(enum layout l, int pairs, uint64_t step, int rank, int salt) {
  const size_t n = layout_ints(l, pairs);
  uint32_t *buf = malloc((n + 1) * sizeof *buf);
  for (size_t i = 0; i < n; ++i) buf[i] = 0xa5a5a5a5u ^ (uint32_t)i;
  for (size_t j = 0; j < 2 * (size_t)pairs; ++j) buf[layout_index(l, j)] = (uint32_t)datum(step, rank, j, salt);
  return buf;
}

/* ---- user-defined operations, datatype-aware ------------------------------------------------ */

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *type) {
  const enum layout l = layout_of(*type);
  const uint32_t *a = in;
  uint32_t *b = inout;
  const size_t pairs = L_FLAT == l ? (size_t)*len / 2 : (size_t)*len;
  const size_t ints = L_FLAT == l ? (size_t)*len : 2 * pairs;
  for (size_t j = 0; j < ints; ++j) b[layout_index(l, j)] += a[layout_index(l, j)];
}

/* (a1, b1) . (a2, b2) = (a1 a2, a1 b2 + b1) mod 2^32: the maps x -> a x + b composed, the left
 * one last. inout = in . inout, as MPI defines it. */
static void user_affine(void *in, void *inout, int *len, MPI_Datatype *type) {
  const enum layout l = layout_of(*type);
  const uint32_t *x = in;
  uint32_t *y = inout;
  for (size_t k = 0; k < (size_t)*len; ++k) {
    const size_t ia = layout_index(l, 2 * k), ib = layout_index(l, 2 * k + 1);
    const uint32_t a = x[ia] * y[ia], b = x[ia] * y[ib] + x[ib];
    y[ia] = a;
    y[ib] = b;
  }
}

static MPI_Op op_user_sum, op_user_affine;

/* ---- reductions: operation, datatype, values ------------------------------------------------ */

enum reduction {
  R_SUM_INT,
  R_MIN_INT,
  R_LOR_INT,
  R_BXOR_ULONG,
  R_MAX_DOUBLE,
  R_SUM_DOUBLE,
  R_MAXLOC_2INT,
  R_USER_SUM,
  R_USER_AFFINE,
  R_COUNT
};
static const char *reduction_names[R_COUNT] = {"sum_int",    "min_int",     "lor_int",  "bxor_ulong", "max_double",
                                               "sum_double", "maxloc_2int", "user_sum", "user_affine"};

/* What one rank passes to a reduction of `n` elements (pairs, for the user operations). */
typedef struct {
  MPI_Op op;
  MPI_Datatype type;
  int count;
  size_t bytes; /* of the buffer */
  enum layout layout;
} reduction_call_t;

static reduction_call_t reduction_call(enum reduction r, int n, enum layout l) {
  switch (r) {
    case R_SUM_INT:
      return (reduction_call_t){MPI_SUM, MPI_INT, n, n * sizeof(int), L_FLAT};
    case R_MIN_INT:
      return (reduction_call_t){MPI_MIN, MPI_INT, n, n * sizeof(int), L_FLAT};
    case R_LOR_INT:
      return (reduction_call_t){MPI_LOR, MPI_INT, n, n * sizeof(int), L_FLAT};
    case R_BXOR_ULONG:
      return (reduction_call_t){MPI_BXOR, MPI_UNSIGNED_LONG, n, n * sizeof(unsigned long), L_FLAT};
    case R_MAX_DOUBLE:
      return (reduction_call_t){MPI_MAX, MPI_DOUBLE, n, n * sizeof(double), L_FLAT};
    case R_SUM_DOUBLE:
      return (reduction_call_t){MPI_SUM, MPI_DOUBLE, n, n * sizeof(double), L_FLAT};
    case R_MAXLOC_2INT:
      return (reduction_call_t){MPI_MAXLOC, MPI_2INT, n, 2 * n * sizeof(int), L_FLAT};
    case R_USER_SUM:
      return (reduction_call_t){op_user_sum, layout_types[1][l], layout_count(l, n),
                                layout_ints(l, n) * sizeof(uint32_t), l};
    default: /* R_USER_AFFINE: pairs must stay whole, so never the flat layout */
      return (reduction_call_t){op_user_affine, layout_types[1][l], n, layout_ints(l, n) * sizeof(uint32_t), l};
  }
}

/* Rank `rank`'s contribution: values whose every combination is exact. */
static void *reduction_values(enum reduction r, const reduction_call_t *c, int n, uint64_t step, int rank) {
  if (R_USER_SUM == r || R_USER_AFFINE == r) {
    uint32_t *buf = layout_buffer(c->layout, n, step, rank, 7);
    if (R_USER_AFFINE == r)
      for (int k = 0; k < n; ++k) buf[layout_index(c->layout, 2 * (size_t)k)] |= 1u; /* odd: no map collapses */
    return buf;
  }
  void *buf = malloc(c->bytes + sizeof(double));
  for (int i = 0; i < n; ++i) {
    const uint64_t v = datum(step, rank, (size_t)i, 11);
    switch (r) {
      case R_SUM_INT:
        ((int *)buf)[i] = (int)(v % 2001) - 1000;
        break;
      case R_MIN_INT:
        ((int *)buf)[i] = (int)(v % 100000) - 50000;
        break;
      case R_LOR_INT:
        ((int *)buf)[i] = 0 == v % 7;
        break;
      case R_BXOR_ULONG:
        ((unsigned long *)buf)[i] = (unsigned long)v;
        break;
      case R_MAX_DOUBLE:
        ((double *)buf)[i] = (double)(int64_t)v / 65536.0;
        break;
      case R_SUM_DOUBLE:
        ((double *)buf)[i] = (double)((int64_t)(v % 2097152) - 1048576);
        break;
      default: /* R_MAXLOC_2INT: few values, so ties are common; the lower index wins */
        ((int *)buf)[2 * i] = (int)(v % 5);
        ((int *)buf)[2 * i + 1] = (int)(v >> 32) % 1000;
        break;
    }
  }
  return buf;
}

/* ---- communicators -------------------------------------------------------------------------- */

enum { C_WORLD, C_DUP, C_SPLIT, C_GROUP, C_MERGED, C_PERMUTED, C_COUNT };
static const char *comm_names[C_COUNT] = {"world", "dup", "split", "group", "merged", "permuted"};
static MPI_Comm comms[C_COUNT];

/* Names that stay unique when a freed communicator's id is reused, and differ between the two
 * communicators a split makes (the trace checker groups its lines by name). */
static void name_comms(int rank) {
  char name[MPI_MAX_OBJECT_NAME];
  for (int c = C_DUP; c < C_COUNT; ++c) {
    if (MPI_COMM_NULL == comms[c]) continue;
    snprintf(name, sizeof name, "differential %s%s", comm_names[c], C_SPLIT == c ? (rank % 2 ? " odd" : " even") : "");
    MPI_Comm_set_name(comms[c], name);
  }
}

static void make_comms(int rank, int size) {
  comms[C_WORLD] = MPI_COMM_WORLD;
  MPI_Comm_dup(MPI_COMM_WORLD, &comms[C_DUP]);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &comms[C_SPLIT]);

  /* Reversed, without world rank 0 where that leaves two ranks or more: rank 0 is not in it. */
  MPI_Group world_group, group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  int members[64], n = 0;
  for (int r = size - 1; r >= (size > 2 ? 1 : 0); --r) members[n++] = r;
  MPI_Group_incl(world_group, n, members, &group);
  MPI_Comm_create(MPI_COMM_WORLD, group, &comms[C_GROUP]);
  MPI_Group_free(&group);
  MPI_Group_free(&world_group);

  /* The lower and upper halves joined by an intercommunicator, merged upper half first. */
  if (size >= 2) {
    const int upper = rank >= size / 2;
    MPI_Comm half, inter;
    MPI_Comm_split(MPI_COMM_WORLD, upper, rank, &half);
    MPI_Comm_set_name(half, upper ? "differential upper half" : "differential lower half");
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, upper ? 0 : size / 2, 77, &inter);
    MPI_Intercomm_merge(inter, !upper, &comms[C_MERGED]);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
  } else {
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[C_MERGED]);
  }

  /* Every rank in a shared random order. */
  int key = 0;
  for (int r = 0; r < size; ++r) {
    const int k = (int)draw_below(1000000);
    if (r == rank) key = k;
  }
  MPI_Comm_split(MPI_COMM_WORLD, 0, key, &comms[C_PERMUTED]);
  name_comms(rank);
}

static void free_comms(void) {
  for (int c = C_DUP; c < C_COUNT; ++c)
    if (MPI_COMM_NULL != comms[c]) MPI_Comm_free(&comms[c]);
}

/* ---- one step ------------------------------------------------------------------------------- */

enum kind { K_BCAST, K_REDUCE, K_ALLREDUCE, K_BARRIER, K_ALLGATHER, K_ALLTOALL, K_COUNT };
static const char *kind_names[K_COUNT] = {"bcast", "reduce", "allreduce", "barrier", "allgather", "alltoall"};

/* Everything a step is, drawn on every rank alike (each rank reduces the raw draws to its own
 * communicator's size and its own datatype). */
typedef struct {
  int comm, kind, reduction, in_place, with_p2p, mixed;
  uint64_t root_draw, layout_draw;
  int elements; /* pairs for the layouts, elements for the predefined reductions */
} step_t;

static int max_bytes = 1 << 19;

static int draw_elements(int kind, int comm_size_bound) {
  const uint64_t shape = draw_below(16);
  if (0 == shape) return 0;
  /* block exchanges move a block per rank: smaller blocks */
  const int limit_bytes = K_ALLGATHER == kind || K_ALLTOALL == kind ? max_bytes / comm_size_bound : max_bytes;
  const int limit = limit_bytes / 16 > 1 ? limit_bytes / 16 : 1;
  const int log2 = (int)draw_below(20);
  int n = (int)(((uint64_t)1 << log2) + draw_below((uint64_t)1 << log2));
  if (1 == shape) n = 1 + (int)draw_below(3);
  return n > limit ? limit : n;
}

static step_t draw_step(int world_size) {
  step_t s;
  s.comm = (int)draw_below(C_COUNT);
  s.kind = (int)draw_below(K_COUNT);
  s.reduction = (int)draw_below(R_COUNT);
  s.in_place = 0 == draw_below(3);
  s.with_p2p = 0 == draw_below(3);
  s.mixed = 0 == draw_below(2);
  s.root_draw = draw();
  s.layout_draw = draw();
  s.elements = draw_elements(s.kind, world_size);
  return s;
}

/* This rank's layout of side `salt` (0 send, 1 receive). A reduction's datatype is the same on
 * every rank (MPI requires it); the other collectives' may differ, one signature. */
static enum layout step_layout(const step_t *s, int rank, int salt) {
  const int reduction = K_REDUCE == s->kind || K_ALLREDUCE == s->kind;
  const uint64_t v = s->layout_draw + (uint64_t)salt + (s->mixed && !reduction ? (uint64_t)rank : 0);
  if (reduction) return R_USER_AFFINE == s->reduction ? (enum layout)(L_PAIR + v % 2) : (enum layout)(v % L_COUNT);
  return (enum layout)(v % L_COUNT);
}

/* Messages to both neighbours received with MPI_ANY_SOURCE around the collective; the digest
 * takes them in any arrival order. */
typedef struct {
  MPI_Request requests[4];
  uint64_t sent[2], received[2];
  int active;
} p2p_t;

static void p2p_start(p2p_t *p, MPI_Comm comm, int step) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  p->active = size > 1;
  if (!p->active) return;
  const int tag = step % 30000;
  MPI_Irecv(&p->received[0], 1, MPI_UINT64_T, MPI_ANY_SOURCE, tag, comm, &p->requests[0]);
  MPI_Irecv(&p->received[1], 1, MPI_UINT64_T, MPI_ANY_SOURCE, tag, comm, &p->requests[1]);
  p->sent[0] = datum((uint64_t)step, rank, 0, 3);
  p->sent[1] = datum((uint64_t)step, rank, 1, 3);
  MPI_Isend(&p->sent[0], 1, MPI_UINT64_T, (rank + 1) % size, tag, comm, &p->requests[2]);
  MPI_Isend(&p->sent[1], 1, MPI_UINT64_T, (rank + size - 1) % size, tag, comm, &p->requests[3]);
}

static uint64_t p2p_finish(p2p_t *p) {
  if (!p->active) return 0;
  MPI_Waitall(4, p->requests, MPI_STATUSES_IGNORE);
  return mix64(p->received[0]) ^ mix64(p->received[1]);
}

/* ---- the collectives ------------------------------------------------------------------------ */

/* Rank `owner`'s data for pairs [first, first + pairs) of a buffer in layout `l`, at those pairs:
 * what its send buffer holds there. */
static void fill_pairs(uint32_t *buf, enum layout l, int first, int pairs, uint64_t step, int owner) {
  for (size_t j = 0; j < 2 * (size_t)pairs; ++j)
    buf[layout_index(l, 2 * (size_t)first + j)] = (uint32_t)datum(step, owner, 2 * (size_t)first + j, 0);
}

typedef struct {
  const step_t *s;
  MPI_Comm comm;
  int rank, size;
  uint64_t step;
  char *what; /* what the step passed, for its line */
} call_t;

static uint64_t run_bcast(const call_t *c) {
  const int root = (int)(c->s->root_draw % (uint64_t)c->size), n = c->s->elements;
  const enum layout l = step_layout(c->s, c->rank, 0);
  uint32_t *buf = layout_buffer(l, n, c->step, c->rank == root ? 0 : c->rank + 1000, 0);
  MPI_Bcast(buf, layout_count(l, n), layout_types[0][l], root, c->comm);
  sprintf(c->what, "root=%d layout=%s pairs=%d", root, layout_names[l], n);
  const uint64_t h = digest_bytes(1469598103934665603ULL, buf, layout_ints(l, n) * sizeof *buf);
  free(buf);
  return h;
}

/* Reduce (rooted) and allreduce: the operation, its datatype in this rank's layout, in place on
 * the root (reduce) or everywhere (allreduce). */
static uint64_t run_reduction(const call_t *c, int rooted) {
  const enum reduction r = (enum reduction)c->s->reduction;
  const int n = c->s->elements;
  const int root = rooted ? (int)(c->s->root_draw % (uint64_t)c->size) : -1;
  const reduction_call_t rc = reduction_call(r, n, step_layout(c->s, c->rank, 0));
  void *send = reduction_values(r, &rc, n, c->step, c->rank);
  const int receives = !rooted || c->rank == root;
  const int in_place = c->s->in_place && receives;
  void *recv = NULL;
  if (receives && !in_place) {
    recv = reduction_values(r, &rc, n, c->step, c->rank + 1000);
    memset(recv, 0x5a, rc.layout == L_FLAT ? rc.bytes : 0);
  }
  const void *from = in_place ? MPI_IN_PLACE : send;
  void *into = in_place ? send : recv;
  if (rooted)
    MPI_Reduce(from, into, rc.count, rc.type, rc.op, root, c->comm);
  else
    MPI_Allreduce(from, into, rc.count, rc.type, rc.op, c->comm);
  sprintf(c->what, "root=%d reduction=%s layout=%s elements=%d", root, reduction_names[r], layout_names[rc.layout], n);
  uint64_t h = digest_bytes(1469598103934665603ULL, send, rc.bytes);
  if (NULL != recv) h = digest_bytes(h, recv, rc.bytes);
  free(send);
  free(recv);
  return h;
}

/* Allgather and alltoall: a block of `elements` pairs per rank, send and receive sides in layouts
 * of their own, in place on every rank or on none. */
static uint64_t run_exchange(const call_t *c, int all_to_all) {
  const int n = c->s->elements, size = c->size, rank = c->rank;
  const enum layout sl = step_layout(c->s, rank, 0), rl = step_layout(c->s, rank, 1);
  const int send_pairs = all_to_all ? n * size : n;
  uint32_t *send = layout_buffer(sl, send_pairs, c->step, rank, 0);
  uint32_t *recv = layout_buffer(rl, n * size, c->step, rank + 1000, 0);
  if (c->s->in_place && all_to_all)
    fill_pairs(recv, rl, 0, n * size, c->step, rank);
  else if (c->s->in_place)
    for (size_t j = 0; j < 2 * (size_t)n; ++j) /* this rank's block: what it would send */
      recv[layout_index(rl, 2 * (size_t)n * (size_t)rank + j)] = (uint32_t)datum(c->step, rank, j, 0);
  const void *from = c->s->in_place ? MPI_IN_PLACE : send;
  if (all_to_all)
    MPI_Alltoall(from, layout_count(sl, n), layout_types[0][sl], recv, layout_count(rl, n), layout_types[0][rl],
                 c->comm);
  else
    MPI_Allgather(from, layout_count(sl, n), layout_types[0][sl], recv, layout_count(rl, n), layout_types[0][rl],
                  c->comm);
  sprintf(c->what, "send_layout=%s recv_layout=%s pairs=%d", layout_names[sl], layout_names[rl], n);
  uint64_t h = digest_bytes(1469598103934665603ULL, send, layout_ints(sl, send_pairs) * sizeof *send);
  h = digest_bytes(h, recv, layout_ints(rl, n * size) * sizeof *recv);
  free(send);
  free(recv);
  return h;
}

static uint64_t run_step(const call_t *c) {
  switch (c->s->kind) {
    case K_BCAST:
      return run_bcast(c);
    case K_REDUCE:
      return run_reduction(c, 1);
    case K_ALLREDUCE:
      return run_reduction(c, 0);
    case K_ALLGATHER:
      return run_exchange(c, 0);
    case K_ALLTOALL:
      return run_exchange(c, 1);
    default:
      MPI_Barrier(c->comm);
      c->what[0] = '\0';
      return 0;
  }
}

/* ---- the sequence --------------------------------------------------------------------------- */

static void parse_options(int argc, char **argv, uint64_t *seed, int *steps) {
  for (int a = 1; a < argc; ++a) {
    if (0 == strncmp(argv[a], "--seed=", 7))
      *seed = strtoull(argv[a] + 7, NULL, 10);
    else if (0 == strncmp(argv[a], "--steps=", 8))
      *steps = atoi(argv[a] + 8);
    else if (0 == strncmp(argv[a], "--max-bytes=", 12))
      max_bytes = atoi(argv[a] + 12);
    else {
      fprintf(stderr, "differential: unknown option '%s' (--seed=S --steps=N --max-bytes=N)\n", argv[a]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int world_rank, world_size, steps = 150;
  uint64_t seed = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  parse_options(argc, argv, &seed, &steps);
  if (world_size > 64) {
    fprintf(stderr, "differential: at most 64 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  shared_state = seed;
  make_layouts();
  MPI_Op_create(user_sum, 1, &op_user_sum);
  MPI_Op_create(user_affine, 0, &op_user_affine);
  make_comms(world_rank, world_size);

  for (int step = 0; step < steps; ++step) {
    const step_t s = draw_step(world_size);
    MPI_Comm comm = comms[s.comm];
    if (MPI_COMM_NULL == comm) {
      printf("step=%d comm=%s not a member\n", step, comm_names[s.comm]);
      continue;
    }
    char what[200];
    call_t c = {.s = &s, .comm = comm, .step = (uint64_t)step, .what = what};
    MPI_Comm_rank(comm, &c.rank);
    MPI_Comm_size(comm, &c.size);
    p2p_t p2p;
    if (s.with_p2p) p2p_start(&p2p, comm, step);
    uint64_t h = run_step(&c);
    if (s.with_p2p) h = mix64(h ^ p2p_finish(&p2p));
    printf("step=%d comm=%s rank=%d/%d op=%s %s in_place=%d mixed=%d p2p=%d digest=%016llx\n", step, comm_names[s.comm],
           c.rank, c.size, kind_names[s.kind], what, s.in_place, s.mixed, s.with_p2p, (unsigned long long)h);
  }

  free_comms();
  MPI_Op_free(&op_user_sum);
  MPI_Op_free(&op_user_affine);
  if (0 == world_rank)
    printf("collectives: PASS ranks=%d steps=%d seed=%llu\n", world_size, steps, (unsigned long long)seed);
  fflush(stdout);
  MPI_Finalize();
  return 0;
}
