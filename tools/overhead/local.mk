# Overhead benchmarks (Google Benchmark): `make bench`.
if HAVE_BENCHMARK
noinst_PROGRAMS += tools/overhead/bench-decision
tools_overhead_bench_decision_SOURCES = tools/overhead/bench_decision.cpp tools/overhead/bench_lookup.c $(MODELTUNED_COMPONENT_SOURCES)
tools_overhead_bench_decision_CPPFLAGS = $(AM_CPPFLAGS) $(OMPI_CPPFLAGS) $(HWLOC_CFLAGS) \
	-DMODELTUNED_SYSCONFDIR='"$(sysconfdir)"' -DMODELTUNED_PKGDATADIR='"$(pkgdatadir)"' -DMODELTUNED_ORFEO_TABLE='"$(abs_top_srcdir)/calib/tables/orfeo-epyc.json"'
tools_overhead_bench_decision_LDADD = model/libmodeltuned_model.la -lbenchmark -lpthread $(OMPI_LIBS) $(HWLOC_LIBS)
bench: tools/overhead/bench-decision
	tools/overhead/bench-decision --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
endif
