/* modeltuned-latency: the latency of MPI_Bcast, MPI_Reduce, MPI_Allreduce, MPI_Barrier, MPI_Allgather and
 * MPI_Alltoall on MPI_COMM_WORLD, measured and printed the way the OSU micro-benchmarks do. Plain MPI
 * on purpose: no MPI_T, no MCA setting, no communicator of its own, so that whatever the job's
 * environment selects (modeltuned or Open MPI's own decisions) is what runs; modeltuned ab compares
 * two such jobs.
 *
 * Method (OSU's): per message size, warm-up calls, then per iteration t0 = MPI_Wtime(), the
 * collective, the time accumulated, MPI_Barrier; the barrier as osu_barrier does, its timed calls back
 * to back. Each rank's mean latency in microseconds; rank 0 prints the mean over ranks (and with
 * --full the minimum and maximum over ranks). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "config.h"

#include "tools/latency/options.h"

/* The send buffer holds ones of the reductions' type (bcast only moves bytes). */
static void fill_ones(void *buffer, size_t bytes, const struct datatype *d) {
  size_t i, count = bytes / d->size;
  for (i = 0; i < count; ++i) {
    if (d->type == MPI_INT) {
      ((int *)buffer)[i] = 1;
    } else if (d->type == MPI_FLOAT) {
      ((float *)buffer)[i] = 1.0f;
    } else if (d->type == MPI_DOUBLE) {
      ((double *)buffer)[i] = 1.0;
    } else {
      ((signed char *)buffer)[i] = 1;
    }
  }
}

static void collective(enum op op, const struct options *o, unsigned long long size, void *send, void *recv) {
  const int count = (int)(size / o->datatype.size), root = (int)o->root;
  switch (op) {
    case OP_BCAST:
      MPI_Bcast(send, (int)size, MPI_BYTE, root, MPI_COMM_WORLD);
      break;
    case OP_REDUCE:
      MPI_Reduce(send, recv, count, o->datatype.type, MPI_SUM, root, MPI_COMM_WORLD);
      break;
    case OP_ALLGATHER:
      MPI_Allgather(send, (int)size, MPI_BYTE, recv, (int)size, MPI_BYTE, MPI_COMM_WORLD);
      break;
    case OP_ALLTOALL:
      MPI_Alltoall(send, (int)size, MPI_BYTE, recv, (int)size, MPI_BYTE, MPI_COMM_WORLD);
      break;
    default:
      MPI_Allreduce(send, recv, count, o->datatype.type, MPI_SUM, MPI_COMM_WORLD);
      break;
  }
}

/* osu_barrier's loop: the warm-up barriers, then the timed ones back to back. */
static double measure_barrier(const struct options *o) {
  const long warmup = warmup_for(o, 0), iterations = iterations_for(o, 0);
  double t0 = 0;
  long i;
  for (i = 0; i < warmup + iterations; ++i) {
    if (i == warmup) t0 = MPI_Wtime();
    MPI_Barrier(MPI_COMM_WORLD);
  }
  return (MPI_Wtime() - t0) * 1e6 / (double)iterations;
}

/* This rank's mean latency in microseconds (OSU's loop: the warm-up calls are not timed, a barrier
 * follows every call). */
static double measure(enum op op, const struct options *o, unsigned long long size, void *send, void *recv) {
  const long warmup = warmup_for(o, size), iterations = iterations_for(o, size);
  double total = 0;
  long i;
  if (op == OP_BARRIER) return measure_barrier(o);
  for (i = 0; i < warmup + iterations; ++i) {
    const double t0 = MPI_Wtime();
    collective(op, o, size, send, recv);
    if (i >= warmup) total += MPI_Wtime() - t0;
    MPI_Barrier(MPI_COMM_WORLD);
  }
  return total * 1e6 / (double)iterations;
}

