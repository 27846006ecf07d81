# Shared helpers below every layer that uses them (calib/, tools/, the benchmark): statistics
# (stats.hpp), MPI_T variables (mpi_t.hpp, header only, for the MPI programs) and the command-line
# conventions (cli.hpp and its exit status, exit_status.hpp, header only). Nothing here includes
# from calib/, tools/ or model/.
noinst_LTLIBRARIES += common/libmodeltuned_common.la
common_libmodeltuned_common_la_SOURCES = common/stats.hpp common/stats.cpp common/mpi_t.hpp common/cli.hpp common/exit_status.hpp common/clock.hpp
common_libmodeltuned_common_la_CXXFLAGS = $(AM_CXXFLAGS) -fPIC
