// Reduce Rabenseifner: fold the ranks above the largest power of two in, reduce-scatter by
// recursive halving, binomial gather to the root (docs/openmpi-algorithms.md §3).
#pragma once
#include <optional>
#include <vector>

#include "model/simulate/evaluation.hpp"
#include "model/topology/placement.hpp"

namespace modeltuned {

struct RabenseifnerPlan {
  int size = 0;
  ChannelMask pairing = 0;           // the 2r ranks folded in first
  std::vector<ChannelMask> halving;  // per reduce-scatter round
  std::vector<ChannelMask> gather;   // per gather round
  ChannelMask odd_root = 0;          // an odd root among the folded ranks first gets rank 0's share
};

RabenseifnerPlan rabenseifner_plan(const Placement &placement, int root);
// For calls it runs as itself (commutative, at least one element per rank of the power of two).
double evaluate_rabenseifner(const Evaluation &e, const RabenseifnerPlan &plan);
// What Open MPI runs instead (the linear reduce, or allreduce): fewer elements than the largest
// power of two of ranks, under 2 ranks, or a non-commutative operation; nullopt otherwise.
std::optional<Candidate> rabenseifner_runs_instead(const Candidate &c, const CallShape &call, int comm_size);

}  // namespace modeltuned
