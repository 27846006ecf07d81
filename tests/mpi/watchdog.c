/* The MPI test programs' watchdog. Linked into each of them, it wraps MPI_Init and the collectives
 * (through the profiling interface) and notes which collective a rank is in. A rank that stays in
 * one call for MODELTUNED_TEST_WATCHDOG_S seconds (default 75, times CK_TIMEOUT_MULTIPLIER where
 * the suite runs instrumented) says which, has every other rank of its job say which it is in
 * (SIGUSR1; the ranks are the processes with its PMIX_NAMESPACE), then aborts the job. Ranks that
 * disagree on the collective they run then fail naming each rank's collective, instead of spinning
 * until the suite's timeout. The default leaves room for a rank held in MPI_Init: under Open MPI
 * 5.0, modeltuned waits up to 30 s there for what ranks without it never publish, while those
 * ranks wait in their first collective (check_multinode, modeltuned_missing_on_one_node), and a
 * rank still in MPI_Init has no handler for the others' SIGUSR1 yet:
 *
 *   watchdog: world rank 0 (pid 4242) in MPI_Allreduce (call 3, count 1, root -1, rank 0 of 2) for 30 s
 *   watchdog: world rank 1 (pid 4243) in MPI_Barrier (call 3, count 0, root -1, rank 1 of 2) for 30 s
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mpi.h"

/* What the rank is in: written by the rank's thread, read by the watchdog and the signal handler. */
static struct {
  const char *volatile name; /* NULL: not in a collective */
  volatile int count, root, comm_rank, comm_size;
  volatile unsigned long call;
  atomic_ulong progress; /* calls entered and left */
} now;
static int world_rank = -1;

/* Async-signal-safe: the line of this rank, from integers only. */
static size_t put_number(char *out, long value) {
  char digits[24];
  size_t n = 0, k = 0;
  const int negative = value < 0;
  unsigned long v = negative ? (unsigned long)-value : (unsigned long)value;
  do digits[n++] = (char)('0' + v % 10);
  while ((v /= 10) && n < sizeof digits);
  if (negative) out[k++] = '-';
  while (n) out[k++] = digits[--n];
  return k;
}

static size_t put_text(char *out, const char *text) {
  size_t k = 0;
  while (text[k]) out[k] = text[k], ++k;
  return k;
}

static void say_where(long seconds) {
  char line[512];
  size_t k = 0;
  const char *name = now.name;
  k += put_text(line + k, "watchdog: world rank ");
  k += put_number(line + k, world_rank);
  k += put_text(line + k, " (pid ");
  k += put_number(line + k, (long)getpid());
  if (NULL == name) {
    k += put_text(line + k, ") in no collective (call ");
    k += put_number(line + k, (long)now.call);
    k += put_text(line + k, " was its last)\n");
  } else {
    k += put_text(line + k, ") in ");
    k += put_text(line + k, name);
    k += put_text(line + k, " (call ");
    k += put_number(line + k, (long)now.call);
    k += put_text(line + k, ", count ");
    k += put_number(line + k, now.count);
    k += put_text(line + k, ", root ");
    k += put_number(line + k, now.root);
    k += put_text(line + k, ", rank ");
    k += put_number(line + k, now.comm_rank);
    k += put_text(line + k, " of ");
    k += put_number(line + k, now.comm_size);
    k += put_text(line + k, ")");
    if (seconds >= 0) {
      k += put_text(line + k, " for ");
      k += put_number(line + k, seconds);
      k += put_text(line + k, " s");
    }
    k += put_text(line + k, "\n");
  }
  ssize_t ignored = write(STDOUT_FILENO, line, k);
  (void)ignored;
}

static void on_usr1(int sig) {
  (void)sig;
  say_where(-1);
}

