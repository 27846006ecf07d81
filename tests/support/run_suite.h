/* The end of every Check test's main, for the C and the C++ tests alike: run the suite, print as
 * `mode` says, and return the exit status (EXIT_SUCCESS when every test passed). Include it where
 * check.h would go: last, since check.h defines macros (fail, ...) that clash with the standard
 * library. */
#ifndef MODELTUNED_TESTS_RUN_SUITE_H
#define MODELTUNED_TESTS_RUN_SUITE_H

#include <stdlib.h>

#include <check.h>

/* Runs and frees `runner` (made with srunner_create, for a test that must ask it something first). */
static inline int modeltuned_run(SRunner *runner, enum print_output mode) {
  srunner_run_all(runner, mode);
  const int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

static inline int modeltuned_run_suite(Suite *suite, enum print_output mode) {
  return modeltuned_run(srunner_create(suite), mode);
}

#endif
