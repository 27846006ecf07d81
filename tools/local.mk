# Command-line tools.

# Overhead benchmarks (Google Benchmark): `make bench`.
if HAVE_BENCHMARK
noinst_PROGRAMS += tools/bench-decision
tools_bench_decision_SOURCES = tools/bench_decision.cpp tools/bench_lookup.c \
	mca/coll/modeltuned/coll_modeltuned_component.c mca/coll/modeltuned/coll_modeltuned_module.c \
	mca/coll/modeltuned/coll_modeltuned_setup.c mca/coll/modeltuned/coll_modeltuned_decide.c \
	mca/coll/modeltuned/coll_modeltuned_dispatch.c mca/coll/modeltuned/coll_modeltuned_bcast.c \
	mca/coll/modeltuned/coll_modeltuned_reduce.c mca/coll/modeltuned/coll_modeltuned_view.c
tools_bench_decision_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir) $(OMPI_CPPFLAGS) $(HWLOC_CFLAGS) \
	-DMODELTUNED_SYSCONFDIR='"$(sysconfdir)"' -DMODELTUNED_PKGDATADIR='"$(pkgdatadir)"' -DMODELTUNED_ORFEO_TABLE='"$(abs_top_srcdir)/calib/tables/orfeo-epyc.json"'
tools_bench_decision_LDADD = model/libmodeltuned_model.la -lbenchmark -lpthread $(OMPI_LIBS) $(HWLOC_LIBS)
bench: tools/bench-decision
	tools/bench-decision --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
endif

# modeltuned: the offline tool (fit; later explain, validate).
bin_PROGRAMS += tools/modeltuned
tools_modeltuned_SOURCES = tools/modeltuned.cpp tools/commands.hpp tools/cli.hpp tools/modeltuned_fit.cpp \
	tools/modeltuned_explain.cpp
tools_modeltuned_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir) $(HWLOC_CFLAGS) \
	-DMODELTUNED_PKGDATADIR='"$(pkgdatadir)"' -DMODELTUNED_SRCDIR='"$(abs_top_srcdir)"' \
	-DMODELTUNED_SYSCONFDIR='"$(sysconfdir)"'
tools_modeltuned_LDADD = calib/libmodeltuned_calib.la model/libmodeltuned_model.la $(FMT_LIBS) $(HWLOC_LIBS)
include tools/validate.mk
include tools/bench/local.mk
include tools/churn/local.mk
