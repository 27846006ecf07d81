/* modeltuned-latency's command line: the options, their defaults (OSU's), and the message sizes
 * of each operation. */
#ifndef MODELTUNED_LATENCY_OPTIONS_H
#define MODELTUNED_LATENCY_OPTIONS_H

#include <stddef.h>

#include <mpi.h>

#define PROGRAM "modeltuned-latency"

enum op { OP_BCAST, OP_REDUCE, OP_ALLREDUCE, OP_BARRIER, OP_ALLGATHER, OP_ALLTOALL, OP_COUNT };
extern const char *const op_titles[OP_COUNT]; /* "MPI_Bcast", ... */

struct datatype {
  const char *name, *mpi_name;
  MPI_Datatype type;
  size_t size;
};

struct options {
  int ops[OP_COUNT]; /* which to run, in this order */
  unsigned long long min_size, max_size;
  long iterations, warmup; /* -1: OSU's defaults by size */
  struct datatype datatype;
  long root;
  int full, help, version;
};

extern const char *const help_text;

/* The options (after MPI_Init: --root is checked against the ranks), or a one-line message in
 * `error` naming the argument (returns 1). */
int parse_options(int argc, char **argv, int nranks, struct options *o, char *error, size_t len);
/* Every selected operation has at least one size, or a message in `error` (returns 1). */
int check_sizes(const struct options *o, char *error, size_t len);
/* The first size of an operation: the smallest power of two >= --min-size and, for a reduction,
 * >= the datatype's size (0 when none is <= --max-size); the next are its doublings. The barrier
 * has no size: its one row is size 0. An allgather's size is one rank's block, an alltoall's one peer's, as OSU's. */
unsigned long long first_size(const struct options *o, enum op op);
/* A reduction: its sizes are whole elements of --datatype. */
int reduces(enum op op);
/* Timed and untimed calls at `size`: --iterations and --warmup, else OSU's defaults. */
long iterations_for(const struct options *o, unsigned long long size);
long warmup_for(const struct options *o, unsigned long long size);

#endif
