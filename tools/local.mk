# Command-line tools.

# modeltuned-demo: A/B latency of modeltuned against Open MPI's default, in one job (MPI, C).
bin_PROGRAMS += tools/modeltuned-demo
tools_modeltuned_demo_SOURCES = tools/modeltuned_demo.c
tools_modeltuned_demo_CPPFLAGS = $(OMPI_CPPFLAGS)
tools_modeltuned_demo_LDADD = $(OMPI_LIBS)
