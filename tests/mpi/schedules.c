/* The model's schedules of the families made of rounds (allreduce, barrier, allgather and alltoall,
 * model/collectives/<name>/schedule.cpp, through mt_schedule_sends) against the messages libmpi's
 * own ompi_coll_base_<name>_intra_* functions send.
 *
 * How: Open MPI's base algorithms send through the PML's function table (MCA_PML_CALL(send),
 * isend inside ompi_coll_base_sendrecv); this program wraps the table's send and isend so that,
 * while recording, every message a rank sends is noted (destination, elements). On every
 * communicator of the first k ranks of MPI_COMM_WORLD (k = 2 .. np) it runs each algorithm that
 * has a schedule of its own (1 linear, 3 recursive doubling, 4 ring, 5 segmented ring, 6
 * Rabenseifner) for counts around k and its powers of two and for segment sizes of the segmented
 * ring, then compares each rank's sends, in order, with the model's, and checks the sums.
 * Silent fallbacks are part of it: a ring with count < k runs recursive doubling inside libmpi,
 * and the model must say so. The same for every barrier algorithm, and for every allgather
 * algorithm with a schedule of its own (not linear, the communicator's gather and bcast) at a few
 * block sizes, its gathered blocks checked too, and for every alltoall algorithm (whose linear
 * posts persistent sends: isend_init is wrapped too; modified Bruck sends one message of a derived
 * datatype: a send is noted in ints, its count times its datatype's size over an int's).
 *
 * Output (rank 0): "schedules: PASS cases=N barrier_cases=M allgather_cases=K alltoall_cases=L" or a
 * "schedules: FAIL ..." line per difference (at most 20); exit status 1 on any. */
#include "ompi_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "model/capi/modeltuned_model.h"
#include "ompi/communicator/communicator.h"
#include "ompi/mca/coll/base/coll_base_functions.h"
#include "ompi/mca/coll/coll.h"
#include "ompi/mca/pml/pml.h"

#define MAX_SENDS 4096

/* ---- recording the PML's sends --------------------------------------------------------------- */

static mca_pml_base_module_send_fn_t real_send;
static mca_pml_base_module_isend_fn_t real_isend;
static mca_pml_base_module_isend_init_fn_t real_isend_init;
static struct {
  int on, n;
  mt_send sends[MAX_SENDS];
} log_;

/* A send of `count` elements of `dtype`, noted in ints (every case sends ints or nothing). */
static void note(size_t count, struct ompi_datatype_t *dtype, int dst) {
  if (!log_.on) return;
  int type_size = 0;
  MPI_Type_size((MPI_Datatype)dtype, &type_size);
  if (log_.n < MAX_SENDS) log_.sends[log_.n] = (mt_send){.to = dst, .count = count * (size_t)type_size / sizeof(int)};
  log_.n++;
}

static int recording_send(const void *buf, size_t count, struct ompi_datatype_t *dtype, int dst, int tag,
                          mca_pml_base_send_mode_t mode, struct ompi_communicator_t *comm) {
  note(count, dtype, dst);
  return real_send(buf, count, dtype, dst, tag, mode, comm);
}

static int recording_isend(const void *buf, size_t count, struct ompi_datatype_t *dtype, int dst, int tag,
                           mca_pml_base_send_mode_t mode, struct ompi_communicator_t *comm,
                           struct ompi_request_t **request) {
  note(count, dtype, dst);
  return real_isend(buf, count, dtype, dst, tag, mode, comm, request);
}

static int recording_isend_init(const void *buf, size_t count, struct ompi_datatype_t *dtype, int dst, int tag,
                                mca_pml_base_send_mode_t mode, struct ompi_communicator_t *comm,
                                struct ompi_request_t **request) {
  note(count, dtype, dst);
  return real_isend_init(buf, count, dtype, dst, tag, mode, comm, request);
}

/* ---- one case ------------------------------------------------------------------------------- */

