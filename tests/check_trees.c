/* Our trees (model/schedule/ompi_trees.cpp) against the ones libmpi itself builds.
 *
 * libmpi's ompi_coll_base_topo_build_* read the communicator only through the inline accessors
 * ompi_comm_rank (comm->c_my_rank) and ompi_comm_size (comm->c_local_group->grp_proc_count);
 * their only calls are malloc/free/fflush (OPAL_OUTPUT is compiled out: OPAL_ENABLE_DEBUG 0).
 * So a fake communicator with just those two fields set stands in for a real one, no MPI_Init.
 * Everything else in the fake is filled with 0xA5 garbage so a read of any other field would
 * give nonsense trees and fail the comparison. */
#include "ompi_config.h"

#include "tests/support/run_suite.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "ompi/communicator/communicator.h"
#include "ompi/group/group.h"
#include "ompi/mca/coll/base/coll_base_topo.h"
#include "tests/support/trees_shim.h"

#define MAX_P 300

/* ck_assert_msg reports every passing check to the parent process (a syscall each); the sweeps
 * make millions of checks, so only a failure talks to Check. */
#define EXPECT(cond, ...)                   \
  do {                                      \
    if (!(cond)) ck_abort_msg(__VA_ARGS__); \
  } while (0)

static ompi_communicator_t fake_comm;
static ompi_group_t fake_group;

static void fake_init(void) {
  mt_tree_set_ompi_major(OMPI_MAJOR_VERSION); /* ours follow the libmpi linked here */
  memset(&fake_comm, 0xA5, sizeof fake_comm);
  memset(&fake_group, 0xA5, sizeof fake_group);
  fake_comm.c_local_group = &fake_group;
}

static ompi_communicator_t *fake(int size, int rank) {
  fake_group.grp_proc_count = size;
  fake_comm.c_my_rank = rank;
  return &fake_comm;
}

static const char *kind_name(enum mt_tree_kind kind) {
  switch (kind) {
    case MT_KARY:
      return "k-ary tree";
    case MT_IN_ORDER_BINTREE:
      return "in-order bintree";
    case MT_BMTREE:
      return "bmtree";
    case MT_IN_ORDER_BMTREE:
      return "in-order bmtree";
    case MT_KMTREE:
      return "kmtree";
    case MT_CHAIN:
      return "chain";
  }
  return "?";
}

static ompi_coll_tree_t *libmpi_tree(enum mt_tree_kind kind, int arg, int size, int root, int rank) {
  ompi_communicator_t *comm = fake(size, rank);
  switch (kind) {
    case MT_KARY:
      return ompi_coll_base_topo_build_tree(arg, comm, root);
    case MT_IN_ORDER_BINTREE:
      return ompi_coll_base_topo_build_in_order_bintree(comm);
    case MT_BMTREE:
      return ompi_coll_base_topo_build_bmtree(comm, root);
    case MT_IN_ORDER_BMTREE:
      return ompi_coll_base_topo_build_in_order_bmtree(comm, root);
    case MT_KMTREE:
      return ompi_coll_base_topo_build_kmtree(comm, root, arg);
    case MT_CHAIN:
      return ompi_coll_base_topo_build_chain(arg, comm, root);
  }
  return NULL;
}

/* What libmpi leaves in the root's tree_prev; our trees normalise it to -1. */
static int libmpi_root_prev(enum mt_tree_kind kind, int size, int root) {
  switch (kind) {
    case MT_KARY:
      return size < 2 ? -1 : root;
    case MT_BMTREE:
    case MT_IN_ORDER_BMTREE:
      return root;
    case MT_KMTREE:
      return MPI_PROC_NULL;
    case MT_IN_ORDER_BINTREE:
    case MT_CHAIN:
      return -1;
  }
  return -3;
}

/* Compares our tree with libmpi's view from each rank in ranks[] (all ranks when ranks is NULL);
 * depths are checked against libmpi's tree_prev chains when all ranks are compared. */
