# modeltuned-bench under mpirun: a tiny run's CSV, summary and reported algorithms must agree with
# each other and with modeltuned's own trace; a bad flag ends the job with status 2.
check_PROGRAMS += tests/check_bench
TESTS += tests/check_bench
tests_check_bench_SOURCES = tests/check_bench.cpp
tests_check_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir) -DMODELTUNED_TEST_GNUPLOT='"$(GNUPLOT)"'
tests_check_bench_CXXFLAGS = $(AM_CXXFLAGS) $(CHECK_CFLAGS)
tests_check_bench_LDADD = tests/support/libmodeltuned_test.la model/libmodeltuned_model.la common/libmodeltuned_common.la \
	$(CHECK_LIBS)
EXTRA_tests_check_bench_DEPENDENCIES = tools/bench/modeltuned-bench mca-components/mca_coll_modeltuned.so