/* The other processes of this job on this machine: those with the same PMIX_NAMESPACE. */
static void signal_the_others(void) {
  const char *job = getenv("PMIX_NAMESPACE");
  DIR *proc = NULL == job ? NULL : opendir("/proc");
  if (NULL == proc) return;
  char wanted[512];
  snprintf(wanted, sizeof wanted, "PMIX_NAMESPACE=%s", job);
  struct dirent *e;
  while ((e = readdir(proc))) {
    const pid_t pid = (pid_t)atoi(e->d_name);
    if (pid <= 0 || pid == getpid()) continue;
    char path[64], env[65536];
    snprintf(path, sizeof path, "/proc/%d/environ", (int)pid);
    FILE *f = fopen(path, "r");
    if (NULL == f) continue;
    const size_t n = fread(env, 1, sizeof env - 1, f);
    fclose(f);
    env[n] = '\0';
    for (size_t i = 0; i < n; i += strlen(env + i) + 1)
      if (0 == strcmp(env + i, wanted)) {
        kill(pid, SIGUSR1);
        break;
      }
  }
  closedir(proc);
}

static long limit_seconds(void) {
  const char *s = getenv("MODELTUNED_TEST_WATCHDOG_S"), *m = getenv("CK_TIMEOUT_MULTIPLIER");
  const long limit = s && atol(s) > 0 ? atol(s) : 75;
  return limit * (m && atol(m) > 1 ? atol(m) : 1);
}

static void *watch(void *arg) {
  (void)arg;
  const long limit = limit_seconds();
  unsigned long seen = atomic_load(&now.progress);
  long still = 0;
  for (;;) {
    sleep(1);
    const unsigned long progress = atomic_load(&now.progress);
    still = progress == seen && NULL != now.name ? still + 1 : 0;
    seen = progress;
    if (still < limit) continue;
    say_where(still);
    signal_the_others();
    sleep(2); /* their lines first */
    fflush(stdout);
    abort();
  }
  return NULL;
}

static void start_watchdog(void) {
  PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_usr1;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGUSR1, &sa, NULL);
  pthread_t thread;
  if (0 == pthread_create(&thread, NULL, watch, NULL)) pthread_detach(thread);
}

int MPI_Init(int *argc, char ***argv) {
  const int rc = PMPI_Init(argc, argv);
  if (MPI_SUCCESS == rc) start_watchdog();
  return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (MPI_SUCCESS == rc) start_watchdog();
  return rc;
}

static void enter(const char *name, int count, int root, MPI_Comm comm) {
  now.count = count;
  now.root = root;
  PMPI_Comm_rank(comm, (int *)&now.comm_rank);
  PMPI_Comm_size(comm, (int *)&now.comm_size);
  now.call = now.call + 1;
  now.name = name;
  atomic_fetch_add(&now.progress, 1);
}

static int leave(int rc) {
  now.name = NULL;
  atomic_fetch_add(&now.progress, 1);
  return rc;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  enter("MPI_Bcast", count, root, comm);
  return leave(PMPI_Bcast(buf, count, type, root, comm));
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm) {
  enter("MPI_Reduce", count, root, comm);
  return leave(PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm));
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  enter("MPI_Allreduce", count, -1, comm);
  return leave(PMPI_Allreduce(sbuf, rbuf, count, type, op, comm));
}

int MPI_Barrier(MPI_Comm comm) {
  enter("MPI_Barrier", 0, -1, comm);
  return leave(PMPI_Barrier(comm));
}

int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                  MPI_Comm comm) {
  enter("MPI_Allgather", rcount, -1, comm);
  return leave(PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm));
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                 MPI_Comm comm) {
  enter("MPI_Alltoall", rcount, -1, comm);
  return leave(PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm));
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
               MPI_Comm comm) {
  enter("MPI_Gather", scount, root, comm);
  return leave(PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm));
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status *status) {
  enter("MPI_Recv", count, source, comm);
  return leave(PMPI_Recv(buf, count, type, source, tag, comm, status));
}

int MPI_Wait(MPI_Request *request, MPI_Status *status) {
  enter("MPI_Wait", 0, -1, MPI_COMM_WORLD);
  return leave(PMPI_Wait(request, status));
}

int MPI_Waitall(int n, MPI_Request *requests, MPI_Status *statuses) {
  enter("MPI_Waitall", n, -1, MPI_COMM_WORLD);
  return leave(PMPI_Waitall(n, requests, statuses));
}
