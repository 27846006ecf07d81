# What only the tools use (the component links the model library alone).
noinst_LTLIBRARIES += tools/lib/libmodeltuned_tools.la
tools_lib_libmodeltuned_tools_la_SOURCES = tools/lib/emulate.hpp tools/lib/emulate.cpp \
	tools/lib/stage_sum.hpp tools/lib/stage_sum.cpp tools/lib/explain.hpp tools/lib/explain.cpp \
	tools/lib/job.hpp tools/lib/job.cpp tools/lib/rules.hpp tools/lib/rules.cpp
tools_lib_libmodeltuned_tools_la_CPPFLAGS = $(AM_CPPFLAGS) $(HWLOC_CFLAGS) \
	-DMODELTUNED_PKGDATADIR='"$(pkgdatadir)"' -DMODELTUNED_SRCDIR='"$(abs_top_srcdir)"' \
	-DMODELTUNED_SYSCONFDIR='"$(sysconfdir)"'
tools_lib_libmodeltuned_tools_la_CXXFLAGS = $(AM_CXXFLAGS) $(FMT_CFLAGS)
