/* Every ompi_coll_base_* bcast, reduce, allreduce, barrier, allgather and alltoall function, defined in the
 * test program itself and exported (-export-dynamic), so that tuned and modeltuned, which call
 * them through the PLT or dlsym(RTLD_DEFAULT), run these first. Each notes which algorithm ran
 * (tuned's number) with its segment size, fan-out and request limit; then, unless the program only
 * records (interposed.record_only), it runs libmpi's own. Calls made inside one (a composed
 * algorithm's own collectives) are not noted: `calls` counts what the collective itself ran. */
#include "ompi_config.h"

#include <dlfcn.h>
#include <stdio.h>

#include "interpose.h"
#include "ompi/mca/coll/base/coll_base_functions.h"

struct interposed interposed;

static void *real(const char *name) {
  void *fn = dlsym(RTLD_NEXT, name);
  if (NULL == fn) {
    fprintf(stderr, "interpose: %s not found in libmpi\n", name);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return fn;
}

/* Notes the call when recording and outermost, with the interposed function's frame and return
 * address; true when it must not run. */
static bool note_at(const void *frame, const void *return_address, int algorithm, uint32_t segsize, int fanout,
                    int max_requests) {
  if (!interposed.on || interposed.depth > 0) return false;
  interposed.frame = frame;
  interposed.return_address = return_address;
  interposed.calls++;
  interposed.algorithm = algorithm;
  interposed.segsize = segsize;
  interposed.fanout = fanout;
  interposed.max_requests = max_requests;
  return interposed.record_only;
}
#define note(...) note_at(__builtin_frame_address(0), __builtin_return_address(0), __VA_ARGS__)

#define B BCAST_BASE_ARG_NAMES, module
#define R REDUCE_BASE_ARG_NAMES, module
#define FORWARD(name, type, ...)                     \
  do {                                               \
    interposed.depth++;                              \
    const int rc = ((type)real(#name))(__VA_ARGS__); \
    interposed.depth--;                              \
    return rc;                                       \
  } while (0)

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
#if OMPI_MAJOR_VERSION >= 6
/* 6.0: 8 knomial, which takes its radix last */
typedef int (*reduce_seg_req_radix_t)(REDUCE_ARGS, uint32_t, int, int);
int ompi_coll_base_reduce_intra_knomial(REDUCE_ARGS, uint32_t segsize, int max_requests, int radix) {
  if (note(8, segsize, radix, max_requests)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_reduce_intra_knomial, reduce_seg_req_radix_t, R, segsize, max_requests, radix);
}
#endif
int ompi_coll_base_reduce_intra_redscat_gather(REDUCE_ARGS) {
  if (note(7, 0, 0, 0)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_reduce_intra_redscat_gather, reduce_t, R);
}

/* allreduce: 1 linear ... 6 Rabenseifner, 7 allgather_reduce from 6.0 (coll_tuned_allreduce_decision.c) */
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
#if OMPI_MAJOR_VERSION >= 6
int ompi_coll_base_allreduce_intra_allgather_reduce(ALLREDUCE_ARGS) {
  if (note(7, 0, 0, 0)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_allreduce_intra_allgather_reduce, allreduce_t, A);
}
#endif

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

/* allgather: 1 linear ... 6 two_proc, 7 sparbit from 5.0; 6.0 has a k-radix Bruck as 2 and direct
 * messaging as 8 (coll_tuned_allgather_decision.c) */
typedef int (*allgather_t)(ALLGATHER_ARGS);
#define ALLGATHER(number, name)                                                                           \
  int name(ALLGATHER_ARGS) {                                                                              \
    if (note(number, 0, 0, 0)) return MPI_SUCCESS;                                                        \
    FORWARD(name, allgather_t, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, module); \
  }
ALLGATHER(1, ompi_coll_base_allgather_intra_basic_linear)
#if OMPI_MAJOR_VERSION >= 6
typedef int (*allgather_radix_t)(ALLGATHER_ARGS, int);
int ompi_coll_base_allgather_intra_k_bruck(ALLGATHER_ARGS, int radix) {
  if (note(2, 0, radix, 0)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_allgather_intra_k_bruck, allgather_radix_t, sendbuf, sendcount, sendtype, recvbuf, recvcount,
          recvtype, comm, module, radix);
}
ALLGATHER(8, ompi_coll_base_allgather_direct_messaging)
#else
ALLGATHER(2, ompi_coll_base_allgather_intra_bruck)
#endif
ALLGATHER(3, ompi_coll_base_allgather_intra_recursivedoubling)
ALLGATHER(4, ompi_coll_base_allgather_intra_ring)
ALLGATHER(5, ompi_coll_base_allgather_intra_neighborexchange)
ALLGATHER(6, ompi_coll_base_allgather_intra_two_procs)
#if OMPI_MAJOR_VERSION >= 5
ALLGATHER(7, ompi_coll_base_allgather_intra_sparbit)
#endif

/* alltoall: 1 linear ... 5 two_proc (coll_tuned_alltoall_decision.c); linear_sync takes a request
 * limit */
typedef int (*alltoall_t)(ALLTOALL_ARGS);
typedef int (*alltoall_requests_t)(ALLTOALL_ARGS, int);
#define ALLTOALL(number, name)                                                                           \
  int name(ALLTOALL_ARGS) {                                                                              \
    if (note(number, 0, 0, 0)) return MPI_SUCCESS;                                                       \
    FORWARD(name, alltoall_t, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, module); \
  }
ALLTOALL(1, ompi_coll_base_alltoall_intra_basic_linear)
ALLTOALL(2, ompi_coll_base_alltoall_intra_pairwise)
ALLTOALL(3, ompi_coll_base_alltoall_intra_bruck)
ALLTOALL(5, ompi_coll_base_alltoall_intra_two_procs)
int ompi_coll_base_alltoall_intra_linear_sync(ALLTOALL_ARGS, int max_requests) {
  if (note(4, 0, 0, max_requests)) return MPI_SUCCESS;
  FORWARD(ompi_coll_base_alltoall_intra_linear_sync, alltoall_requests_t, sendbuf, sendcount, sendtype, recvbuf,
          recvcount, recvtype, comm, module, max_requests);
}
