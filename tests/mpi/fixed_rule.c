/* The model's copy of tuned's fixed rules (mt_fixed_rule, model/select/ompi_fixed.cpp) against tuned
 * itself: what coll_tuned_decision_fixed.c runs, and with which arguments, for every communicator
 * size up to 300 and around each of the rule's thresholds beyond, at message sizes around every
 * power of two up to 8 MiB, for bcast, commutative and non-commutative reduce, allreduce and
 * allgather (by one rank's block), and barrier, whose rule looks at the communicator's size only. Where
 * modeltuned keeps Open MPI's default it runs that rule's algorithm directly (coll_modeltuned_default_direct), so a
 * difference here would run another algorithm than Open MPI's default.
 *
 * How: run under mpirun at np 2 without modeltuned, so tuned's collectives are MPI_COMM_WORLD's.
 * This program defines every ompi_coll_base_* bcast, reduce, allreduce, barrier and allgather function itself:
 * tuned calls them through its PLT, so ours run first. While recording they only note which one
 * ran and its arguments; otherwise they forward to libmpi's. Rank 0 then calls tuned's own
 * functions on a copy of MPI_COMM_WORLD whose group claims P ranks: tuned's fixed rules read only
 * the communicator size, the datatype's size and the operation's commutativity.
 *
 * Output (rank 0): "fixed_rule: PASS cases=N" or "fixed_rule: FAIL ..." lines; exit status 1 on
 * any difference. */
#include "ompi_config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "mpi.h"
#include "model/capi/modeltuned_model.h"
#include "ompi/communicator/communicator.h"
#include "ompi/group/group.h"
#include "ompi/mca/coll/base/coll_base_functions.h"
#include "ompi/mca/coll/coll.h"
#include "ompi/op/op.h"

/* ---- the interposed base functions --------------------------------------------------------- */

static struct {
  bool on;
  int calls, algorithm;
  uint32_t segsize;
  int fanout, max_requests;
} seen;