/* The first of the n sends where libmpi's (the log) and the model's `expected` differ; -1: none. */
static int first_difference(const mt_send *expected, int n) {
  for (int i = 0; i < n; ++i)
    if (expected[i].to != log_.sends[i].to || expected[i].count != log_.sends[i].count) return i;
  return -1;
}

/* Ends a FAIL line with the first differing send, if the counts of sends agreed. */
static void end_failure_line(int first, const mt_send *expected) {
  if (first >= 0)
    printf(" first_difference=%d libmpi=(to %d, %llu) model=(to %d, %llu)", first, log_.sends[first].to,
           (unsigned long long)log_.sends[first].count, expected[first].to, (unsigned long long)expected[first].count);
  printf("\n");
  fflush(stdout);
}

static int run_allreduce(int algorithm, uint32_t segsize, int *sbuf, int *rbuf, int count, MPI_Comm comm) {
  mca_coll_base_module_t *module = comm->c_coll->coll_allreduce_module;
  switch (algorithm) {
    case 1:
      return ompi_coll_base_allreduce_intra_basic_linear(sbuf, rbuf, count, MPI_INT, MPI_SUM, comm, module);
    case 3:
      return ompi_coll_base_allreduce_intra_recursivedoubling(sbuf, rbuf, count, MPI_INT, MPI_SUM, comm, module);
    case 4:
      return ompi_coll_base_allreduce_intra_ring(sbuf, rbuf, count, MPI_INT, MPI_SUM, comm, module);
    case 5:
      return ompi_coll_base_allreduce_intra_ring_segmented(sbuf, rbuf, count, MPI_INT, MPI_SUM, comm, module, segsize);
    case 6:
      return ompi_coll_base_allreduce_intra_redscat_allgather(sbuf, rbuf, count, MPI_INT, MPI_SUM, comm, module);
  }
  return MPI_ERR_ARG;
}

/* Runs one case on `comm` and returns, on every rank of it, how many ranks saw a difference. */
static int check_case(int algorithm, uint32_t segsize, int count, MPI_Comm comm, int *failures_shown) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int *sbuf = malloc(sizeof(int) * (size_t)count), *rbuf = malloc(sizeof(int) * (size_t)count);
  for (int i = 0; i < count; ++i) sbuf[i] = rank * 7 + i % 13;
  MPI_Barrier(comm);
  log_.n = 0;
  log_.on = 1;
  const int err = run_allreduce(algorithm, segsize, sbuf, rbuf, count, comm);
  log_.on = 0;
  int bad_sum = 0;
  for (int i = 0; i < count && !bad_sum; ++i) bad_sum = rbuf[i] != 7 * size * (size - 1) / 2 + size * (i % 13);

  static mt_send expected[MAX_SENDS];
  const int n = mt_schedule_sends(MT_OP_ALLREDUCE, algorithm, size, (uint64_t)count, sizeof(int), segsize, rank,
                                  expected, MAX_SENDS);
  int differs = err != MPI_SUCCESS || bad_sum || n != log_.n || n > MAX_SENDS;
  const int first = differs ? -1 : first_difference(expected, n);
  differs |= first >= 0;
  if (differs && *failures_shown < 20) {
    ++*failures_shown;
    printf(
        "schedules: FAIL allreduce algorithm=%d segsize=%u P=%d count=%d rank=%d err=%d sum_wrong=%d sends=%d "
        "model=%d",
        algorithm, segsize, size, count, rank, err, bad_sum, log_.n, n);
    end_failure_line(first, expected);
  }
  free(sbuf);
  free(rbuf);
  int total = 0;
  MPI_Allreduce(&differs, &total, 1, MPI_INT, MPI_SUM, comm);
  return total;
}

