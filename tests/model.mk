# Unit tests of the model library alone (no MPI).
check_PROGRAMS += tests/check_model
TESTS += tests/check_model
tests_check_model_SOURCES = tests/check_model.cpp
tests_check_model_CXXFLAGS = $(AM_CXXFLAGS) $(CHECK_CFLAGS)
tests_check_model_LDADD = model/libmodeltuned_model.la $(CHECK_LIBS)

# The explain command line: answers and bad flags.
TESTS += tests/explain_cli.sh
EXTRA_DIST += tests/explain_cli.sh
