# modeltuned ab: the user's A/B across jobs (no MPI). Everything but the command's registration is
# in a library that tests/check_ab links too.
noinst_LTLIBRARIES += tools/ab/libmodeltuned_ab.la
tools_ab_libmodeltuned_ab_la_SOURCES = tools/ab/options.hpp tools/ab/options.cpp \
	tools/ab/arms.hpp tools/ab/arms.cpp tools/ab/jobs.hpp tools/ab/jobs.cpp \
	tools/ab/progress.hpp tools/ab/progress.cpp tools/ab/tables.hpp tools/ab/tables.cpp \
	tools/ab/analysis.hpp tools/ab/analysis.cpp tools/ab/report.hpp tools/ab/report.cpp \
	tools/ab/files.hpp tools/ab/files.cpp tools/ab/plot.hpp tools/ab/plot.cpp \
	tools/ab/completed.hpp tools/ab/completed.cpp \
	tools/ab/components.hpp tools/ab/components.cpp
tools_ab_libmodeltuned_ab_la_CXXFLAGS = $(AM_CXXFLAGS) $(FMT_CFLAGS)
tools_modeltuned_SOURCES += tools/ab/ab.cpp
# After the libraries tools/local.mk lists: the A/B library needs the gnuplot driver and the
# statistics, which come after it.
tools_modeltuned_LDADD += tools/ab/libmodeltuned_ab.la calib/libmodeltuned_calib.la common/libmodeltuned_common.la \
	$(FMT_LIBS)