static void *real(const char *name) {
  void *fn = dlsym(RTLD_NEXT, name);
  if (NULL == fn) {
    fprintf(stderr, "fixed_rule: %s not found in libmpi\n", name);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return fn;
}

static bool note(int algorithm, uint32_t segsize, int fanout, int max_requests) {
  if (!seen.on) return false;
  seen.calls++;
  seen.algorithm = algorithm;
  seen.segsize = segsize;
  seen.fanout = fanout;
  seen.max_requests = max_requests;
  return true;
}

#define B BCAST_BASE_ARG_NAMES, module
#define R REDUCE_BASE_ARG_NAMES, module
#define FORWARD(name, type, ...) return ((type)real(#name))(__VA_ARGS__)

typedef int (*bcast_t)(BCAST_ARGS);
typedef int (*bcast_seg_t)(BCAST_ARGS, uint32_t);
typedef int (*bcast_seg_fan_t)(BCAST_ARGS, uint32_t, int32_t);
typedef int (*reduce_t)(REDUCE_ARGS);
typedef int (*reduce_seg_t)(REDUCE_ARGS, uint32_t, int);
typedef int (*reduce_seg_fan_t)(REDUCE_ARGS, uint32_t, int, int);

/* tuned's numbers: bcast 1 linear ... 9 scatter_allgather_ring; reduce 1 linear ... 7
 * rabenseifner (coll_tuned_bcast_decision.c, coll_tuned_reduce_decision.c). */
int ompi_coll_base_bcast_intra_basic_linear(BCAST_ARGS) {
  if (note(1, 0, 0, 0)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_bcast_intra_basic_linear, bcast_t, B);
}
int ompi_coll_base_bcast_intra_chain(BCAST_ARGS, uint32_t segsize, int32_t chains) {
  if (note(2, segsize, chains, 0)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_bcast_intra_chain, bcast_seg_fan_t, B, segsize, chains);
}
int ompi_coll_base_bcast_intra_pipeline(BCAST_ARGS, uint32_t segsize) {
  if (note(3, segsize, 0, 0)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_bcast_intra_pipeline, bcast_seg_t, B, segsize);
}
int ompi_coll_base_bcast_intra_split_bintree(BCAST_ARGS, uint32_t segsize) {
  if (note(4, segsize, 0, 0)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_bcast_intra_split_bintree, bcast_seg_t, B, segsize);
}
int ompi_coll_base_bcast_intra_bintree(BCAST_ARGS, uint32_t segsize) {
  if (note(5, segsize, 0, 0)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_bcast_intra_bintree, bcast_seg_t, B, segsize);
}
int ompi_coll_base_bcast_intra_binomial(BCAST_ARGS, uint32_t segsize) {
  if (note(6, segsize, 0, 0)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_bcast_intra_binomial, bcast_seg_t, B, segsize);
}
int ompi_coll_base_bcast_intra_knomial(BCAST_ARGS, uint32_t segsize, int radix) {
  if (note(7, segsize, radix, 0)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_bcast_intra_knomial, bcast_seg_fan_t, B, segsize, radix);
}
int ompi_coll_base_bcast_intra_scatter_allgather(BCAST_ARGS, uint32_t segsize) {
  if (note(8, segsize, 0, 0)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_bcast_intra_scatter_allgather, bcast_seg_t, B, segsize);
}
int ompi_coll_base_bcast_intra_scatter_allgather_ring(BCAST_ARGS, uint32_t segsize) {
  if (note(9, segsize, 0, 0)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_bcast_intra_scatter_allgather_ring, bcast_seg_t, B, segsize);
}
int ompi_coll_base_reduce_intra_basic_linear(REDUCE_ARGS) {
  if (note(1, 0, 0, 0)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_reduce_intra_basic_linear, reduce_t, R);
}
int ompi_coll_base_reduce_intra_chain(REDUCE_ARGS, uint32_t segsize, int fanout, int max_requests) {
  if (note(2, segsize, fanout, max_requests)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_reduce_intra_chain, reduce_seg_fan_t, R, segsize, fanout, max_requests);
}
int ompi_coll_base_reduce_intra_pipeline(REDUCE_ARGS, uint32_t segsize, int max_requests) {
  if (note(3, segsize, 0, max_requests)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_reduce_intra_pipeline, reduce_seg_t, R, segsize, max_requests);
}
int ompi_coll_base_reduce_intra_binary(REDUCE_ARGS, uint32_t segsize, int max_requests) {
  if (note(4, segsize, 0, max_requests)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_reduce_intra_binary, reduce_seg_t, R, segsize, max_requests);
}
int ompi_coll_base_reduce_intra_binomial(REDUCE_ARGS, uint32_t segsize, int max_requests) {
  if (note(5, segsize, 0, max_requests)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_reduce_intra_binomial, reduce_seg_t, R, segsize, max_requests);
}
int ompi_coll_base_reduce_intra_in_order_binary(REDUCE_ARGS, uint32_t segsize, int max_requests) {
  if (note(6, segsize, 0, max_requests)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_reduce_intra_in_order_binary, reduce_seg_t, R, segsize, max_requests);
}
int ompi_coll_base_reduce_intra_redscat_gather(REDUCE_ARGS) {
  if (note(7, 0, 0, 0)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_reduce_intra_redscat_gather, reduce_t, R);
}

/* allreduce: 1 linear ... 6 Rabenseifner (coll_tuned_allreduce_decision.c) */
#define A ALLREDUCE_BASE_ARG_NAMES, module
typedef int (*allreduce_t)(ALLREDUCE_ARGS);
typedef int (*allreduce_seg_t)(ALLREDUCE_ARGS, uint32_t);
int ompi_coll_base_allreduce_intra_basic_linear(ALLREDUCE_ARGS) {
  if (note(1, 0, 0, 0)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_allreduce_intra_basic_linear, allreduce_t, A);
}
int ompi_coll_base_allreduce_intra_nonoverlapping(ALLREDUCE_ARGS) {
  if (note(2, 0, 0, 0)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_allreduce_intra_nonoverlapping, allreduce_t, A);
}
int ompi_coll_base_allreduce_intra_recursivedoubling(ALLREDUCE_ARGS) {
  if (note(3, 0, 0, 0)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_allreduce_intra_recursivedoubling, allreduce_t, A);
}
int ompi_coll_base_allreduce_intra_ring(ALLREDUCE_ARGS) {
  if (note(4, 0, 0, 0)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_allreduce_intra_ring, allreduce_t, A);
}
int ompi_coll_base_allreduce_intra_ring_segmented(ALLREDUCE_ARGS, uint32_t segsize) {
  if (note(5, segsize, 0, 0)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_allreduce_intra_ring_segmented, allreduce_seg_t, A, segsize);
}
int ompi_coll_base_allreduce_intra_redscat_allgather(ALLREDUCE_ARGS) {
  if (note(6, 0, 0, 0)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_allreduce_intra_redscat_allgather, allreduce_t, A);
}

/* ---- the sweep ------------------------------------------------------------------------------ */

static int failures, cases;

/* One call of tuned's function on `comm`, compared with the model's rule. */
static void compare(ompi_communicator_t *world, ompi_communicator_t *comm, int op, struct ompi_op_t *reduce_op,
                    size_t bytes) {
  const int p = ompi_comm_size(comm);
  const bool commutative = MT_OP_BCAST == op || ompi_op_is_commute(reduce_op);
  char byte = 0;
  memset(&seen, 0, sizeof seen);
  seen.on = true;
  if (MT_OP_BCAST == op)
    world->c_coll->coll_bcast(&byte, (int)bytes, MPI_BYTE, 0, comm, world->c_coll->coll_bcast_module);
  else
    world->c_coll->coll_reduce(&byte, &byte, (int)bytes, MPI_BYTE, reduce_op, 0, comm,
                               world->c_coll->coll_reduce_module);
  seen.on = false;
  int32_t fanout = -1;
  const int algorithm = mt_fixed_rule(op, bytes, p, commutative, &fanout);
  ++cases;
  if (1 == seen.calls && seen.algorithm == algorithm && 0 == seen.segsize && seen.fanout == fanout &&
      0 == seen.max_requests)
    return;
  if (++failures <= 20)
    printf(
        "fixed_rule: FAIL %s%s P=%d bytes=%zu: tuned ran %d (calls %d, segsize %u, fan-out "
        "%d, max requests %d), the model's rule says %d (fan-out %d)\n",
        MT_OP_BCAST == op ? "bcast" : "reduce",
        MT_OP_BCAST == op ? ""
        : commutative     ? " commutative"
                          : " non-commutative",
        p, bytes, seen.calls ? seen.algorithm : 0, seen.calls, seen.segsize, seen.fanout, seen.max_requests, algorithm,
        fanout);
}

static void noncommutative_fn(void *in, void *inout, int *len, MPI_Datatype *type) {
  (void)in, (void)inout, (void)len, (void)type; /* never runs: the sweep only decides */
}

/* The same for allreduce, whose tuned function the sweep calls with another signature. */
static void compare_allreduce(ompi_communicator_t *world, ompi_communicator_t *comm, struct ompi_op_t *op,
                              size_t bytes) {
  const int p = ompi_comm_size(comm);
  char byte = 0;
  memset(&seen, 0, sizeof seen);
  seen.on = true;
  world->c_coll->coll_allreduce(&byte, &byte, (int)bytes, MPI_BYTE, op, comm, world->c_coll->coll_allreduce_module);
  seen.on = false;
  int32_t fanout = -1;
  const int algorithm = mt_fixed_rule(MT_OP_ALLREDUCE, bytes, p, ompi_op_is_commute(op), &fanout);
  ++cases;
  if (1 == seen.calls && seen.algorithm == algorithm && 0 == seen.segsize) return;
  if (++failures <= 20)
    printf(
        "fixed_rule: FAIL allreduce%s P=%d bytes=%zu: tuned ran %d (calls %d, segsize %u), the model's rule "
        "says %d\n",
        ompi_op_is_commute(op) ? "" : " non-commutative", p, bytes, seen.calls ? seen.algorithm : 0, seen.calls,
        seen.segsize, algorithm);
}

/* barrier: 1 linear ... 6 tree (coll_tuned_barrier_decision.c) */
typedef int (*barrier_t)(BARRIER_ARGS);
#define BARRIER(number, name)                      \
  int name(BARRIER_ARGS) {                         \
    if (note(number, 0, 0, 0)) return MPI_SUCCESS; \
    FORWARD(name, barrier_t, comm, module);        \
  }
BARRIER(1, ompi_coll_base_barrier_intra_basic_linear)
BARRIER(2, ompi_coll_base_barrier_intra_doublering)
BARRIER(3, ompi_coll_base_barrier_intra_recursivedoubling)
BARRIER(4, ompi_coll_base_barrier_intra_bruck)
BARRIER(5, ompi_coll_base_barrier_intra_two_procs)
BARRIER(6, ompi_coll_base_barrier_intra_tree)

static void compare_barrier(ompi_communicator_t *world, ompi_communicator_t *comm) {
  const int p = ompi_comm_size(comm);
  memset(&seen, 0, sizeof seen);
  seen.on = true;
  world->c_coll->coll_barrier(comm, world->c_coll->coll_barrier_module);
  seen.on = false;
  const int algorithm = mt_fixed_rule(MT_OP_BARRIER, 0, p, 1, NULL);
  ++cases;
  if (1 == seen.calls && seen.algorithm == algorithm) return;
  if (++failures <= 20)
    printf("fixed_rule: FAIL barrier P=%d: tuned ran %d (calls %d), the model's rule says %d\n", p,
           seen.calls ? seen.algorithm : 0, seen.calls, algorithm);
}

/* allgather: 1 linear ... 6 two_proc, 7 sparbit from 5.0 (coll_tuned_allgather_decision.c) */
typedef int (*allgather_t)(ALLGATHER_ARGS);
#define ALLGATHER(number, name)                                                                           \
  int name(ALLGATHER_ARGS) {                                                                              \
    if (note(number, 0, 0, 0)) return MPI_SUCCESS;                                                        \
    FORWARD(name, allgather_t, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, module); \
  }
ALLGATHER(1, ompi_coll_base_allgather_intra_basic_linear)
ALLGATHER(2, ompi_coll_base_allgather_intra_bruck)
ALLGATHER(3, ompi_coll_base_allgather_intra_recursivedoubling)
ALLGATHER(4, ompi_coll_base_allgather_intra_ring)
ALLGATHER(5, ompi_coll_base_allgather_intra_neighborexchange)
ALLGATHER(6, ompi_coll_base_allgather_intra_two_procs)
#if OMPI_MAJOR_VERSION >= 5
ALLGATHER(7, ompi_coll_base_allgather_intra_sparbit)
#endif

static void compare_allgather(ompi_communicator_t *world, ompi_communicator_t *comm, size_t bytes) {
  const int p = ompi_comm_size(comm);
  char byte = 0;
  memset(&seen, 0, sizeof seen);
  seen.on = true;
  world->c_coll->coll_allgather(&byte, (int)bytes, MPI_BYTE, &byte, (int)bytes, MPI_BYTE, comm,
                                world->c_coll->coll_allgather_module);
  seen.on = false;
  const int algorithm = mt_fixed_rule(MT_OP_ALLGATHER, bytes, p, 1, NULL);
  ++cases;
  if (1 == seen.calls && seen.algorithm == algorithm) return;
  if (++failures <= 20)
    printf("fixed_rule: FAIL allgather P=%d bytes=%zu: tuned ran %d (calls %d), the model's rule says %d\n", p, bytes,
           seen.calls ? seen.algorithm : 0, seen.calls, algorithm);
}

static void sweep_size(ompi_communicator_t *world, ompi_communicator_t *comm, struct ompi_op_t *ordered) {
  compare_barrier(world, comm);
  for (size_t power = 1; power <= ((size_t)8 << 20); power *= 2)
    for (int delta = -1; delta <= 1; ++delta) {
      const size_t bytes = power + delta;
      if (0 == bytes) continue;
      compare(world, comm, MT_OP_BCAST, NULL, bytes);
      compare(world, comm, MT_OP_REDUCE, (struct ompi_op_t *)MPI_SUM, bytes);
      compare(world, comm, MT_OP_REDUCE, ordered, bytes);
      compare_allreduce(world, comm, (struct ompi_op_t *)MPI_SUM, bytes);
      compare_allreduce(world, comm, ordered, bytes);
      compare_allgather(world, comm, bytes);
    }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Op ordered;
  MPI_Op_create(noncommutative_fn, 0, &ordered);
  if (0 == rank) {
    ompi_communicator_t *world = (ompi_communicator_t *)MPI_COMM_WORLD, fake = *world;
    ompi_group_t group = *world->c_local_group;
    fake.c_local_group = &group;
    for (int p = 2; p <= 8200; ++p) {
      /* Beyond 300 ranks, only around the rule's thresholds (powers of two). */
      if (p > 300 && (p & (p - 1)) != 0 && ((p + 1) & p) != 0 && ((p - 1) & (p - 2)) != 0) continue;
      group.grp_proc_count = p;
      sweep_size(world, &fake, (struct ompi_op_t *)ordered);
    }
    printf("fixed_rule: %s cases=%d failures=%d\n", failures ? "FAIL" : "PASS", cases, failures);
  }
  MPI_Op_free(&ordered);
  int status = failures ? 1 : 0;
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
