# tests/trees.mk
# Our trees against libmpi's own ompi_coll_base_topo_build_* (fake communicator, no MPI_Init).
# ompi_trees.cpp is compiled in directly so this test does not wait for the whole model library.
check_PROGRAMS += tests/check_trees
TESTS += tests/check_trees
tests_check_trees_SOURCES = tests/check_trees.c tests/support/trees_shim.h tests/support/trees_shim.cpp \
	model/schedule/ompi_trees.hpp model/schedule/ompi_trees.cpp \
	model/schedule/ompi_version.hpp model/schedule/ompi_version.cpp
# Open MPI's internal headers are for the C test only; the C++ side needs just the repository root.
tests_check_trees_CFLAGS = $(AM_CFLAGS) $(OMPI_CPPFLAGS) $(CHECK_CFLAGS)
tests_check_trees_LDADD = $(CHECK_LIBS) $(OMPI_LIBS)