static void compare(enum mt_tree_kind kind, int arg, int size, int root, const int *ranks, int nranks) {
  char err[512] = "";
  mt_tree *ours = mt_tree_build(kind, arg, size, root, err, sizeof err);
  EXPECT(ours != NULL, "%s arg %d P %d root %d: our builder failed: %s", kind_name(kind), arg, size, root, err);
  const int tree_root = kind == MT_IN_ORDER_BINTREE ? size - 1 : root;
  EXPECT(mt_tree_root(ours) == tree_root, "%s arg %d P %d root %d: our root %d, libmpi %d", kind_name(kind), arg, size,
         root, mt_tree_root(ours), tree_root);
  const int all = ranks == NULL;
  int *lib_parent = all ? malloc(sizeof(int) * size) : NULL;
  if (all) nranks = size;
  for (int k = 0; k < nranks; ++k) {
    const int rank = all ? k : ranks[k];
    ompi_coll_tree_t *lib = libmpi_tree(kind, arg, size, root, rank);
    EXPECT(lib != NULL, "%s arg %d P %d root %d rank %d: libmpi returned NULL", kind_name(kind), arg, size, root, rank);
    EXPECT(lib->tree_root == tree_root, "%s arg %d P %d root %d rank %d: libmpi tree_root %d", kind_name(kind), arg,
           size, root, rank, lib->tree_root);
    const int our_parent = mt_tree_parent(ours, rank);
    if (rank == tree_root) {
      EXPECT(lib->tree_prev == libmpi_root_prev(kind, size, root) && our_parent == -1,
             "%s arg %d P %d root %d: root's parent ours %d (want -1), libmpi %d (want %d)", kind_name(kind), arg, size,
             root, our_parent, lib->tree_prev, libmpi_root_prev(kind, size, root));
    } else {
      EXPECT(our_parent == lib->tree_prev, "%s arg %d P %d root %d rank %d: parent ours %d, libmpi %d", kind_name(kind),
             arg, size, root, rank, our_parent, lib->tree_prev);
    }
    if (all) lib_parent[rank] = rank == tree_root ? -1 : lib->tree_prev;
    EXPECT(mt_tree_nchildren(ours, rank) == lib->tree_nextsize,
           "%s arg %d P %d root %d rank %d: %d children ours, %d libmpi", kind_name(kind), arg, size, root, rank,
           mt_tree_nchildren(ours, rank), lib->tree_nextsize);
    for (int i = 0; i < lib->tree_nextsize; ++i)
      EXPECT(mt_tree_child(ours, rank, i) == lib->tree_next[i],
             "%s arg %d P %d root %d rank %d: child[%d] ours %d, libmpi %d", kind_name(kind), arg, size, root, rank, i,
             mt_tree_child(ours, rank, i), lib->tree_next[i]);
    free(lib);
  }
  EXPECT(mt_tree_depth_error(ours) == NULL, "%s arg %d P %d root %d: depths() failed: %s", kind_name(kind), arg, size,
         root, mt_tree_depth_error(ours));
  if (all) {
    for (int rank = 0; rank < size; ++rank) {
      int depth = 0;
      for (int r = rank; lib_parent[r] != -1 && depth <= size; r = lib_parent[r]) ++depth;
      EXPECT(mt_tree_depth(ours, rank) == depth, "%s arg %d P %d root %d rank %d: depth ours %d, libmpi %d",
             kind_name(kind), arg, size, root, rank, mt_tree_depth(ours, rank), depth);
    }
    free(lib_parent);
  }
  mt_tree_free(ours);
}

/* Every P in 1..MAX_P, roots 0, 1, P/2, P-1 (the distinct valid ones). */
static void sweep(enum mt_tree_kind kind, const int *args, int nargs) {
  fake_init();
  for (int size = 1; size <= MAX_P; ++size) {
    const int roots[] = {0, 1, size / 2, size - 1};
    for (int j = 0; j < 4; ++j) {
      int seen = 0;
      for (int i = 0; i < j; ++i) seen |= roots[i] == roots[j];
      if (seen || roots[j] >= size) continue;
      for (int a = 0; a < nargs; ++a) compare(kind, args[a], size, roots[j], NULL, 0);
    }
  }
}

START_TEST(kary_matches_libmpi) {
#if OMPI_MAJOR_VERSION >= 5
  /* 5.0 builds fan-out 1 (a pipeline); 4.1 divides by zero (kary_fanout1_crashes_libmpi) */
  const int fanouts[] = {1, 2, 3, 4, 5, 6, 7, 8, 16, 32};
#else
  const int fanouts[] = {2, 3, 4, 5, 6, 7, 8, 16, 32};
#endif
  sweep(MT_KARY, fanouts, sizeof fanouts / sizeof *fanouts);
}
END_TEST

START_TEST(in_order_bintree_matches_libmpi) {
  const int unused[] = {0};
  sweep(MT_IN_ORDER_BINTREE, unused, 1);
}
END_TEST

START_TEST(bmtree_matches_libmpi) {
  const int unused[] = {0};
  sweep(MT_BMTREE, unused, 1);
}
END_TEST

START_TEST(in_order_bmtree_matches_libmpi) {
  const int unused[] = {0};
  sweep(MT_IN_ORDER_BMTREE, unused, 1);
}
END_TEST

START_TEST(kmtree_matches_libmpi) {
  const int radices[] = {2, 3, 4, 5, 6, 7, 8};
  sweep(MT_KMTREE, radices, sizeof radices / sizeof *radices);
}
END_TEST

/* Fan-outs 0 and 33+ are clamped by libmpi to 1 and 32, so they are compared too. */
START_TEST(chain_matches_libmpi) {
  const int fanouts[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 32, 33, 40};
  sweep(MT_CHAIN, fanouts, sizeof fanouts / sizeof *fanouts);
}
END_TEST

