# modeltuned ab and modeltuned-latency: the table parser, the coll-list rewriting, Student's t and
# the intervals (check_ab, no MPI); the command line on a fake benchmark, a real np 2 run of
# modeltuned-latency with the component found, and the usage errors (ab_cli.sh).
check_PROGRAMS += tests/check_ab
TESTS += tests/check_ab
tests_check_ab_SOURCES = tests/check_ab.cpp
tests_check_ab_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
tests_check_ab_CXXFLAGS = $(AM_CXXFLAGS) $(CHECK_CFLAGS) $(FMT_CFLAGS)
tests_check_ab_LDADD = tools/ab/libmodeltuned_ab.la calib/libmodeltuned_calib.la common/libmodeltuned_common.la \
	$(FMT_LIBS) $(CHECK_LIBS)

TESTS += tests/ab_cli.sh
EXTRA_DIST += tests/ab_cli.sh
