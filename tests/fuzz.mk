# libFuzzer targets of tests/fuzz/, linked from the same libraries as the tools: built only by
# `make fuzzers`, in a build configured with clang and -fsanitize=fuzzer-no-link (scripts/fuzz
# configures build-fuzz/ so and runs them), never by `make` or `make check`.
FUZZERS = tests/fuzz/fuzz-table tests/fuzz/fuzz-csv
EXTRA_PROGRAMS = $(FUZZERS)
# The table reader and its checks.
tests_fuzz_fuzz_table_SOURCES = tests/fuzz/fuzz_table.cpp
tests_fuzz_fuzz_table_LDADD = model/libmodeltuned_model.la
tests_fuzz_fuzz_table_LDFLAGS = -fsanitize=fuzzer
# The measurement CSV readers (calib/csv.cpp, calib/osu_csv.cpp).
tests_fuzz_fuzz_csv_SOURCES = tests/fuzz/fuzz_csv.cpp
tests_fuzz_fuzz_csv_LDADD = calib/libmodeltuned_calib.la model/libmodeltuned_model.la
tests_fuzz_fuzz_csv_LDFLAGS = -fsanitize=fuzzer
EXTRA_DIST += tests/fuzz/corpus

fuzzers: $(FUZZERS)
# The targets scripts/fuzz runs, one per line.
print-fuzzers:
	@for f in $(FUZZERS); do echo $$f; done
.PHONY: fuzzers print-fuzzers
