/* modeltuned-latency's command line (see options.h). */
#include "tools/latency/options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LARGE_MESSAGE 8192 /* OSU's LARGE_MESSAGE_SIZE: fewer iterations above it */
#define MAX_SIZE (1ull << 30)

static const char *const op_names[OP_COUNT] = {"bcast", "reduce", "allreduce", "barrier", "allgather", "alltoall"};
const char *const op_titles[OP_COUNT] = {"MPI_Bcast",   "MPI_Reduce",    "MPI_Allreduce",
                                         "MPI_Barrier", "MPI_Allgather", "MPI_Alltoall"};

const char *const help_text =
    "Usage: mpirun -np N " PROGRAM
    " [OPTIONS]\n"
    "\n"
    "The latency of MPI_Bcast, MPI_Reduce, MPI_Allreduce, MPI_Barrier, MPI_Allgather and\n"
    "MPI_Alltoall on MPI_COMM_WORLD, measured and printed like the OSU micro-benchmarks: plain MPI,\n"
    "nothing that selects or avoids a collective component, so that modeltuned ab can compare the\n"
    "same job with and without modeltuned.\n"
    "\n"
    "Options:\n"
    "  --op bcast|reduce|allreduce|barrier|allgather|alltoall|all  the operations, one table each\n"
    "                        (default all, in that order; the barrier's table has one row, size 0;\n"
    "                        an allgather's size is one rank's block of MPI_BYTE, as\n"
    "                        osu_allgather's, an alltoall's one peer's, as osu_alltoall's)\n"
    "  --min-size BYTES      smallest message (default 1); K, M suffixes (powers of 1024)\n"
    "  --max-size BYTES      largest message (default 4M, at most 1G); the sizes are the powers of two\n"
    "                        between the two\n"
    "  --iterations N        timed calls per size (default 1000 up to 8 KiB, 100 above)\n"
    "  --warmup N            untimed calls first (default 200 up to 8 KiB, 10 above)\n"
    "  --datatype int|float|double|char  the reductions' type, summed with MPI_SUM (default int;\n"
    "                        char is MPI_SIGNED_CHAR, as MPI_SUM is not defined on MPI_CHAR); the\n"
    "                        reductions start at the type's size. Bcast sends MPI_BYTE\n"
    "  --root R              root of bcast and reduce (default 0)\n"
    "  --full                also the minimum and maximum over ranks, and the iteration count\n"
    "  --help                this text\n"
    "  --version             the version of modeltuned it comes with\n"
    "\n"
    "Method: per size, the warm-up calls, then per iteration t0 = MPI_Wtime(), the collective, its time\n"
    "added up, MPI_Barrier; the barrier as OSU's osu_barrier, the warm-up calls, then the timed ones back\n"
    "to back. Each rank's mean latency in microseconds; the table shows the mean over ranks. A bad\n"
    "argument stops every rank with one line naming it, and exit status 2.\n";

/* "4096", "4K", "4KiB", "1M", "1MiB": a whole number of bytes; 0 when it is not one. */
static int parse_bytes(const char *text, unsigned long long *bytes) {
  char *end = NULL;
  unsigned long long value, scale = 1;
  if (text[0] < '0' || text[0] > '9') return 0;
  errno = 0;
  value = strtoull(text, &end, 10);
  if (errno != 0) return 0;
  if (strcmp(end, "K") == 0 || strcmp(end, "KiB") == 0 || strcmp(end, "k") == 0) {
    scale = 1ull << 10;
  } else if (strcmp(end, "M") == 0 || strcmp(end, "MiB") == 0) {
    scale = 1ull << 20;
  } else if (strcmp(end, "G") == 0 || strcmp(end, "GiB") == 0) {
    scale = 1ull << 30;
  } else if (*end != '\0' && strcmp(end, "B") != 0) {
    return 0;
  }
  if (value > MAX_SIZE / scale) return 0;
  *bytes = value * scale;
  return 1;
}

static int parse_count(const char *text, long lo, long *count) {
  char *end = NULL;
  long value;
  if (text[0] < '0' || text[0] > '9') return 0;
  errno = 0;
  value = strtol(text, &end, 10);
  if (errno != 0 || *end != '\0' || value < lo) return 0;
  *count = value;
  return 1;
}

static int parse_datatype(const char *text, struct datatype *d) {
  static const struct {
    const char *name, *mpi_name;
    size_t size;
  } known[] = {{"int", "MPI_INT", sizeof(int)},
               {"float", "MPI_FLOAT", sizeof(float)},
               {"double", "MPI_DOUBLE", sizeof(double)},
               {"char", "MPI_SIGNED_CHAR", 1}};
  const MPI_Datatype types[] = {MPI_INT, MPI_FLOAT, MPI_DOUBLE, MPI_SIGNED_CHAR};
  size_t i;
  for (i = 0; i < sizeof known / sizeof known[0]; ++i)
    if (strcmp(text, known[i].name) == 0) {
      d->name = known[i].name;
      d->mpi_name = known[i].mpi_name;
      d->type = types[i];
      d->size = known[i].size;
      return 1;
    }
  return 0;
}

