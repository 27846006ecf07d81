# MPI tests: tests/mpi/collectives checks MPI_Bcast / MPI_Reduce results exactly under mpirun;
# tests/mpi/check_mpi runs it with and without modeltuned, on real and emulated topologies,
# per algorithm and with bad input, and reads modeltuned's trace lines. Every MPI test program
# links tests/mpi/watchdog.c: a rank stuck in one collective for 75 s names it, has every other
# rank name its own, and aborts the job.
check_PROGRAMS += tests/mpi/collectives tests/mpi/observe tests/mpi/check_mpi
TESTS += tests/mpi/check_mpi

# Built with mpicc's own flags (configure's OMPI_CPPFLAGS / OMPI_LIBS come from mpicc --showme).
tests_mpi_collectives_SOURCES = tests/mpi/collectives.c tests/mpi/test_buffer.h tests/mpi/watchdog.c
tests_mpi_collectives_CPPFLAGS = $(OMPI_CPPFLAGS)
tests_mpi_collectives_CFLAGS = $(AM_CFLAGS) -O2
tests_mpi_collectives_LDADD = $(OMPI_LIBS)

# fixed_rule: the model's copy of tuned's fixed rules against tuned's own choices. It defines the
# ompi_coll_base_* functions tuned calls, exported from the executable so they come first.
check_PROGRAMS += tests/mpi/fixed_rule
tests_mpi_fixed_rule_SOURCES = tests/mpi/fixed_rule.c tests/mpi/interpose.c tests/mpi/interpose.h tests/mpi/watchdog.c
nodist_EXTRA_tests_mpi_fixed_rule_SOURCES = tests/force_cxx_link.cxx
tests_mpi_fixed_rule_CPPFLAGS = $(OMPI_CPPFLAGS) -I$(top_srcdir)
tests_mpi_fixed_rule_LDFLAGS = -export-dynamic
tests_mpi_fixed_rule_LDADD = model/libmodeltuned_model.la $(FMT_LIBS) $(OMPI_LIBS) -ldl

# rule_runs: which ompi_coll_base_* function, with which segment size and fan-out, each call of
# a sweep runs (interposed as for fixed_rule), with modeltuned loaded or under a tuned rules file
# that modeltuned export-rules wrote.
check_PROGRAMS += tests/mpi/rule_runs
tests_mpi_rule_runs_SOURCES = tests/mpi/rule_runs.c tests/mpi/interpose.c tests/mpi/interpose.h tests/mpi/watchdog.c
tests_mpi_rule_runs_CPPFLAGS = $(OMPI_CPPFLAGS) -I$(top_srcdir)
tests_mpi_rule_runs_LDFLAGS = -export-dynamic
tests_mpi_rule_runs_LDADD = $(OMPI_LIBS) -ldl

# disagree: ranks that call different collectives, which the watchdog must end.
check_PROGRAMS += tests/mpi/disagree
tests_mpi_disagree_SOURCES = tests/mpi/disagree.c tests/mpi/watchdog.c
tests_mpi_disagree_CPPFLAGS = $(OMPI_CPPFLAGS)
tests_mpi_disagree_LDADD = $(OMPI_LIBS)

# stack_depth: where each call's ompi_coll_base_* function runs (interposed as for fixed_rule): how
# far below the caller's frame and called from which function, and whether modeltuned kept the
# default there.
check_PROGRAMS += tests/mpi/stack_depth
tests_mpi_stack_depth_SOURCES = tests/mpi/stack_depth.c tests/mpi/interpose.c tests/mpi/interpose.h tests/mpi/mpi_t.h tests/mpi/watchdog.c
tests_mpi_stack_depth_CPPFLAGS = $(OMPI_CPPFLAGS) -I$(top_srcdir)
tests_mpi_stack_depth_LDFLAGS = -export-dynamic
tests_mpi_stack_depth_LDADD = $(OMPI_LIBS) -ldl

