# tests/calibration.mk
# Calibration table format, the fitter, and the shipped ORFEO table against its source data.
# The table, channel and fitter sources are compiled in directly so this test does not wait for
# the whole model library.
check_PROGRAMS += tests/check_calibration
TESTS += tests/check_calibration
tests_check_calibration_SOURCES = tests/check_calibration.cpp \
	model/calibration/table.hpp model/calibration/table.cpp \
	model/topology/placement.hpp model/topology/placement.cpp \
	calib/fit.hpp calib/fit_table.cpp calib/osu_csv.cpp calib/regression.hpp calib/regression.cpp
tests_check_calibration_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir) \
	-DORFEO_DATA_DIR='"$(ORFEO_DATA)"' \
	-DSHIPPED_TABLE='"$(abs_top_srcdir)/calib/tables/orfeo-epyc.json"'
tests_check_calibration_CXXFLAGS = $(AM_CXXFLAGS) $(EIGEN_CFLAGS) $(CHECK_CFLAGS)
tests_check_calibration_LDADD = $(CHECK_LIBS)
