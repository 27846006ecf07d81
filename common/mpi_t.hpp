// MPI_T control variables by name, for the MPI tools (modeltuned-bench, modeltuned-calibrate):
// they set modeltuned's and tuned's variables between communicator creations, which is when
// Open MPI's collective components read them.
#pragma once
#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>

#include <fmt/format.h>

namespace modeltuned::mpi_t {

inline std::optional<int> cvar_index(const char *wanted) {
  int n = 0;
  MPI_T_cvar_get_num(&n);
  for (int i = 0; i < n; ++i) {
    char name[256], desc[1024];
    int name_len = sizeof name, desc_len = sizeof desc, verbosity, binding, scope;
    MPI_Datatype type;
    MPI_T_enum enumtype;
    if (MPI_T_cvar_get_info(i, name, &name_len, &verbosity, &type, &enumtype, desc, &desc_len, &binding, &scope) ==
            MPI_SUCCESS &&
        std::strcmp(name, wanted) == 0)
      return i;
  }
  return std::nullopt;
}

// Writes an int or string control variable; an empty string means success.
inline std::string cvar_write(const char *name, const void *value) {
  auto index = cvar_index(name);
  if (!index) return fmt::format("MPI_T control variable {} not found", name);
  MPI_T_cvar_handle handle;
  int count;
  if (MPI_T_cvar_handle_alloc(*index, nullptr, &handle, &count) != MPI_SUCCESS)
    return fmt::format("cannot open MPI_T control variable {}", name);
  int rc = MPI_T_cvar_write(handle, const_cast<void *>(value));
  MPI_T_cvar_handle_free(&handle);
  return rc == MPI_SUCCESS ? "" : fmt::format("writing MPI_T control variable {} failed (error {})", name, rc);
}

inline std::optional<int> cvar_read_int(const char *name) {
  auto index = cvar_index(name);
  if (!index) return std::nullopt;
  MPI_T_cvar_handle handle;
  int count, value = 0;
  if (MPI_T_cvar_handle_alloc(*index, nullptr, &handle, &count) != MPI_SUCCESS) return std::nullopt;
  int rc = MPI_T_cvar_read(handle, &value);
  MPI_T_cvar_handle_free(&handle);
  return rc == MPI_SUCCESS ? std::optional<int>(value) : std::nullopt;
}

// A string control variable's value; nullopt when it does not exist or cannot be read.
inline std::optional<std::string> cvar_read_string(const char *name) {
  auto index = cvar_index(name);
  if (!index) return std::nullopt;
  MPI_T_cvar_handle handle;
  int count = 0;
  if (MPI_T_cvar_handle_alloc(*index, nullptr, &handle, &count) != MPI_SUCCESS) return std::nullopt;
  std::string value(static_cast<size_t>(std::max(count, 0)) + 1, '\0');
  int rc = MPI_T_cvar_read(handle, value.data());
  MPI_T_cvar_handle_free(&handle);
  if (rc != MPI_SUCCESS) return std::nullopt;
  value.resize(std::strlen(value.c_str()));
  return value;
}

}  // namespace modeltuned::mpi_t
