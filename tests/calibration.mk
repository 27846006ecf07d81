# tests/calibration.mk
# Calibration table format, the fitter, the shipped ORFEO table against its source data, and
# modeltuned-calibrate runs (np 2 and 4, oversubscribed) refitted by modeltuned fit.
check_PROGRAMS += tests/check_calibration
TESTS += tests/check_calibration
tests_check_calibration_SOURCES = tests/check_calibration.cpp
tests_check_calibration_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir) \
	-DORFEO_DATA_DIR='"$(ORFEO_DATA)"' \
	-DSHIPPED_TABLE='"$(abs_top_srcdir)/calib/tables/orfeo-epyc.json"'
tests_check_calibration_CXXFLAGS = $(AM_CXXFLAGS) $(EIGEN_CFLAGS) $(CHECK_CFLAGS)
tests_check_calibration_LDADD = tests/support/libmodeltuned_test.la calib/libmodeltuned_calib.la \
	model/libmodeltuned_model.la common/libmodeltuned_common.la $(FMT_LIBS) $(CHECK_LIBS)
EXTRA_tests_check_calibration_DEPENDENCIES = calib/modeltuned-calibrate tools/modeltuned

# modeltuned-calibrate's bad flags: one line each, an error status, no measuring.
TESTS += tests/calibrate_cli.sh
EXTRA_DIST += tests/calibrate_cli.sh

# Fault injection: a candidate that crashes or hangs in calibration ends that job; the same
# command completes, and no job runs the candidate there.
TESTS += tests/calibrate_faults.sh
EXTRA_DIST += tests/calibrate_faults.sh

# modeltuned fit --plot through the shared gnuplot driver, with and without gnuplot.
TESTS += tests/fit_plot.sh
EXTRA_DIST += tests/fit_plot.sh
