/* Where Open MPI's algorithm of each call runs: how far below the caller's frame, and called from
 * which function. A call whose default modeltuned keeps must run exactly as under tuned: the same
 * ompi_coll_base_* function, called by tuned, at the same depth. Whatever Open MPI's frames leave
 * in the stack below the caller is then what they leave without modeltuned, and an application that
 * reads that memory uninitialised (ScaLAPACK 2.2.1's PDLACON reads PDGERFS's EST before it is set,
 * docs/reliability.md) reads what it reads under plain Open MPI.
 *
 * Run under mpirun on MPI_COMM_WORLD, with or without modeltuned: for bcast (MPI_BYTE), reduce and
 * allreduce (MPI_INT sums), barrier, allgather (one rank's block) and alltoall (one peer's block)
 * at 1 B to 64 KiB in powers of four, each size is called once (modeltuned decides there) and then
 * once more, measured: the interposed base function (interpose.c) notes its frame and return
 * address, and modeltuned's MPI_T counter says whether that call kept Open MPI's default.
 *
 * Output (world rank 0): one line per measured call, "stack_depth: op=bcast bytes=64 algorithm=3
 * depth=416 caller=mca_coll_tuned.so:ompi_coll_tuned_bcast_intra_do_this kept=1" (kept=-1: modeltuned
 * not loaded), then "stack_depth: done lines=N". */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"

#include "interpose.h"
#include "mpi_t.h"

enum { BCAST, REDUCE, ALLREDUCE, BARRIER, ALLGATHER, ALLTOALL, OPS };
static const char *const op_names[OPS] = {"bcast", "reduce", "allreduce", "barrier", "allgather", "alltoall"};

static char *send_buf, *recv_buf;
static int ranks;

static void call(int op, int bytes) {
  const int ints = bytes / 4;
  switch (op) {
    case BCAST:
      MPI_Bcast(send_buf, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
      break;
    case REDUCE:
      MPI_Reduce(send_buf, recv_buf, ints, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
      break;
    case ALLREDUCE:
      MPI_Allreduce(send_buf, recv_buf, ints, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      break;
    case BARRIER:
      MPI_Barrier(MPI_COMM_WORLD);
      break;
    case ALLGATHER:
      MPI_Allgather(send_buf, bytes, MPI_BYTE, recv_buf, bytes, MPI_BYTE, MPI_COMM_WORLD);
      break;
    case ALLTOALL:
      MPI_Alltoall(send_buf, bytes, MPI_BYTE, recv_buf, bytes, MPI_BYTE, MPI_COMM_WORLD);
      break;
  }
}

/* The measured call, from a frame of its own: the depth is counted from here. */
static __attribute__((noinline)) long measured_call(int op, int bytes) {
  const char *here = __builtin_frame_address(0);
  memset(&interposed, 0, sizeof interposed);
  interposed.on = true;
  call(op, bytes);
  interposed.on = false;
  return interposed.calls ? (long)(here - (const char *)interposed.frame) : -1;
}

/* "module:function" of a return address. */
static void name_caller(const void *address, char *out, size_t len) {
  Dl_info info;
  if (NULL == address || 0 == dladdr(address, &info) || NULL == info.dli_fname) {
    snprintf(out, len, "unknown");
    return;
  }
  const char *module = strrchr(info.dli_fname, '/');
  snprintf(out, len, "%s:%s", module ? module + 1 : info.dli_fname, info.dli_sname ? info.dli_sname : "?");
}

/* Calls of `op` that kept Open MPI's default so far (modeltuned's counter's element 0), or -1. */
static long long kept_calls(MPI_T_pvar_session session, MPI_T_pvar_handle *handle, int count) {
  unsigned long long values[64] = {0};
  if (count <= 0 || count > 64 || MPI_SUCCESS != MPI_T_pvar_read(session, *handle, values)) return -1;
  return (long long)values[0];
}

int main(int argc, char **argv) {
  int provided, rank;
  MPI_Init(&argc, &argv);
  MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const int largest = 65536;
  send_buf = calloc((size_t)largest * ranks, 1);
  recv_buf = calloc((size_t)largest * ranks, 1);
  MPI_T_pvar_session session;
  MPI_T_pvar_session_create(&session);
  int lines = 0;
  for (int op = 0; op < OPS; ++op) {
    char name[64];
    snprintf(name, sizeof name, "coll_modeltuned_%s_calls", op_names[op]);
    MPI_T_pvar_handle handle;
    const int count = mpi_t_open_counter(session, name, &handle);
    for (int bytes = op == REDUCE || op == ALLREDUCE ? 4 : 1; bytes <= largest; bytes *= 4) {
      call(op, bytes); /* decided here */
      const long long before = kept_calls(session, &handle, count);
      const long depth = measured_call(op, bytes);
      const long long after = kept_calls(session, &handle, count);
      char caller[256];
      name_caller(interposed.return_address, caller, sizeof caller);
      if (0 == rank)
        printf("stack_depth: op=%s bytes=%d algorithm=%d depth=%ld caller=%s kept=%d\n", op_names[op], bytes,
               interposed.calls ? interposed.algorithm : 0, depth, caller, before < 0 ? -1 : after > before);
      ++lines;
      if (op == BARRIER) break; /* one size */
    }
  }
  if (0 == rank) printf("stack_depth: done lines=%d\n", lines);
  MPI_T_pvar_session_free(&session);
  MPI_T_finalize();
  MPI_Finalize();
  return 0;
}
