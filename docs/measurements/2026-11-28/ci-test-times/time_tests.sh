#!/bin/bash
# Times each test of a build directory alone (make check TESTS=...), with the sanitizer settings of
# scripts/check --sanitize. Usage: time_tests.sh BUILD_DIR OUTPUT; Check's XML logs go beside
# OUTPUT. The suppression files are this checkout's (tests/sanitizers/).
top=$(cd "$(dirname "$0")/../../../.." && pwd)
build=${1:?usage: time_tests.sh BUILD_DIR OUTPUT} out=$(realpath -m "${2:?usage: time_tests.sh BUILD_DIR OUTPUT}")
logs=$(dirname "$out")
cd "$build" || exit 1
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:handle_sigfpe=0"
export LSAN_OPTIONS="suppressions=$top/tests/sanitizers/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$top/tests/sanitizers/ubsan.supp"
export CK_TIMEOUT_MULTIPLIER=10
for t in tests/mpi/check_mpi tests/mpi/check_guard tests/mpi/check_signatures tests/mpi/check_multinode tests/emulate_nodes_cli.sh tests/external_suite.sh tests/check_calibration tests/calibrate_cli.sh tests/fit_plot.sh tests/validation_guard.sh tests/check_bench tests/check_ab tests/ab_cli.sh tests/check_model tests/explain_cli.sh tests/check_capi tests/install_uninstall.sh tests/scripts_demo.sh; do
  export CK_XML_LOG_FILE_NAME=$logs/$(basename $t).xml; s=$(date +%s.%N); make check TESTS="$t" >/dev/null 2>&1; rc=$?; e=$(date +%s.%N)
  printf '%-40s %6.1f rc=%d\n' "$t" "$(echo "$e - $s" | bc)" $rc >> "$out"
done
echo done >> "$out"