static int run_barrier(int algorithm, MPI_Comm comm) {
  mca_coll_base_module_t *module = comm->c_coll->coll_barrier_module;
  switch (algorithm) {
    case 1:
      return ompi_coll_base_barrier_intra_basic_linear(comm, module);
    case 2:
      return ompi_coll_base_barrier_intra_doublering(comm, module);
    case 3:
      return ompi_coll_base_barrier_intra_recursivedoubling(comm, module);
    case 4:
      return ompi_coll_base_barrier_intra_bruck(comm, module);
    case 5:
      return ompi_coll_base_barrier_intra_two_procs(comm, module);
    case 6:
      return ompi_coll_base_barrier_intra_tree(comm, module);
  }
  return MPI_ERR_ARG;
}

/* One barrier algorithm on `comm`; as check_case. */
static int check_barrier(int algorithm, MPI_Comm comm, int *failures_shown) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Barrier(comm);
  log_.n = 0;
  log_.on = 1;
  const int err = run_barrier(algorithm, comm);
  log_.on = 0;
  static mt_send expected[MAX_SENDS];
  const int n = mt_schedule_sends(MT_OP_BARRIER, algorithm, size, 0, 1, 0, rank, expected, MAX_SENDS);
  int differs = err != MPI_SUCCESS || n != log_.n || n > MAX_SENDS;
  for (int i = 0; !differs && i < n; ++i) differs = expected[i].to != log_.sends[i].to || log_.sends[i].count != 0;
  if (differs && *failures_shown < 20) {
    ++*failures_shown;
    printf("schedules: FAIL barrier algorithm=%d P=%d rank=%d err=%d sends=%d model=%d\n", algorithm, size, rank, err,
           log_.n, n);
    fflush(stdout);
  }
  int total = 0;
  MPI_Allreduce(&differs, &total, 1, MPI_INT, MPI_SUM, comm);
  return total;
}

/* Every barrier algorithm that runs on this many ranks. */
static int check_barriers(MPI_Comm comm, int *failed, int *failures_shown) {
  int size, cases = 0;
  MPI_Comm_size(comm, &size);
  for (int algorithm = 1; algorithm <= 6; ++algorithm) {
    if (algorithm == 5 && size != 2) continue; /* Open MPI fails two_proc elsewhere */
    ++cases;
    if (check_barrier(algorithm, comm, failures_shown)) ++*failed;
  }
  return cases;
}

static int run_allgather(int algorithm, const int *sbuf, int *rbuf, int count, MPI_Comm comm) {
  mca_coll_base_module_t *module = comm->c_coll->coll_allgather_module;
  switch (algorithm) {
    case 2:
#if OMPI_MAJOR_VERSION >= 6
      /* the k-radix Bruck at the radix tuned passes it when forced (mt_schedule_sends' too) */
      return ompi_coll_base_allgather_intra_k_bruck(sbuf, count, MPI_INT, rbuf, count, MPI_INT, comm, module, 4);
#else
      return ompi_coll_base_allgather_intra_bruck(sbuf, count, MPI_INT, rbuf, count, MPI_INT, comm, module);
#endif
    case 3:
      return ompi_coll_base_allgather_intra_recursivedoubling(sbuf, count, MPI_INT, rbuf, count, MPI_INT, comm, module);
    case 4:
      return ompi_coll_base_allgather_intra_ring(sbuf, count, MPI_INT, rbuf, count, MPI_INT, comm, module);
    case 5:
      return ompi_coll_base_allgather_intra_neighborexchange(sbuf, count, MPI_INT, rbuf, count, MPI_INT, comm, module);
    case 6:
      return ompi_coll_base_allgather_intra_two_procs(sbuf, count, MPI_INT, rbuf, count, MPI_INT, comm, module);
#if OMPI_MAJOR_VERSION >= 5
    case 7:
      return ompi_coll_base_allgather_intra_sparbit(sbuf, count, MPI_INT, rbuf, count, MPI_INT, comm, module);
#endif
#if OMPI_MAJOR_VERSION >= 6
    case 8:
      return ompi_coll_base_allgather_direct_messaging(sbuf, count, MPI_INT, rbuf, count, MPI_INT, comm, module);
#endif
  }
  return MPI_ERR_ARG;
}

