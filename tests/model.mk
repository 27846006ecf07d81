# Unit tests of the model library (no MPI), and of the tools library's parts it is compared with.
check_PROGRAMS += tests/check_model
TESTS += tests/check_model
tests_check_model_SOURCES = tests/check_model.cpp
tests_check_model_CXXFLAGS = $(AM_CXXFLAGS) $(CHECK_CFLAGS) $(FMT_CFLAGS)
# The tools library: emulated placements, and the stage-sum variant the schedule is compared with.
tests_check_model_LDADD = tools/lib/libmodeltuned_tools.la model/libmodeltuned_model.la $(FMT_LIBS) $(CHECK_LIBS)

# The allreduce model: registry entries, fallbacks, schedules, costs, explain's listing.
check_PROGRAMS += tests/check_allreduce
TESTS += tests/check_allreduce
tests_check_allreduce_SOURCES = tests/check_allreduce.cpp
tests_check_allreduce_CXXFLAGS = $(AM_CXXFLAGS) $(CHECK_CFLAGS) $(FMT_CFLAGS)
tests_check_allreduce_LDADD = tools/lib/libmodeltuned_tools.la model/libmodeltuned_model.la $(FMT_LIBS) $(CHECK_LIBS)

# The barrier model: registry entries, tuned's rule, schedules that are barriers, costs, explain.
check_PROGRAMS += tests/check_barrier
TESTS += tests/check_barrier
tests_check_barrier_SOURCES = tests/check_barrier.cpp
tests_check_barrier_CXXFLAGS = $(AM_CXXFLAGS) $(CHECK_CFLAGS) $(FMT_CFLAGS)
tests_check_barrier_LDADD = tools/lib/libmodeltuned_tools.la model/libmodeltuned_model.la $(FMT_LIBS) $(CHECK_LIBS)

# The allgather model: registry entries and releases, tuned's rule, schedules that gather every
# block, costs, linear's composition, explain.
check_PROGRAMS += tests/check_allgather
TESTS += tests/check_allgather
tests_check_allgather_SOURCES = tests/check_allgather.cpp
tests_check_allgather_CXXFLAGS = $(AM_CXXFLAGS) $(CHECK_CFLAGS) $(FMT_CFLAGS)
tests_check_allgather_LDADD = tools/lib/libmodeltuned_tools.la model/libmodeltuned_model.la $(FMT_LIBS) $(CHECK_LIBS)

# The alltoall family: registry entries, tuned's rule, schedules, costs by hand, explain's listing.
check_PROGRAMS += tests/check_alltoall
TESTS += tests/check_alltoall
tests_check_alltoall_SOURCES = tests/check_alltoall.cpp
tests_check_alltoall_CXXFLAGS = $(AM_CXXFLAGS) $(CHECK_CFLAGS) $(FMT_CFLAGS)
tests_check_alltoall_LDADD = tools/lib/libmodeltuned_tools.la model/libmodeltuned_model.la $(FMT_LIBS) $(CHECK_LIBS)

# Other components' algorithms: registry entries, where each is a candidate, measured only.
check_PROGRAMS += tests/check_components
TESTS += tests/check_components
tests_check_components_SOURCES = tests/check_components.cpp
tests_check_components_CXXFLAGS = $(AM_CXXFLAGS) $(CHECK_CFLAGS) $(FMT_CFLAGS)
tests_check_components_LDADD = model/libmodeltuned_model.la $(FMT_LIBS) $(CHECK_LIBS)

# The explain command line: answers and bad flags.
TESTS += tests/explain_cli.sh
EXTRA_DIST += tests/explain_cli.sh

# The C API the component calls, from C, without MPI.
check_PROGRAMS += tests/check_capi
TESTS += tests/check_capi
tests_check_capi_SOURCES = tests/check_capi.c
# A C++ file forces the C++ linker (the model library needs libstdc++).
nodist_EXTRA_tests_check_capi_SOURCES = tests/force_cxx_link.cxx
tests_check_capi_CPPFLAGS = $(AM_CPPFLAGS) -DMODELTUNED_SRCDIR='"$(abs_top_srcdir)"'
tests_check_capi_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_capi_LDADD = model/libmodeltuned_model.la $(FMT_LIBS) $(CHECK_LIBS)

# The component links the model library only: no tool-only symbol may reach it.
TESTS += tests/component_symbols.sh
EXTRA_DIST += tests/component_symbols.sh

# Adding an algorithm is one registry entry: a test-only one reaches the selector, explain and
# the C API listing the component dispatches from.
check_PROGRAMS += tests/check_registry
TESTS += tests/check_registry
tests_check_registry_SOURCES = tests/check_registry.cpp
tests_check_registry_CPPFLAGS = $(AM_CPPFLAGS) -DMODELTUNED_SRCDIR='"$(abs_top_srcdir)"'
tests_check_registry_CXXFLAGS = $(AM_CXXFLAGS) $(CHECK_CFLAGS) $(FMT_CFLAGS)
tests_check_registry_LDADD = tools/lib/libmodeltuned_tools.la model/libmodeltuned_model.la $(FMT_LIBS) $(CHECK_LIBS)

# modeltuned export-rules: its files read back as tuned reads them hold the selector's decisions.
check_PROGRAMS += tests/check_rules
TESTS += tests/check_rules
tests_check_rules_SOURCES = tests/check_rules.cpp
tests_check_rules_CPPFLAGS = $(AM_CPPFLAGS) -DMODELTUNED_SRCDIR='"$(abs_top_srcdir)"'
tests_check_rules_CXXFLAGS = $(AM_CXXFLAGS) $(CHECK_CFLAGS) $(FMT_CFLAGS)
tests_check_rules_LDADD = tools/lib/libmodeltuned_tools.la model/libmodeltuned_model.la $(FMT_LIBS) $(CHECK_LIBS)
