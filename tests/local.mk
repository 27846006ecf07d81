# Check tests. Each family has its own fragment so they can grow independently.

# Script tests find configure's mpirun here. Check's default timeout per test (4 s) catches hangs,
# and a loaded machine must not look like one: every test case without a timeout of its own gets
# 300 s. The tests' jobs leave out Open MPI's PSM and PSM2 matching transports (as Debian's
# openmpi-mca-params.conf leaves out OFI's): each rank of every job would otherwise probe for
# Omni-Path hardware and give up, nearly half of a 2-rank job's start; ob1 runs either way.
AM_TESTS_ENVIRONMENT = MPIRUN='$(MPIRUN)'; export MPIRUN; MAKE='$(MAKE)'; export MAKE; \
	CK_DEFAULT_TIMEOUT=$${CK_DEFAULT_TIMEOUT:-300}; export CK_DEFAULT_TIMEOUT; \
	OMPI_MCA_mtl=$${OMPI_MCA_mtl:-^ofi,psm,psm2}; export OMPI_MCA_mtl;

# Shared by the tests that run MPI programs: hermetic mpirun with a timeout (tests/support/).
check_LTLIBRARIES = tests/support/libmodeltuned_test.la
tests_support_libmodeltuned_test_la_SOURCES = tests/support/mpi_launch.hpp tests/support/mpi_launch.cpp \
	tests/support/mpi_checks.hpp tests/support/mpi_checks.cpp tests/support/run_suite.h \
	tests/support/one_channel.hpp
tests_support_libmodeltuned_test_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir) \
	-DMODELTUNED_TEST_BUILDDIR='"$(abs_top_builddir)"' \
	-DMODELTUNED_TEST_SRCDIR='"$(abs_top_srcdir)"' \
	-DMODELTUNED_TEST_MPIRUN='"$(MPIRUN)"' \
	-DMODELTUNED_TEST_LSTOPO='"$(LSTOPO)"' \
	-DMODELTUNED_TEST_OMPI_MCA_DIR='"$(OMPI_MCA_DIR)"' \
	-DMODELTUNED_TEST_OMPI_SERIES='"$(OMPI_SERIES)"'
tests_support_libmodeltuned_test_la_CXXFLAGS = $(AM_CXXFLAGS) $(CHECK_CFLAGS)

# The table the tests run with (tests/support/mpi_launch.cpp, table_path): made before any test
# runs, since the MPI tests and the script tests read it alike.
check_PROGRAMS += tests/support/write_test_table
tests_support_write_test_table_SOURCES = tests/support/write_test_table.cpp
check_DATA = tests/orfeo-epyc-unchecked.json
tests/orfeo-epyc-unchecked.json: $(top_srcdir)/calib/tables/orfeo-epyc.json tests/support/write_test_table$(EXEEXT)
	$(AM_V_GEN)tests/support/write_test_table $(top_srcdir)/calib/tables/orfeo-epyc.json $@.partial && mv $@.partial $@

# Tests run in the order they are listed, as many at once as make's -j: the longest (MPI jobs,
# the external suite, the calibrator's) come first, so that the short ones fill the other slots
# rather than wait behind them at the end.
include tests/mpi.mk
include tests/external.mk
include tests/calibration.mk
include tests/validation.mk
include tests/bench.mk
include tests/ab.mk
include tests/model.mk
include tests/trees.mk
include tests/fuzz.mk

# make install into a staging directory and make uninstall: what goes where, nothing left behind.
TESTS += tests/install_uninstall.sh
EXTRA_DIST += tests/install_uninstall.sh

# scripts/check's report: result lines, failing tests' logs, a summary counting skips.
TESTS += tests/scripts_check_report.sh
EXTRA_DIST += tests/scripts_check_report.sh

# scripts/deps --dry-run: the deb-src entry is added only where apt's sources lack one.
TESTS += tests/scripts_deps.sh
EXTRA_DIST += tests/scripts_deps.sh

# Which calibration table a job reads, as ompi_info names it (coll_modeltuned_table).
TESTS += tests/table_search.sh
EXTRA_DIST += tests/table_search.sh

# scripts/demo calibrates into its own directory, never into the user's default table.
TESTS += tests/scripts_demo.sh
EXTRA_DIST += tests/scripts_demo.sh

# docs/design.md names every tracked file, and only files that exist.
TESTS += tests/design_files.sh
EXTRA_DIST += tests/design_files.sh

# make churn-count: the churn loop's instructions per iteration under callgrind, both settings.
TESTS += tests/churn_count.sh
EXTRA_DIST += tests/churn_count.sh
