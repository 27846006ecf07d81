// Whether the checks can force tuned's algorithms (checks.hpp): the environment asked for before
// MPI_Init, and what tuned's variables say after it.
#include <mpi.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "calib/calibrate/checks.hpp"
#include "common/mpi_t.hpp"

namespace modeltuned::calibrate {

void request_forced_algorithms() { setenv("OMPI_MCA_coll_tuned_use_dynamic_rules", "1", 0); }

std::string checks_unavailable() {
  std::string why;
  const std::optional<int> dynamic = mpi_t::cvar_read_int("coll_tuned_use_dynamic_rules");
  const char *rules = std::getenv("OMPI_MCA_coll_tuned_dynamic_rules_filename");
  if (!dynamic)
    why = "Open MPI's tuned component is not loaded (no coll_tuned_use_dynamic_rules), so no algorithm can be forced";
  else if (*dynamic == 0)
    why = "coll_tuned_use_dynamic_rules is 0, so tuned ignores forced algorithms; leave it unset";
  else if (rules && *rules)
    why = "tuned decides from a rules file (coll_tuned_dynamic_rules_filename), not Open MPI's default rules";
  int ok = why.empty(), all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (all || !why.empty()) return why;
  return "tuned cannot force algorithms on every rank";
}

}  // namespace modeltuned::calibrate
