// modeltuned-bench: the latency of Open MPI's default decision for each collective modeltuned decides, of
// modeltuned, and of every algorithm forced through modeltuned, measured in one job.
//
// main runs the phases in order, each in its own file: options (the command line and what it asks
// to measure), variants (a communicator per variant, modeltuned's call counters), measure (warm-up,
// timed rounds in an order drawn from the shared seed, gathering on rank 0) and report (CSV,
// summary, plot). job holds what they share about the MPI job.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <optional>

#include "common/mpi_t.hpp"
#include "config.h"
#include "model/registry/registry.hpp"
#include "tools/bench/job.hpp"
#include "tools/bench/measure.hpp"
#include "tools/bench/options.hpp"
#include "tools/bench/report.hpp"
#include "tools/bench/variants.hpp"

int main(int argc, char **argv) {
  using namespace modeltuned::bench;
  MPI_Init(&argc, &argv);
  int provided;
  MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  // Algorithm names and numbers as the Open MPI line built against has them (6.0's allgather 2 is
  // its k-radix Bruck), as the component has them.
  modeltuned::set_registry_release(
      modeltuned::parse_ompi_version(MODELTUNED_OMPI_SERIES).value_or(modeltuned::OmpiVersion::v4_1));

  Options o;
  if (const std::optional<int> stop = parse_options(argc, argv, o)) die_everywhere(*stop);
  const Plan plan = make_plan(o);
  std::FILE *csv = open_outputs(o);
  const uint64_t seed = agree_on_seed(o.seed);
  const bool one_node = all_on_one_node();

  Setup setup;
  const std::optional<int> initial_priority = modeltuned::mpi_t::cvar_read_int("coll_modeltuned_priority");
  create_variants(plan, initial_priority, setup);
  open_counters(plan, initial_priority.has_value(), setup);

  Buffers buf = make_buffers(o, plan);
  uint64_t call_number = 0;  // picks the buffer; identical on every rank
  warm_up(o, plan, buf, call_number, setup);
  Timings timings = measure(o, plan, seed, buf, call_number, setup);
  gather(one_node, setup, timings);
  if (world_rank == 0) note_guard(setup);

  int exit_code = world_rank == 0 ? report(o, plan, setup, timings, one_node, seed, csv) : 0;
  MPI_Bcast(&exit_code, 1, MPI_INT, 0, setup.control);
  free_setup(setup);
  MPI_T_finalize();
  MPI_Finalize();
  return exit_code;
}
