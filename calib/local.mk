# Calibration: fitting measurements into a table (calib/fit.hpp) and the shipped tables.
noinst_LTLIBRARIES += calib/libmodeltuned_calib.la
calib_libmodeltuned_calib_la_SOURCES = \
	calib/fit.hpp calib/fit_table.cpp calib/csv.hpp calib/csv.cpp calib/osu_csv.cpp \
	calib/regression.hpp calib/regression.cpp calib/plot.hpp calib/plot.cpp \
	calib/gnuplot.hpp calib/gnuplot.cpp calib/merge.hpp calib/merge.cpp \
	calib/trial_journal.hpp calib/trial_journal.cpp
calib_libmodeltuned_calib_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir) -DMODELTUNED_GNUPLOT='"$(GNUPLOT)"'
calib_libmodeltuned_calib_la_CXXFLAGS = $(AM_CXXFLAGS) -fPIC $(EIGEN_CFLAGS)
# The library uses the table and channel code of the model: programs link
# model/libmodeltuned_model.la after it (not LIBADDed here, so no program gets two copies).

dist_pkgdata_DATA += calib/tables/orfeo-epyc.json calib/tables/cpp-vm-2core.json

# The shipped table: p2p.csv + nbft.csv (fanout) of the ORFEO EPYC data set. nbft_reduce.csv is
# not used (its placement was not the intended one, see docs/calibration-format.md), so the
# table has no fanin fits. The data set has no reduction measurement: 5e-5 us/B is an estimate.
ORFEO_DATA ?= $(abs_top_srcdir)/data/orfeo-epyc
ORFEO_REDUCE_US_PER_BYTE = 5e-5
ORFEO_REDUCE_SOURCE = estimate: MPI_Reduce_local moves 3 bytes per message byte (reads both operands, writes one); on one Zen 2 core with the operands cache-resident (just received; the CCX L3 is 16 MiB) about 60 GB/s, so 3 B / 60 GB/s = 5e-5 us/B. nbft_reduce.csv minus nbft.csv at P = 2, cache channel, 256 KiB-1 MiB gives 5.0-5.6e-5 us/B (plausibility only, that file is not trusted for fitting)
# Its checks (docs/model.md#margin): the model's error on the data set's own bcast/reduce
# measurements at the communicator sizes modeltuned-calibrate would measure on a 254-rank
# allocation there (validate --calibrated-on 254), so that explain and the demo show what the
# component does on those nodes. The validation protocols refit their own checks.
orfeo-table: tools/modeltuned$(EXEEXT)
	$(builddir)/tools/modeltuned$(EXEEXT) validate --data $(ORFEO_DATA) --out $(builddir)/orfeo-checks --quick \
	  --reduce-us-per-byte $(ORFEO_REDUCE_US_PER_BYTE) --calibrated-on 254 \
	  --checks-out $(builddir)/orfeo-checks/checks.json
	$(builddir)/tools/modeltuned$(EXEEXT) fit --checks $(builddir)/orfeo-checks/checks.json \
	  --osu-p2p $(ORFEO_DATA)/p2p.csv --osu-fanout $(ORFEO_DATA)/nbft.csv \
	  --reduce-us-per-byte $(ORFEO_REDUCE_US_PER_BYTE) --reduce-source '$(ORFEO_REDUCE_SOURCE)' \
	  --source-name 'ORFEO EPYC partition (AMD EPYC 7H12, Open MPI 4.1.5, OSU 7.3)' \
	  --topology-signature '$(ORFEO_TOPOLOGY)' \
	  -o $(srcdir)/calib/tables/orfeo-epyc.json
.PHONY: orfeo-table
# One node of the data set's README (2 sockets, NPS4, 4-core CCX): recorded so that the
# component can warn when it runs elsewhere; PUs are not stated there, so not compared.
ORFEO_TOPOLOGY = pack:2 numa:8 l3:32 core:128

# This machine kind (the 2-core development VM): a real calibration run, 2 ranks (one per core),
# default budget, then the table and its plots. Overwrites calib/tables/cpp-vm-2core.json.
THIS_MACHINE_TABLE = $(srcdir)/calib/tables/cpp-vm-2core.json
this-machine-table: calib/modeltuned-calibrate$(EXEEXT) tools/modeltuned$(EXEEXT)
	$(MPIRUN) $(MPIRUN_ROOT_FLAG) -np 2 $(builddir)/calib/modeltuned-calibrate$(EXEEXT) \
	  -o $(THIS_MACHINE_TABLE) --samples $(builddir)/cpp-vm-2core.samples.csv
	$(builddir)/tools/modeltuned$(EXEEXT) fit --samples $(builddir)/cpp-vm-2core.samples.csv \
	  --like $(THIS_MACHINE_TABLE) -o $(builddir)/cpp-vm-2core.refit.json --plot $(builddir)/cpp-vm-2core-plots
.PHONY: this-machine-table
MPIRUN_ROOT_FLAG = $(shell test "`id -u`" = 0 && echo --allow-run-as-root)
include calib/calibrate/local.mk