static int run_alltoall(int algorithm, int *sbuf, int *rbuf, int count, MPI_Comm comm) {
  mca_coll_base_module_t *module = comm->c_coll->coll_alltoall_module;
  switch (algorithm) {
    case 1:
      return ompi_coll_base_alltoall_intra_basic_linear(sbuf, count, MPI_INT, rbuf, count, MPI_INT, comm, module);
    case 2:
      return ompi_coll_base_alltoall_intra_pairwise(sbuf, count, MPI_INT, rbuf, count, MPI_INT, comm, module);
    case 3:
      return ompi_coll_base_alltoall_intra_bruck(sbuf, count, MPI_INT, rbuf, count, MPI_INT, comm, module);
    case 4:
      return ompi_coll_base_alltoall_intra_linear_sync(sbuf, count, MPI_INT, rbuf, count, MPI_INT, comm, module, 0);
    case 5:
      return ompi_coll_base_alltoall_intra_two_procs(sbuf, count, MPI_INT, rbuf, count, MPI_INT, comm, module);
  }
  return MPI_ERR_ARG;
}

/* Element i of rank q's block for rank d (an allgather's block is the same for every d). */
static int exchanged_value(int op, int q, int d, int i) {
  return (q * 1009 + (op == MT_OP_ALLTOALL ? d : 0)) * 10007 + i;
}

/* One allgather or alltoall algorithm and block size on `comm`; as check_case, the blocks received
 * checked. */
static int check_exchange(int op, int algorithm, int count, MPI_Comm comm, int *failures_shown) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int blocks_sent = op == MT_OP_ALLTOALL ? size : 1;
  int *sbuf = malloc(sizeof(int) * (size_t)count * (size_t)blocks_sent);
  int *rbuf = malloc(sizeof(int) * (size_t)count * (size_t)size);
  for (int d = 0; d < blocks_sent; ++d)
    for (int i = 0; i < count; ++i) sbuf[d * count + i] = exchanged_value(op, rank, d, i);
  MPI_Barrier(comm);
  log_.n = 0;
  log_.on = 1;
  const int err = op == MT_OP_ALLTOALL ? run_alltoall(algorithm, sbuf, rbuf, count, comm)
                                       : run_allgather(algorithm, sbuf, rbuf, count, comm);
  log_.on = 0;
  int bad_block = 0;
  for (int q = 0; q < size && !bad_block; ++q)
    for (int i = 0; i < count && !bad_block; ++i) bad_block = rbuf[q * count + i] != exchanged_value(op, q, rank, i);
  static mt_send expected[MAX_SENDS];
  const int n = mt_schedule_sends(op, algorithm, size, (uint64_t)count, sizeof(int), 0, rank, expected, MAX_SENDS);
  int differs = err != MPI_SUCCESS || bad_block || n != log_.n || n > MAX_SENDS;
  const int first = differs ? -1 : first_difference(expected, n);
  differs |= first >= 0;
  if (differs && *failures_shown < 20) {
    ++*failures_shown;
    printf("schedules: FAIL %s algorithm=%d P=%d count=%d rank=%d err=%d blocks_wrong=%d sends=%d model=%d",
           op == MT_OP_ALLTOALL ? "alltoall" : "allgather", algorithm, size, count, rank, err, bad_block, log_.n, n);
    end_failure_line(first, expected);
  }
  free(sbuf);
  free(rbuf);
  int total = 0;
  MPI_Allreduce(&differs, &total, 1, MPI_INT, MPI_SUM, comm);
  return total;
}

/* Every algorithm of allgather or alltoall with sends of its own that runs on this many ranks, at a
 * few blocks: allgather's from 2 (linear gathers and broadcasts), sparbit from 5.0, direct
 * messaging from 6.0. Open MPI fails two_proc on other than 2 ranks. */
