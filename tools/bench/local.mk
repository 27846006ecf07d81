# modeltuned-bench: A/B benchmark of Open MPI's default, modeltuned and every forced
# algorithm in one job (MPI, C++20). Links the model library only for its algorithm table, the
# calibration library only for its gnuplot driver (calib/gnuplot.hpp).
bin_PROGRAMS += tools/bench/modeltuned-bench
tools_bench_modeltuned_bench_SOURCES = tools/bench/modeltuned_bench.cpp tools/bench/job.cpp tools/bench/job.hpp \
	tools/bench/options.cpp tools/bench/options.hpp tools/bench/variants.cpp tools/bench/variants.hpp \
	tools/bench/measure.cpp tools/bench/measure.hpp tools/bench/report.cpp tools/bench/report.hpp \
	tools/bench/plot.cpp tools/bench/plot.hpp
# OMPI_SKIP_MPICXX: the C API only, no libmpi_cxx.
tools_bench_modeltuned_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir) $(OMPI_CPPFLAGS) -DOMPI_SKIP_MPICXX=1
tools_bench_modeltuned_bench_CXXFLAGS = $(AM_CXXFLAGS) $(FMT_CFLAGS)
tools_bench_modeltuned_bench_LDADD = calib/libmodeltuned_calib.la model/libmodeltuned_model.la common/libmodeltuned_common.la \
	$(FMT_LIBS) $(OMPI_LIBS)
