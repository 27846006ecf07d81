# Communicator churn benchmark (what modeltuned adds to communicator creation): `make churn` runs
# it with and without modeltuned, alternating, and prints the ratio; `make churn-count` counts one
# iteration's instructions under callgrind in both settings (count-churn).
noinst_PROGRAMS += tools/churn/churn
tools_churn_churn_SOURCES = tools/churn/churn.c
tools_churn_churn_CPPFLAGS = $(OMPI_CPPFLAGS)
tools_churn_churn_CFLAGS = $(AM_CFLAGS) -O2
tools_churn_churn_LDADD = $(OMPI_LIBS)
churn: tools/churn/churn mca-components/mca_coll_modeltuned.so
	MPIRUN='$(MPIRUN)' TABLE='$(abs_top_srcdir)/calib/tables/cpp-vm-2core.json' \
	  COMPONENTS='$(abs_builddir)/mca-components' OMPI_MCA_DIR='$(OMPI_MCA_DIR)' \
	  $(abs_top_srcdir)/tools/churn/run-churn $(abs_builddir)/tools/churn/churn
churn-count: tools/churn/churn mca-components/mca_coll_modeltuned.so
	MPIRUN='$(MPIRUN)' TABLE='$(abs_top_srcdir)/calib/tables/cpp-vm-2core.json' \
	  COMPONENTS='$(abs_builddir)/mca-components' OMPI_MCA_DIR='$(OMPI_MCA_DIR)' \
	  $(abs_top_srcdir)/tools/churn/count-churn $(abs_builddir)/tools/churn/churn
.PHONY: churn churn-count
EXTRA_DIST += tools/churn/run-churn tools/churn/count-churn
