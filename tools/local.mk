# Command-line tools.

# What only the tools use (the component links the model library alone).
noinst_LTLIBRARIES += tools/lib/libmodeltuned_tools.la
tools_lib_libmodeltuned_tools_la_SOURCES = tools/lib/emulate.hpp tools/lib/emulate.cpp \
	tools/lib/stage_sum.hpp tools/lib/stage_sum.cpp tools/lib/explain.hpp tools/lib/explain.cpp \
	tools/lib/job.hpp tools/lib/job.cpp tools/lib/rules.hpp tools/lib/rules.cpp
tools_lib_libmodeltuned_tools_la_CPPFLAGS = $(AM_CPPFLAGS) $(HWLOC_CFLAGS) \
	-DMODELTUNED_PKGDATADIR='"$(pkgdatadir)"' -DMODELTUNED_SRCDIR='"$(abs_top_srcdir)"' \
	-DMODELTUNED_SYSCONFDIR='"$(sysconfdir)"'
tools_lib_libmodeltuned_tools_la_CXXFLAGS = $(AM_CXXFLAGS) $(FMT_CFLAGS)

# Overhead benchmarks (Google Benchmark): `make bench`.
if HAVE_BENCHMARK
noinst_PROGRAMS += tools/bench-decision
tools_bench_decision_SOURCES = tools/bench_decision.cpp tools/bench_lookup.c $(MODELTUNED_COMPONENT_SOURCES)
tools_bench_decision_CPPFLAGS = $(AM_CPPFLAGS) $(OMPI_CPPFLAGS) $(HWLOC_CFLAGS) \
	-DMODELTUNED_SYSCONFDIR='"$(sysconfdir)"' -DMODELTUNED_PKGDATADIR='"$(pkgdatadir)"' -DMODELTUNED_ORFEO_TABLE='"$(abs_top_srcdir)/calib/tables/orfeo-epyc.json"'
tools_bench_decision_LDADD = model/libmodeltuned_model.la -lbenchmark -lpthread $(OMPI_LIBS) $(HWLOC_LIBS)
bench: tools/bench-decision
	tools/bench-decision --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
endif

# modeltuned: the offline tool (fit; later explain, validate).
bin_PROGRAMS += tools/modeltuned
tools_modeltuned_SOURCES = tools/modeltuned.cpp tools/commands.hpp tools/modeltuned_fit.cpp \
	tools/modeltuned_explain.cpp tools/modeltuned_export_rules.cpp
tools_modeltuned_CPPFLAGS = $(AM_CPPFLAGS) $(HWLOC_CFLAGS) \
	-DMODELTUNED_PKGDATADIR='"$(pkgdatadir)"' -DMODELTUNED_SRCDIR='"$(abs_top_srcdir)"' \
	-DMODELTUNED_SYSCONFDIR='"$(sysconfdir)"'
tools_modeltuned_LDADD = tools/lib/libmodeltuned_tools.la calib/libmodeltuned_calib.la model/libmodeltuned_model.la \
	common/libmodeltuned_common.la \
	$(FMT_LIBS) $(HWLOC_LIBS)
# modeltuned-emulate-nodes: several emulated nodes on one machine (hostfile + rsh agent in UTS
# namespaces), for the multi-node tests and for users trying multi-node behaviour on a laptop.
dist_bin_SCRIPTS = tools/modeltuned-emulate-nodes

include tools/validate.mk
include tools/bench/local.mk
include tools/churn/local.mk
include tools/ab/local.mk
include tools/latency/local.mk