# schedules: the model's allreduce and barrier schedules against the messages libmpi's base
# algorithms send (it wraps the PML's send and isend).
check_PROGRAMS += tests/mpi/schedules
tests_mpi_schedules_SOURCES = tests/mpi/schedules.c tests/mpi/watchdog.c
nodist_EXTRA_tests_mpi_schedules_SOURCES = tests/force_cxx_link.cxx
tests_mpi_schedules_CPPFLAGS = $(OMPI_CPPFLAGS) -I$(top_srcdir)
tests_mpi_schedules_LDADD = model/libmodeltuned_model.la $(FMT_LIBS) $(OMPI_LIBS)

# heap_state: where a large malloc comes from after MPI_Init (mmap or heap).
check_PROGRAMS += tests/mpi/heap_state
tests_mpi_heap_state_SOURCES = tests/mpi/heap_state.c tests/mpi/watchdog.c
tests_mpi_heap_state_CPPFLAGS = $(OMPI_CPPFLAGS)
tests_mpi_heap_state_LDADD = $(OMPI_LIBS)

# observe: a known sequence of calls, then modeltuned's MPI_T counters.
tests_mpi_observe_SOURCES = tests/mpi/observe.c tests/mpi/mpi_t.h tests/mpi/watchdog.c
tests_mpi_observe_CPPFLAGS = $(OMPI_CPPFLAGS)
tests_mpi_observe_LDADD = $(OMPI_LIBS)

# The driver needs no MPI itself; it links the model library only for its algorithm table, so
# every algorithm the model can choose gets a per-algorithm run without editing this test.
tests_mpi_check_mpi_SOURCES = tests/mpi/check_mpi.cpp
tests_mpi_check_mpi_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir) -DMODELTUNED_TEST_SYSCONFDIR='"$(sysconfdir)"'
tests_mpi_check_mpi_CXXFLAGS = $(AM_CXXFLAGS) $(CHECK_CFLAGS) $(FMT_CFLAGS)
tests_mpi_check_mpi_LDADD = tests/support/libmodeltuned_test.la model/libmodeltuned_model.la $(CHECK_LIBS)
EXTRA_tests_mpi_check_mpi_DEPENDENCIES = tests/mpi/collectives tests/mpi/observe tests/mpi/fixed_rule tests/mpi/heap_state \
	tests/mpi/rule_runs tests/mpi/stack_depth tests/mpi/disagree \
	tests/mpi/schedules tools/modeltuned \
	mca-components/mca_coll_modeltuned.so

# The guard: picks slowed on purpose are taken back on every rank at the same call (tests/mpi/guard
# makes the calls and checks their results).
check_PROGRAMS += tests/mpi/guard tests/mpi/check_guard
TESTS += tests/mpi/check_guard
tests_mpi_guard_SOURCES = tests/mpi/guard.c tests/mpi/mpi_t.h tests/mpi/watchdog.c
tests_mpi_guard_CPPFLAGS = $(OMPI_CPPFLAGS)
tests_mpi_guard_CFLAGS = $(AM_CFLAGS) -O2
tests_mpi_guard_LDADD = $(OMPI_LIBS)
tests_mpi_check_guard_SOURCES = tests/mpi/check_guard.cpp
tests_mpi_check_guard_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
tests_mpi_check_guard_CXXFLAGS = $(AM_CXXFLAGS) $(CHECK_CFLAGS)
tests_mpi_check_guard_LDADD = tests/support/libmodeltuned_test.la model/libmodeltuned_model.la $(CHECK_LIBS)
EXTRA_tests_mpi_check_guard_DEPENDENCIES = tests/mpi/guard mca-components/mca_coll_modeltuned.so

