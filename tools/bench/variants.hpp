// The variants modeltuned-bench measures: per operation, Open MPI's default, modeltuned, and
// every algorithm forced through modeltuned, each on its own duplicate of MPI_COMM_WORLD created
// after setting modeltuned's MPI_T control variables for it (the component reads them when a
// communicator is created); and modeltuned's MPI_T call counters, which show what really ran.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/registry/registry.hpp"
#include "tools/bench/options.hpp"

namespace modeltuned::bench {

struct Variant {
  Op op;
  std::string name;  // default, modeltuned, or the forced algorithm's name
  int forced = 0;    // tuned's algorithm number when forced
  MPI_Comm comm = MPI_COMM_NULL;
  bool through_modeltuned() const { return name != "default"; }
};

class CallCounters;  // one MPI_T performance variable: calls per algorithm number

// The variants, the control communicator and the counters: created before measuring, freed after.
struct Setup {
  std::vector<Variant> variants;
  std::vector<std::string> notes;  // printed with the summary
  MPI_Comm control = MPI_COMM_NULL;
  MPI_T_pvar_session session{};
  bool have_session = false;
  std::map<Op, std::unique_ptr<CallCounters>> counters;
  // The guard's counters (coll_modeltuned_guard_windows, _takebacks: per op), when loaded.
  std::unique_ptr<CallCounters> guard_windows, takebacks;
  bool counted = false;  // which algorithm ran is read from the counters
  int counter_width = 0;

  Setup();
  ~Setup();
  // The counters of `op` now (empty when not counted), then what they gained since, added to
  // into[0..counter_width). Read outside the timed region: MPI_T reads are not free.
  std::vector<uint64_t> counts(Op op);
  void add_since(Op op, const std::vector<uint64_t> &before, uint64_t *into);
};

// One communicator per variant, created with modeltuned's variables set for it; a variant that
// cannot be created is skipped with a note. `initial_priority`: coll_modeltuned_priority as the
// job started, none when the component is not loaded.
void create_variants(const Plan &plan, const std::optional<int> &initial_priority, Setup &setup);
void open_counters(const Plan &plan, bool component_loaded, Setup &setup);
// A note of what modeltuned's guard did on this rank during the run: its comparison windows and the
// picks it took back, per op (none when the component is not loaded).
void note_guard(Setup &setup);
void free_setup(Setup &setup);

}  // namespace modeltuned::bench
