/* MPI_T helpers shared by the MPI test programs: modeltuned's counters and control variables. */
#ifndef MODELTUNED_TESTS_MPI_T_H
#define MODELTUNED_TESTS_MPI_T_H

#include <mpi.h>
#include <string.h>

/* Opens the performance variable `name` (counters count from the moment their handle is
 * allocated: open before the calls). Returns its element count, or -1 when it does not exist
 * (modeltuned not loaded). */
static inline int mpi_t_open_counter(MPI_T_pvar_session session, const char *name, MPI_T_pvar_handle *handle) {
  int n = 0;
  MPI_T_pvar_get_num(&n);
  for (int i = 0; i < n; ++i) {
    char pname[256], desc[1024];
    int pname_len = sizeof pname, desc_len = sizeof desc, verbosity, var_class, bind, readonly, continuous, atomic,
        count = 0;
    MPI_Datatype type;
    MPI_T_enum enumtype;
    if (MPI_SUCCESS == MPI_T_pvar_get_info(i, pname, &pname_len, &verbosity, &var_class, &type, &enumtype, desc,
                                           &desc_len, &bind, &readonly, &continuous, &atomic) &&
        0 == strcmp(pname, name) && MPI_SUCCESS == MPI_T_pvar_handle_alloc(session, i, NULL, handle, &count))
      return count;
  }
  return -1;
}

/* Writes the string control variable `name`; MPI_SUCCESS, an MPI_T error, or -1 when absent. */
static inline int mpi_t_set_string_cvar(const char *name, const char *value) {
  int n = 0;
  MPI_T_cvar_get_num(&n);
  for (int i = 0; i < n; ++i) {
    char cname[256], desc[1024];
    int cname_len = sizeof cname, desc_len = sizeof desc, verbosity, binding, scope, count;
    MPI_Datatype type;
    MPI_T_enum enumtype;
    MPI_T_cvar_handle handle;
    if (MPI_SUCCESS != MPI_T_cvar_get_info(i, cname, &cname_len, &verbosity, &type, &enumtype, desc, &desc_len,
                                           &binding, &scope) ||
        0 != strcmp(cname, name) || MPI_SUCCESS != MPI_T_cvar_handle_alloc(i, NULL, &handle, &count))
      continue;
    int rc = MPI_T_cvar_write(handle, value);
    MPI_T_cvar_handle_free(&handle);
    return rc;
  }
  return -1;
}

#endif