static int parse_ops(const char *text, int ops[OP_COUNT]) {
  int i;
  for (i = 0; i < OP_COUNT; ++i) ops[i] = strcmp(text, "all") == 0 || strcmp(text, op_names[i]) == 0;
  for (i = 0; i < OP_COUNT; ++i)
    if (ops[i]) return 1;
  return 0;
}

/* One option and its value, as "--name value" or "--name=value"; the message for a bad one goes
 * into `error`. Returns 0 on success. */
static int parse_option(const char *name, const char *value, int nranks, struct options *o, char *error, size_t len) {
  int ok = 1;
  const char *what = "";
  if (value == NULL) {
    snprintf(error, len, "%s needs a value", name);
    return 1;
  }
  if (strcmp(name, "--op") == 0) {
    ok = parse_ops(value, o->ops), what = "is not bcast, reduce, allreduce, barrier, allgather, alltoall or all";
  } else if (strcmp(name, "--min-size") == 0) {
    ok = parse_bytes(value, &o->min_size) && o->min_size >= 1, what = "is not a size in 1..1G (e.g. 1, 4K, 1M)";
  } else if (strcmp(name, "--max-size") == 0) {
    ok = parse_bytes(value, &o->max_size) && o->max_size >= 1, what = "is not a size in 1..1G (e.g. 64, 4K, 4M)";
  } else if (strcmp(name, "--iterations") == 0) {
    ok = parse_count(value, 1, &o->iterations), what = "is not a whole number >= 1";
  } else if (strcmp(name, "--warmup") == 0) {
    ok = parse_count(value, 0, &o->warmup), what = "is not a whole number >= 0";
  } else if (strcmp(name, "--datatype") == 0) {
    ok = parse_datatype(value, &o->datatype), what = "is not int, float, double or char";
  } else if (strcmp(name, "--root") == 0) {
    ok = parse_count(value, 0, &o->root) && o->root < nranks, what = "is not a rank of MPI_COMM_WORLD";
  } else {
    snprintf(error, len, "unknown option '%s'", name);
    return 1;
  }
  if (!ok) snprintf(error, len, "%s: '%s' %s", name, value, what);
  return !ok;
}

int parse_options(int argc, char **argv, int nranks, struct options *o, char *error, size_t len) {
  int i;
  memset(o, 0, sizeof *o);
  parse_ops("all", o->ops);
  o->min_size = 1;
  o->max_size = 4ull << 20;
  o->iterations = o->warmup = -1;
  parse_datatype("int", &o->datatype);
  for (i = 1; i < argc; ++i) {
    char name[64];
    const char *eq = strchr(argv[i], '='), *value;
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      o->help = 1;
      return 0;
    }
    if (strcmp(argv[i], "--version") == 0) {
      o->version = 1;
      return 0;
    }
    if (strcmp(argv[i], "--full") == 0) {
      o->full = 1;
      continue;
    }
    if (strncmp(argv[i], "--", 2) != 0 || (eq != NULL && (size_t)(eq - argv[i]) >= sizeof name)) {
      snprintf(error, len, "unknown argument '%s'", argv[i]);
      return 1;
    }
    if (eq != NULL) {
      memcpy(name, argv[i], (size_t)(eq - argv[i]));
      name[eq - argv[i]] = '\0';
      value = eq + 1;
    } else {
      snprintf(name, sizeof name, "%s", argv[i]);
      value = i + 1 < argc ? argv[++i] : NULL;
    }
    if (parse_option(name, value, nranks, o, error, len) != 0) return 1;
  }
  if (o->min_size > o->max_size) {
    snprintf(error, len, "--min-size %llu is above --max-size %llu", o->min_size, o->max_size);
    return 1;
  }
  return 0;
}

int reduces(enum op op) { return op == OP_REDUCE || op == OP_ALLREDUCE; }

unsigned long long first_size(const struct options *o, enum op op) {
  unsigned long long size = 1, lo = o->min_size;
  if (reduces(op) && lo < o->datatype.size) lo = o->datatype.size;
  while (size < lo) size *= 2;
  return size <= o->max_size ? size : 0;
}

long iterations_for(const struct options *o, unsigned long long size) {
  if (o->iterations >= 0) return o->iterations;
  return size <= LARGE_MESSAGE ? 1000 : 100;
}

long warmup_for(const struct options *o, unsigned long long size) {
  if (o->warmup >= 0) return o->warmup;
  return size <= LARGE_MESSAGE ? 200 : 10;
}

int check_sizes(const struct options *o, char *error, size_t len) {
  int op;
  for (op = 0; op < OP_COUNT; ++op) {
    if (!o->ops[op] || op == OP_BARRIER || first_size(o, (enum op)op) != 0) continue;
    if (reduces(op) && o->max_size < o->datatype.size)
      snprintf(error, len, "--max-size %llu: below the %zu bytes of one %s, nothing to reduce (%s)", o->max_size,
               o->datatype.size, o->datatype.name, op_titles[op]);
    else
      snprintf(error, len, "--min-size %llu --max-size %llu: no power of two between them", o->min_size, o->max_size);
    return 1;
  }
  return 0;
}
