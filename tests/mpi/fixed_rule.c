/* The model's copy of tuned's fixed rules (mt_fixed_rule, model/select/ompi_fixed.cpp) against tuned
 * itself: what coll_tuned_decision_fixed.c runs, and with which arguments, for every communicator
 * size up to 300 and around each of the rule's thresholds beyond, at message sizes around every
 * power of two up to 8 MiB, for bcast, commutative and non-commutative reduce, allreduce,
 * allgather (by one rank's block) and alltoall (by one peer's block, with tuned's request limit,
 * 0 by default), and barrier, whose rule looks at the communicator's size only. The model
 * weighs its picks against what this rule runs, so a difference here would compare them with
 * another algorithm than Open MPI's default.
 *
 * How: run under mpirun at np 2 without modeltuned, so tuned's collectives are MPI_COMM_WORLD's.
 * The ompi_coll_base_* functions are interposed (interpose.c) and only note which one tuned ran
 * and its arguments (record_only). Rank 0 then calls tuned's own
 * functions on a copy of MPI_COMM_WORLD whose group claims P ranks: tuned's fixed rules read only
 * the communicator size, the datatype's size and the operation's commutativity.
 *
 * Output (rank 0): "fixed_rule: PASS cases=N" or "fixed_rule: FAIL ..." lines; exit status 1 on
 * any difference. */
#include "ompi_config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mpi.h"
#include "model/capi/modeltuned_model.h"
#include "ompi/communicator/communicator.h"
#include "ompi/group/group.h"
#include "ompi/mca/coll/base/coll_base_functions.h"
#include "ompi/mca/coll/coll.h"
#include "ompi/op/op.h"

#include "interpose.h"

/* ---- the sweep ------------------------------------------------------------------------------ */

static int failures, cases;

/* One call of tuned's function on `comm`, compared with the model's rule. */
static void compare(ompi_communicator_t *world, ompi_communicator_t *comm, int op, struct ompi_op_t *reduce_op,
                    size_t bytes) {
  const int p = ompi_comm_size(comm);
  const bool commutative = MT_OP_BCAST == op || ompi_op_is_commute(reduce_op);
  char byte = 0;
  memset(&interposed, 0, sizeof interposed);
  interposed.record_only = true;
  interposed.on = true;
  if (MT_OP_BCAST == op)
    world->c_coll->coll_bcast(&byte, (int)bytes, MPI_BYTE, 0, comm, world->c_coll->coll_bcast_module);
  else
    world->c_coll->coll_reduce(&byte, &byte, (int)bytes, MPI_BYTE, reduce_op, 0, comm,
                               world->c_coll->coll_reduce_module);
  interposed.on = false;
  int32_t fanout = -1;
  const int algorithm = mt_fixed_rule(op, bytes, p, commutative, &fanout);
  ++cases;
  if (1 == interposed.calls && interposed.algorithm == algorithm && 0 == interposed.segsize &&
      interposed.fanout == fanout && 0 == interposed.max_requests)
    return;
  if (++failures <= 20)
    printf(
        "fixed_rule: FAIL %s%s P=%d bytes=%zu: tuned ran %d (calls %d, segsize %u, fan-out "
        "%d, max requests %d), the model's rule says %d (fan-out %d)\n",
        MT_OP_BCAST == op ? "bcast" : "reduce",
        MT_OP_BCAST == op ? ""
        : commutative     ? " commutative"
                          : " non-commutative",
        p, bytes, interposed.calls ? interposed.algorithm : 0, interposed.calls, interposed.segsize, interposed.fanout,
        interposed.max_requests, algorithm, fanout);
}

static void noncommutative_fn(void *in, void *inout, int *len, MPI_Datatype *type) {
  (void)in, (void)inout, (void)len, (void)type; /* never runs: the sweep only decides */
}