static void print_title(enum op op, const struct options *o, int nranks) {
  char type[64], root[32] = "", iterations[80];
  if (op == OP_BCAST)
    snprintf(type, sizeof type, "MPI_BYTE");
  else if (op == OP_ALLGATHER)
    snprintf(type, sizeof type, "MPI_BYTE, size per rank");
  else if (op == OP_ALLTOALL)
    snprintf(type, sizeof type, "MPI_BYTE, size per peer");
  else if (op == OP_BARRIER)
    snprintf(type, sizeof type, "no data");
  else
    snprintf(type, sizeof type, "%s, MPI_SUM", o->datatype.mpi_name);
  if ((op == OP_BCAST || op == OP_REDUCE) && o->root != 0) snprintf(root, sizeof root, ", root %ld", o->root);
  if (o->iterations >= 0)
    snprintf(iterations, sizeof iterations, "average of %ld iterations", o->iterations);
  else if (op == OP_BARRIER)
    snprintf(iterations, sizeof iterations, "average of %ld iterations", iterations_for(o, 0));
  else
    snprintf(iterations, sizeof iterations, "average of 1000 iterations up to 8 KiB, 100 above");
  printf("# %s: %s on %d rank%s (%s%s), %s\n", PROGRAM, op_titles[op], nranks, nranks == 1 ? "" : "s", type, root,
         iterations);
  if (o->full)
    printf("%-10s%18s%18s%18s%12s\n", "# Size", "Avg Latency(us)", "Min Latency(us)", "Max Latency(us)", "Iterations");
  else
    printf("%-10s%18s\n", "# Size", "Avg Latency(us)");
}

/* One row: the size's latency, the mean over ranks (and the extremes) printed by rank 0. */
static void run_size(enum op op, const struct options *o, unsigned long long size, int rank, int nranks, void *send,
                     void *recv) {
  const double latency = measure(op, o, size, send, recv);
  double sum = 0, min = 0, max = 0;
  MPI_Reduce(&latency, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (o->full) {
    MPI_Reduce(&latency, &min, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&latency, &max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  }
  if (rank != 0) return;
  printf("%-10llu%18.2f", size, sum / nranks);
  if (o->full) printf("%18.2f%18.2f%12ld", min, max, iterations_for(o, size));
  printf("\n");
  fflush(stdout);
}

/* One table: every size of `op` (the barrier's one row, size 0), a row each on rank 0 as soon as
 * it is measured. */
static void run_op(enum op op, const struct options *o, int rank, int nranks, void *send, void *recv) {
  unsigned long long size;
  if (rank == 0) print_title(op, o, nranks);
  if (op == OP_BARRIER) {
    run_size(op, o, 0, rank, nranks, send, recv);
    return;
  }
  for (size = first_size(o, op); size != 0 && size <= o->max_size; size *= 2)
    run_size(op, o, size, rank, nranks, send, recv);
}

static int run(const struct options *o, int rank, int nranks) {
  /* An allgather receives every rank's block; an alltoall sends a block to every rank too. */
  const size_t blocks = o->ops[OP_ALLGATHER] || o->ops[OP_ALLTOALL] ? (size_t)nranks : 1;
  const size_t send_size = (size_t)o->max_size * (o->ops[OP_ALLTOALL] ? (size_t)nranks : 1);
  const size_t recv_size = (size_t)o->max_size * blocks;
  void *send = malloc(send_size), *recv = malloc(recv_size);
  int allocated = send != NULL && recv != NULL, everywhere = 0, op, tables = 0;
  MPI_Allreduce(&allocated, &everywhere, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (!everywhere) {
    if (rank == 0) fprintf(stderr, "%s: cannot allocate buffers of %zu and %zu bytes\n", PROGRAM, send_size, recv_size);
    free(send);
    free(recv);
    return 1;
  }
  fill_ones(send, send_size, &o->datatype);
  memset(recv, 0, recv_size);
  for (op = 0; op < OP_COUNT; ++op) {
    if (!o->ops[op]) continue;
    if (rank == 0 && tables++ > 0) printf("\n");
    run_op((enum op)op, o, rank, nranks, send, recv);
  }
  free(send);
  free(recv);
  return 0;
}

int main(int argc, char **argv) {
  struct options o;
  char error[256] = "";
  int rank = 0, nranks = 1, status = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  /* Every rank parses the same arguments, so every rank takes the same way out. */
  if (parse_options(argc, argv, nranks, &o, error, sizeof error) != 0 ||
      (!o.help && !o.version && check_sizes(&o, error, sizeof error) != 0)) {
    if (rank == 0) fprintf(stderr, "%s: %s (see %s --help)\n", PROGRAM, error, PROGRAM);
    status = 2;
  } else if (o.help) {
    if (rank == 0) fputs(help_text, stdout);
  } else if (o.version) {
    if (rank == 0) printf("%s\n", PACKAGE_VERSION);
  } else {
    status = run(&o, rank, nranks);
  }
  MPI_Finalize();
  return status;
}
