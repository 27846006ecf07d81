// The checks' configurations and the communicators they run on (checks.cpp): each configuration
// forced through tuned with its MPI_T variables, or run by another component on top.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "model/collectives/family.hpp"
#include "model/registry/registry.hpp"

namespace modeltuned::calibrate {

// One configuration: an algorithm of the registry with its parameters, or (algorithm 0) Open
// MPI's default decision. Each runs on its own communicator.
struct Config {
  Op op = Op::bcast;
  int algorithm = 0;
  uint32_t segsize = 0;
  int fanout = 0;
  auto key() const { return std::tuple(static_cast<int>(op), algorithm, segsize, fanout); }
};

// The default where it is han's hierarchical algorithm, in the ranges' keys (margin.hpp,
// kHanDefaultCheck); its configuration is the default's (algorithm 0) on a communicator han takes.
constexpr int kHanDefault = -1;

// The registry's entry that `c` forces; null for the default's configurations (algorithm <= 0).
const AlgorithmSpec *spec_of(const Config &c);

// The component that runs `c` when it is not tuned ("sm"), else empty.
std::string_view component_of(const Config &c);

// Whether `c` takes bcast's k-nomial radix (read by tuned at each call, not at creation).
bool takes_radix(const Config &c);

// Whether han runs bcast and reduce where it takes a communicator (5.0 across nodes): loaded, above
// tuned's priority and not left out of the coll list.
bool han_in_job();

// The communicators a group's checks run on: one per configuration, forced through tuned (with
// modeltuned's priority lowered while they are created, so they run tuned's forced algorithm),
// and a control one for the go-on votes and the results.
struct CheckComms {
  std::vector<MPI_Comm> forced;
  MPI_Comm control = MPI_COMM_NULL;
  std::string radix_variable;  // bcast's k-nomial radix, read by tuned at each call
  int radix0 = 4;              // its value outside the checks
  ~CheckComms() {
    for (MPI_Comm &c : forced)
      if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
    if (control != MPI_COMM_NULL) MPI_Comm_free(&control);
  }
};

// Creates them on every rank of `group`; empty, or why one rank could not (every rank learns it).
std::string create_check_comms(const std::vector<Config> &configs, MPI_Comm group, bool han_default, CheckComms &comms);

}  // namespace modeltuned::calibrate
