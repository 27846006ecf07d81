/*
 * modeltuned-demo: measures MPI_Bcast and MPI_Reduce latency per message size on two duplicates
 * of MPI_COMM_WORLD, one created while modeltuned is enabled and one while it is disabled
 * (its priority set to -1 through MPI_T), alternating between them so that machine noise hits
 * both alike. Prints one line per (op, size): median latency of each, in microseconds.
 *
 * Usage: mpirun -np N modeltuned-demo [max_bytes] [repetitions]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* All ranks on one node share CLOCK_MONOTONIC, so a collective's latency can be taken from the
 * first rank's start to the last rank's end; with several nodes, the slowest rank's own time. */
static int one_node;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int set_priority(int value)
{
    int n = 0, found = -1;
    MPI_T_cvar_get_num(&n);
    for (int i = 0; i < n && found < 0; ++i) {
        char name[256], desc[1024];
        int name_len = sizeof name, desc_len = sizeof desc, verbosity, binding, scope;
        MPI_Datatype type;
        MPI_T_enum enumtype;
        if (MPI_SUCCESS != MPI_T_cvar_get_info(i, name, &name_len, &verbosity, &type, &enumtype,
                                               desc, &desc_len, &binding, &scope))
            continue;
        if (0 == strcmp(name, "coll_modeltuned_priority")) found = i;
    }
    if (found < 0) return -1;
    MPI_T_cvar_handle handle;
    int count;
    if (MPI_SUCCESS != MPI_T_cvar_handle_alloc(found, NULL, &handle, &count)) return -1;
    int rc = MPI_T_cvar_write(handle, &value);
    MPI_T_cvar_handle_free(&handle);
    return MPI_SUCCESS == rc ? 0 : -1;
}

static int compare(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

/* One timed call after a barrier. Measuring each rank's own duration would flatter algorithms
 * whose receivers leave the barrier late and find the data already there. */
static double time_once(MPI_Comm comm, int reduce, char *buf, char *out, int count)
{
    MPI_Barrier(comm);
    double t0 = now();
    if (reduce) MPI_Reduce(buf, out, count, MPI_INT, MPI_SUM, 0, comm);
    else MPI_Bcast(buf, count, MPI_BYTE, 0, comm);
    double t1 = now();
    if (!one_node) {
        double t = t1 - t0, slowest;
        MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
        return slowest;
    }
    double first_start, last_end;
    MPI_Allreduce(&t0, &first_start, 1, MPI_DOUBLE, MPI_MIN, comm);
    MPI_Allreduce(&t1, &last_end, 1, MPI_DOUBLE, MPI_MAX, comm);
    return last_end - first_start;
}

int main(int argc, char **argv)
{
    int provided, rank;
    long max_bytes = argc > 1 ? atol(argv[1]) : 4L << 20;
    int reps = argc > 2 ? atoi(argv[2]) : 30;
    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (max_bytes < 1 || reps < 1) {
        if (0 == rank) fprintf(stderr, "modeltuned-demo: usage: modeltuned-demo [max_bytes >= 1] [repetitions >= 1]\n");
        MPI_Finalize();
        return 2;
    }

    MPI_Comm node;
    int node_size, world_size;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &node_size);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    int local_all = node_size == world_size;
    MPI_Allreduce(&local_all, &one_node, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    MPI_Comm_free(&node);

    MPI_Comm with_default, with_modeltuned;
    int have_component = 0 == set_priority(-1);
    MPI_Comm_dup(MPI_COMM_WORLD, &with_default);
    if (have_component) set_priority(40);
    MPI_Comm_dup(MPI_COMM_WORLD, &with_modeltuned);
    if (!have_component && 0 == rank)
        fprintf(stderr, "modeltuned-demo: the modeltuned component is not loaded; both columns are Open MPI's default\n");

    char *buf = malloc(max_bytes), *out = malloc(max_bytes);
    double *t_default = malloc(sizeof(double) * reps), *t_model = malloc(sizeof(double) * reps);
    memset(buf, 1, max_bytes);
    if (0 == rank) printf("%-6s %10s %14s %14s\n", "op", "bytes", "default_us", "modeltuned_us");
    for (int reduce = 0; reduce < 2; ++reduce) {
        for (long bytes = reduce ? 4 : 1; bytes <= max_bytes; bytes *= 4) {
            int count = (int) (reduce ? bytes / 4 : bytes);
            for (int w = 0; w < 3; ++w) {  /* warm-up: trees, caches, decisions */
                time_once(with_default, reduce, buf, out, count);
                time_once(with_modeltuned, reduce, buf, out, count);
            }
            for (int r = 0; r < reps; ++r) {  /* alternate, starting side alternating too */
                if (r % 2) {
                    t_default[r] = time_once(with_default, reduce, buf, out, count);
                    t_model[r] = time_once(with_modeltuned, reduce, buf, out, count);
                } else {
                    t_model[r] = time_once(with_modeltuned, reduce, buf, out, count);
                    t_default[r] = time_once(with_default, reduce, buf, out, count);
                }
            }
            qsort(t_default, reps, sizeof(double), compare);
            qsort(t_model, reps, sizeof(double), compare);
            if (0 == rank)
                printf("%-6s %10ld %14.2f %14.2f\n", reduce ? "reduce" : "bcast", bytes,
                       1e6 * t_default[reps / 2], 1e6 * t_model[reps / 2]);
            fflush(stdout);
        }
    }
    free(buf); free(out); free(t_default); free(t_model);
    MPI_Comm_free(&with_default);
    MPI_Comm_free(&with_modeltuned);
    MPI_T_finalize();
    MPI_Finalize();
    return 0;
}