static int check_exchanges(int op, MPI_Comm comm, int *failed, int *failures_shown) {
  int size, cases = 0;
  MPI_Comm_size(comm, &size);
  const int counts[] = {1, 3, 1000};
  const int first = op == MT_OP_ALLTOALL ? 1 : 2;
  const int last = op == MT_OP_ALLTOALL ? 5 : OMPI_MAJOR_VERSION >= 6 ? 8 : OMPI_MAJOR_VERSION >= 5 ? 7 : 6;
  const int two_proc = op == MT_OP_ALLTOALL ? 5 : 6;
  for (int algorithm = first; algorithm <= last; ++algorithm) {
    if (algorithm == two_proc && size != 2) continue;
    for (size_t c = 0; c < sizeof counts / sizeof *counts; ++c, ++cases)
      if (check_exchange(op, algorithm, counts[c], comm, failures_shown)) ++*failed;
  }
  return cases;
}

/* Every case on one communicator: returns the cases run, adds the failed ones to *failed. */
static int check_comm(MPI_Comm comm, int *failed, int *failures_shown) {
  int size, cases = 0;
  MPI_Comm_size(comm, &size);
  const int counts[] = {1, size - 1, size, size + 1, 2 * size + 1, 3 * size - 1, 64, 100, 1000, 4099};
  const uint32_t segsizes[] = {0, 8, 12, 64, 1024};
  const int algorithms[] = {1, 3, 4, 5, 6};
  for (size_t a = 0; a < sizeof algorithms / sizeof *algorithms; ++a)
    for (size_t c = 0; c < sizeof counts / sizeof *counts; ++c) {
      if (counts[c] < 1) continue;
      const size_t nseg = algorithms[a] == 5 ? sizeof segsizes / sizeof *segsizes : 1;
      for (size_t s = 0; s < nseg; ++s, ++cases)
        if (check_case(algorithms[a], algorithms[a] == 5 ? segsizes[s] : 0, counts[c], comm, failures_shown)) ++*failed;
    }
  return cases;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  char line[16]; /* the registry as the line this runs under has it (6.0's allgather 2) */
  snprintf(line, sizeof line, "%d.%d", OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION);
  mt_set_ompi_version(line);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  real_send = mca_pml.pml_send;
  real_isend = mca_pml.pml_isend;
  real_isend_init = mca_pml.pml_isend_init;
  mca_pml.pml_send = recording_send;
  mca_pml.pml_isend = recording_isend;
  mca_pml.pml_isend_init = recording_isend_init;

  int cases = 0, barrier_cases = 0, allgather_cases = 0, alltoall_cases = 0, failed = 0, failures_shown = 0;
  for (int k = 2; k <= size; ++k) {
    MPI_Comm comm;
    MPI_Comm_split(MPI_COMM_WORLD, rank < k ? 0 : MPI_UNDEFINED, rank, &comm);
    if (comm != MPI_COMM_NULL) {
      cases += check_comm(comm, &failed, &failures_shown);
      barrier_cases += check_barriers(comm, &failed, &failures_shown);
      allgather_cases += check_exchanges(MT_OP_ALLGATHER, comm, &failed, &failures_shown);
      alltoall_cases += check_exchanges(MT_OP_ALLTOALL, comm, &failed, &failures_shown);
      MPI_Comm_free(&comm);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  mca_pml.pml_send = real_send;
  mca_pml.pml_isend = real_isend;
  mca_pml.pml_isend_init = real_isend_init;
  if (rank == 0) {
    if (failed == 0)
      printf("schedules: PASS cases=%d barrier_cases=%d allgather_cases=%d alltoall_cases=%d sizes=2-%d\n", cases,
             barrier_cases, allgather_cases, alltoall_cases, size);
    else
      printf("schedules: FAIL %d of %d cases differ\n", failed,
             cases + barrier_cases + allgather_cases + alltoall_cases);
  }
  MPI_Finalize();
  return failed ? 1 : 0;
}
