# modeltuned-calibrate: the MPI program that measures a machine and writes its calibration table
# (docs/calibration.md). Only the public mpi.h is used; OMPI_SKIP_MPICXX keeps the C++ bindings
# (and libmpi_cxx) out.
bin_PROGRAMS += calib/modeltuned-calibrate
calib_modeltuned_calibrate_SOURCES = \
	calib/calibrate/modeltuned_calibrate.cpp \
	calib/calibrate/rank_placement.hpp calib/calibrate/rank_placement.cpp \
	calib/calibrate/measurements.hpp calib/calibrate/measurements.cpp calib/calibrate/local_costs.cpp \
	calib/calibrate/sample_store.hpp calib/calibrate/sample_store.cpp \
	calib/calibrate/fit_input.hpp calib/calibrate/fit_input.cpp \
	calib/calibrate/progress.hpp calib/calibrate/progress.cpp \
	calib/calibrate/checks.hpp calib/calibrate/checks.cpp calib/calibrate/checks_forcing.cpp \
	calib/calibrate/check_comms.hpp calib/calibrate/check_comms.cpp \
	calib/calibrate/check_rounds.hpp calib/calibrate/check_rounds.cpp \
	calib/calibrate/trials.hpp calib/calibrate/trials.cpp
calib_modeltuned_calibrate_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir) -DOMPI_SKIP_MPICXX=1 \
	-DMODELTUNED_SYSCONFDIR='"$(sysconfdir)"' \
	$(OMPI_CPPFLAGS) $(HWLOC_CFLAGS) $(EIGEN_CFLAGS) $(FMT_CFLAGS)
calib_modeltuned_calibrate_LDADD = calib/libmodeltuned_calib.la model/libmodeltuned_model.la common/libmodeltuned_common.la \
	$(OMPI_LIBS) $(HWLOC_LIBS) $(FMT_LIBS) -lpthread
