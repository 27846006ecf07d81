# MPI tests: tests/mpi/collectives checks MPI_Bcast / MPI_Reduce results exactly under mpirun;
# tests/mpi/check_mpi runs it with and without modeltuned, on real and emulated topologies,
# per algorithm and with bad input, and reads modeltuned's trace lines.
check_PROGRAMS += tests/mpi/collectives tests/mpi/check_mpi
TESTS += tests/mpi/check_mpi

# Built with mpicc's own flags (configure's OMPI_CPPFLAGS / OMPI_LIBS come from mpicc --showme).
tests_mpi_collectives_SOURCES = tests/mpi/collectives.c
tests_mpi_collectives_CPPFLAGS = $(OMPI_CPPFLAGS)
tests_mpi_collectives_CFLAGS = $(AM_CFLAGS) -O2
tests_mpi_collectives_LDADD = $(OMPI_LIBS)

# The driver needs no MPI itself; it links the model library only for its algorithm table, so
# every algorithm the model can choose gets a per-algorithm run without editing this test.
tests_mpi_check_mpi_SOURCES = tests/mpi/check_mpi.cpp
tests_mpi_check_mpi_CPPFLAGS = $(AM_CPPFLAGS) \
	-DMODELTUNED_TEST_BUILDDIR='"$(abs_top_builddir)"' \
	-DMODELTUNED_TEST_SRCDIR='"$(abs_top_srcdir)"' \
	-DMODELTUNED_TEST_MPIRUN='"$(MPIRUN)"' \
	-DMODELTUNED_TEST_LSTOPO='"$(LSTOPO)"' \
	-DMODELTUNED_TEST_OMPI_MCA_DIR='"$(OMPI_MCA_DIR)"' \
	-DMODELTUNED_TEST_SYSCONFDIR='"$(sysconfdir)"'
tests_mpi_check_mpi_CXXFLAGS = $(AM_CXXFLAGS) $(CHECK_CFLAGS) $(FMT_CFLAGS)
tests_mpi_check_mpi_LDADD = model/libmodeltuned_model.la $(CHECK_LIBS)
EXTRA_tests_mpi_check_mpi_DEPENDENCIES = tests/mpi/collectives mca-components/mca_coll_modeltuned.so
