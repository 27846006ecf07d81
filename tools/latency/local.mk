# modeltuned-latency: a plain MPI latency benchmark (C, MPI_Bcast, MPI_Reduce, MPI_Allreduce on
# MPI_COMM_WORLD, OSU's method and output) that neither loads nor bypasses modeltuned, for
# modeltuned ab's comparisons across jobs.
bin_PROGRAMS += tools/latency/modeltuned-latency
tools_latency_modeltuned_latency_SOURCES = tools/latency/modeltuned_latency.c tools/latency/options.h \
	tools/latency/options.c
tools_latency_modeltuned_latency_CPPFLAGS = $(AM_CPPFLAGS) $(OMPI_CPPFLAGS)
tools_latency_modeltuned_latency_LDADD = $(OMPI_LIBS)