# Other components' algorithms run untraced, as applications run them (the entry point's direct
# call): exact results, and the MPI_T counters of the same calls traced.
check_PROGRAMS += tests/mpi/check_untraced
TESTS += tests/mpi/check_untraced
tests_mpi_check_untraced_SOURCES = tests/mpi/check_untraced.cpp
tests_mpi_check_untraced_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
tests_mpi_check_untraced_CXXFLAGS = $(AM_CXXFLAGS) $(CHECK_CFLAGS)
tests_mpi_check_untraced_LDADD = tests/support/libmodeltuned_test.la model/libmodeltuned_model.la $(FMT_LIBS) $(CHECK_LIBS)
EXTRA_tests_mpi_check_untraced_DEPENDENCIES = tests/mpi/collectives tests/mpi/observe mca-components/mca_coll_modeltuned.so

# Ranks passing different datatypes of one type signature, every algorithm, np 2-16.
check_PROGRAMS += tests/mpi/signatures tests/mpi/check_signatures
TESTS += tests/mpi/check_signatures
tests_mpi_signatures_SOURCES = tests/mpi/signatures.c tests/mpi/mpi_t.h tests/mpi/test_buffer.h tests/mpi/watchdog.c
tests_mpi_signatures_CPPFLAGS = $(OMPI_CPPFLAGS)
tests_mpi_signatures_CFLAGS = $(AM_CFLAGS) -O2
tests_mpi_signatures_LDADD = $(OMPI_LIBS)
tests_mpi_check_signatures_SOURCES = tests/mpi/check_signatures.cpp
tests_mpi_check_signatures_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
tests_mpi_check_signatures_CXXFLAGS = $(AM_CXXFLAGS) $(CHECK_CFLAGS)
tests_mpi_check_signatures_LDADD = tests/support/libmodeltuned_test.la model/libmodeltuned_model.la $(FMT_LIBS) $(CHECK_LIBS)
EXTRA_tests_mpi_check_signatures_DEPENDENCIES = tests/mpi/signatures mca-components/mca_coll_modeltuned.so

# The differential test: random but valid sequences of collectives (tests/mpi/differential) on
# communicators made every way, with user operations, derived and per-rank datatypes, in place and
# point-to-point traffic, compared with the same seed under plain Open MPI.
check_PROGRAMS += tests/mpi/differential tests/mpi/check_differential
TESTS += tests/mpi/check_differential
tests_mpi_differential_SOURCES = tests/mpi/differential.c tests/mpi/watchdog.c
tests_mpi_differential_CPPFLAGS = $(OMPI_CPPFLAGS)
tests_mpi_differential_CFLAGS = $(AM_CFLAGS) -O2
tests_mpi_differential_LDADD = $(OMPI_LIBS)
tests_mpi_check_differential_SOURCES = tests/mpi/check_differential.cpp
tests_mpi_check_differential_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
tests_mpi_check_differential_CXXFLAGS = $(AM_CXXFLAGS) $(CHECK_CFLAGS)
tests_mpi_check_differential_LDADD = tests/support/libmodeltuned_test.la model/libmodeltuned_model.la $(CHECK_LIBS)
EXTRA_tests_mpi_check_differential_DEPENDENCIES = tests/mpi/differential mca-components/mca_coll_modeltuned.so

# Several emulated nodes on this machine (tools/modeltuned-emulate-nodes): placements over 2 and 3
# nodes, every algorithm across nodes, tables that differ between nodes, calibration across nodes.
check_PROGRAMS += tests/mpi/check_multinode
TESTS += tests/mpi/check_multinode
tests_mpi_check_multinode_SOURCES = tests/mpi/check_multinode.cpp
tests_mpi_check_multinode_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
tests_mpi_check_multinode_CXXFLAGS = $(AM_CXXFLAGS) $(CHECK_CFLAGS)
tests_mpi_check_multinode_LDADD = tests/support/libmodeltuned_test.la model/libmodeltuned_model.la $(CHECK_LIBS)
TESTS += tests/emulate_nodes_cli.sh
EXTRA_DIST += tests/emulate_nodes_cli.sh
EXTRA_tests_mpi_check_multinode_DEPENDENCIES = tests/mpi/collectives tools/modeltuned calib/modeltuned-calibrate \
	mca-components/mca_coll_modeltuned.so
