/* Not the suite's own: modeltuned's config.h for the mpi-test-suite, built with modeltuned's
 * Automake rules (tests/external.mk) instead of its configure: what its configure finds on Linux
 * with GCC and Open MPI 4.1 or 5.0, with the MPI-2 I/O and one-sided tests, the threaded and the
 * MPI-4 partitioned ones left out (only its collective tests run here, tests/external_suite.sh). */
#define HAVE_MPI 1
#define HAVE_MPI2 1
#define HAVE_FLOAT_H 1
#define HAVE_GETHOSTNAME 1
#define HAVE_GETOPT_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_LIMITS_H 1
#define HAVE_MALLOC 1
#define HAVE_MEMSET 1
#define HAVE_PTHREAD_H 1
#define HAVE_STDINT_H 1
#define HAVE_STDIO_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRCASECMP 1
#define HAVE_STRERROR 1
#define HAVE_STRINGS_H 1
#define HAVE_STRING_H 1
#define HAVE_STRSTR 1
#define HAVE_SYS_STAT_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_UNISTD_H 1
#define HAVE_VALUES_H 1
#define HAVE_VPRINTF 1
#define PACKAGE "mpi_test_suite"
#define PACKAGE_NAME "mpi_test_suite"
#define PACKAGE_VERSION "1.1.1"
#define VERSION "1.1.1"
#define STDC_HEADERS 1
#define SIZEOF_CHAR 1
#define SIZEOF_SHORT __SIZEOF_SHORT__
#define SIZEOF_INT __SIZEOF_INT__
#define SIZEOF_LONG __SIZEOF_LONG__
#define SIZEOF_LONG_LONG __SIZEOF_LONG_LONG__
#define SIZEOF_UNSIGNED_SHORT __SIZEOF_SHORT__
#define SIZEOF_UNSIGNED_INT __SIZEOF_INT__
#define SIZEOF_UNSIGNED_LONG __SIZEOF_LONG__
#define SIZEOF_UNSIGNED_LONG_LONG __SIZEOF_LONG_LONG__
#define SIZEOF_FLOAT __SIZEOF_FLOAT__
#define SIZEOF_DOUBLE __SIZEOF_DOUBLE__
#define SIZEOF_LONG_DOUBLE __SIZEOF_LONG_DOUBLE__