/* The same for allreduce, whose tuned function the sweep calls with another signature. */
static void compare_allreduce(ompi_communicator_t *world, ompi_communicator_t *comm, struct ompi_op_t *op,
                              size_t bytes) {
  const int p = ompi_comm_size(comm);
  char byte = 0;
  memset(&interposed, 0, sizeof interposed);
  interposed.record_only = true;
  interposed.on = true;
  world->c_coll->coll_allreduce(&byte, &byte, (int)bytes, MPI_BYTE, op, comm, world->c_coll->coll_allreduce_module);
  interposed.on = false;
  int32_t fanout = -1;
  const int algorithm = mt_fixed_rule(MT_OP_ALLREDUCE, bytes, p, ompi_op_is_commute(op), &fanout);
  ++cases;
  if (1 == interposed.calls && interposed.algorithm == algorithm && 0 == interposed.segsize) return;
  if (++failures <= 20)
    printf(
        "fixed_rule: FAIL allreduce%s P=%d bytes=%zu: tuned ran %d (calls %d, segsize %u), the model's rule "
        "says %d\n",
        ompi_op_is_commute(op) ? "" : " non-commutative", p, bytes, interposed.calls ? interposed.algorithm : 0,
        interposed.calls, interposed.segsize, algorithm);
}

static void compare_barrier(ompi_communicator_t *world, ompi_communicator_t *comm) {
  const int p = ompi_comm_size(comm);
  memset(&interposed, 0, sizeof interposed);
  interposed.record_only = true;
  interposed.on = true;
  world->c_coll->coll_barrier(comm, world->c_coll->coll_barrier_module);
  interposed.on = false;
  const int algorithm = mt_fixed_rule(MT_OP_BARRIER, 0, p, 1, NULL);
  ++cases;
  if (1 == interposed.calls && interposed.algorithm == algorithm) return;
  if (++failures <= 20)
    printf("fixed_rule: FAIL barrier P=%d: tuned ran %d (calls %d), the model's rule says %d\n", p,
           interposed.calls ? interposed.algorithm : 0, interposed.calls, algorithm);
}

static void compare_allgather(ompi_communicator_t *world, ompi_communicator_t *comm, size_t bytes) {
  const int p = ompi_comm_size(comm);
  char byte = 0;
  memset(&interposed, 0, sizeof interposed);
  interposed.record_only = true;
  interposed.on = true;
  world->c_coll->coll_allgather(&byte, (int)bytes, MPI_BYTE, &byte, (int)bytes, MPI_BYTE, comm,
                                world->c_coll->coll_allgather_module);
  interposed.on = false;
  int32_t fanout = -1; /* 6.0 passes its k-radix Bruck a radix */
  const int algorithm = mt_fixed_rule(MT_OP_ALLGATHER, bytes, p, 1, &fanout);
  ++cases;
  if (1 == interposed.calls && interposed.algorithm == algorithm && interposed.fanout == fanout) return;
  if (++failures <= 20)
    printf(
        "fixed_rule: FAIL allgather P=%d bytes=%zu: tuned ran %d (calls %d, fanout %d), the model's rule says %d "
        "(fanout %d)\n",
        p, bytes, interposed.calls ? interposed.algorithm : 0, interposed.calls, interposed.fanout, algorithm, fanout);
}

static void compare_alltoall(ompi_communicator_t *world, ompi_communicator_t *comm, size_t bytes) {
  const int p = ompi_comm_size(comm);
  char byte = 0;
  memset(&interposed, 0, sizeof interposed);
  interposed.record_only = true;
  interposed.on = true;
  world->c_coll->coll_alltoall(&byte, (int)bytes, MPI_BYTE, &byte, (int)bytes, MPI_BYTE, comm,
                               world->c_coll->coll_alltoall_module);
  interposed.on = false;
  const int algorithm = mt_fixed_rule(MT_OP_ALLTOALL, bytes, p, 1, NULL);
  ++cases;
  if (1 == interposed.calls && interposed.algorithm == algorithm && 0 == interposed.max_requests) return;
  if (++failures <= 20)
    printf(
        "fixed_rule: FAIL alltoall P=%d bytes=%zu: tuned ran %d (calls %d, max requests %d), the model's rule says "
        "%d\n",
        p, bytes, interposed.calls ? interposed.algorithm : 0, interposed.calls, interposed.max_requests, algorithm);
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
      compare_alltoall(world, comm, bytes);
    }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  char line[16]; /* the model's rules as the line this runs under has them */
  snprintf(line, sizeof line, "%d.%d", OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION);
  mt_set_ompi_version(line);
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
  /* The other ranks wait out rank 0's sweep by testing, not inside a collective, where the
   * watchdog (watchdog.c) would take a long sweep for a hang. */
  MPI_Request request;
  MPI_Ibcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD, &request);
  for (int done = 0; !done;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (!done) usleep(1000);
  }
  MPI_Finalize();
  return status;
}