/* libmpi rejects k-ary fan-outs outside 1..32 with NULL; so must we. We also reject fanout 1
 * (on 2+ ranks), which makes libmpi divide by zero: see kary_fanout1_crashes_libmpi. */
START_TEST(invalid_inputs_are_rejected) {
  char err[512];
  fake_init();
  const int bad_fanouts[] = {0, -1, 33};
  for (int i = 0; i < 3; ++i) {
    ompi_coll_tree_t *lib = ompi_coll_base_topo_build_tree(bad_fanouts[i], fake(8, 0), 0);
    EXPECT(lib == NULL, "libmpi accepted k-ary fanout %d", bad_fanouts[i]);
    EXPECT(mt_tree_build(MT_KARY, bad_fanouts[i], 8, 0, err, sizeof err) == NULL, "we accepted k-ary fanout %d",
           bad_fanouts[i]);
  }
#if OMPI_MAJOR_VERSION < 5
  ck_assert(mt_tree_build(MT_KARY, 1, 2, 0, err, sizeof err) == NULL);
  EXPECT(strstr(err, "build_chain") != NULL, "message should point to build_chain: %s", err);
#endif
  compare(MT_KARY, 1, 1, 0, NULL, 0); /* one rank: libmpi returns before the division */
  ck_assert(mt_tree_build(MT_KMTREE, 1, 8, 0, err, sizeof err) == NULL);
  ck_assert(mt_tree_build(MT_BMTREE, 0, 0, 0, err, sizeof err) == NULL);
  ck_assert(mt_tree_build(MT_BMTREE, 0, 8, 8, err, sizeof err) == NULL);
  ck_assert(mt_tree_build(MT_CHAIN, 2, 8, -1, err, sizeof err) == NULL);
}
END_TEST

#if OMPI_MAJOR_VERSION < 5
/* Documents why fanout 1 is rejected under 4.1: libmpi itself dies (needs Check's fork mode). */
START_TEST(kary_fanout1_crashes_libmpi) {
  fake_init();
  for (int rank = 0; rank < 3; ++rank) free(ompi_coll_base_topo_build_tree(1, fake(3, rank), 0));
}
END_TEST
#endif

/* Large communicators: catches anything quadratic (the tcase timeout) and compares a sample of
 * ranks, since the per-rank libmpi calls would be too many. */
START_TEST(large_communicator) {
  enum { P = (1 << 20) + 3, NSAMPLE = 1100 };
  static int sample[NSAMPLE];
  for (int i = 0; i < NSAMPLE; ++i)
    sample[i] = i < 50 ? i : i < 100 ? P - 1 - (i - 50) : (int)((long)(i - 100) * 1048 % P);
  fake_init();
  const int root = P / 3;
  struct {
    enum mt_tree_kind kind;
    int arg;
  } cases[] = {{MT_KARY, 2},   {MT_KARY, 32},           {MT_IN_ORDER_BINTREE, 0},
               {MT_BMTREE, 0}, {MT_IN_ORDER_BMTREE, 0}, {MT_KMTREE, 2},
               {MT_KMTREE, 8}, {MT_CHAIN, 1},           {MT_CHAIN, 7}};
  /* compare() also requires depths() to succeed, i.e. a spanning tree over all P ranks. */
  for (size_t c = 0; c < sizeof cases / sizeof *cases; ++c)
    compare(cases[c].kind, cases[c].arg, P, root, sample, NSAMPLE);
}
END_TEST

static Suite *trees_suite(void) {
  Suite *s = suite_create("trees");
  TCase *exact = tcase_create("matches libmpi");
  tcase_set_timeout(exact, 300);
  tcase_add_test(exact, kary_matches_libmpi);
  tcase_add_test(exact, in_order_bintree_matches_libmpi);
  tcase_add_test(exact, bmtree_matches_libmpi);
  tcase_add_test(exact, in_order_bmtree_matches_libmpi);
  tcase_add_test(exact, kmtree_matches_libmpi);
  tcase_add_test(exact, chain_matches_libmpi);
  tcase_add_test(exact, invalid_inputs_are_rejected);
  suite_add_tcase(s, exact);
  TCase *large = tcase_create("large");
  tcase_set_timeout(large, 300);
  tcase_add_test(large, large_communicator);
  suite_add_tcase(s, large);
  return s;
}

int main(void) {
  Suite *suite = trees_suite();
  SRunner *runner = srunner_create(suite);
#if OMPI_MAJOR_VERSION < 5
  if (srunner_fork_status(runner) != CK_NOFORK) { /* a crash test needs its own process */
    TCase *crash = tcase_create("libmpi quirks");
    tcase_add_test_raise_signal(crash, kary_fanout1_crashes_libmpi, SIGFPE);
    suite_add_tcase(suite, crash);
  }
#endif
  return modeltuned_run(runner, CK_NORMAL);
}
