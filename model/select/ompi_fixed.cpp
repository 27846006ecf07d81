#include "model/select/ompi_fixed.hpp"

#include <initializer_list>
#include <set>
#include <utility>

namespace modeltuned {
namespace {

// One communicator-size band of a decision function: below `below_p` ranks, scan `steps` for the
// first message-size limit above the size; `otherwise` when none is. Algorithms are tuned's
// numbers, as coll_tuned_decision_fixed.c writes them.
struct Band {
  int below_p;  // 0: no upper bound
  std::initializer_list<std::pair<size_t, int>> steps;
  int otherwise;
};

int lookup(std::initializer_list<Band> bands, size_t bytes, int p) {
  for (const Band &band : bands) {
    if (band.below_p != 0 && p >= band.below_p) continue;
    for (auto [limit, alg] : band.steps)
      if (bytes < limit) return alg;
    return band.otherwise;
  }
  return 0;  // unreachable: the last band is unbounded
}

// ompi_coll_tuned_bcast_intra_dec_fixed, Open MPI 4.1.4 and 5.0.7.
int bcast_rule(size_t s, int p) {
  return lookup(
      {{4,
        {{32, 3}, {256, 5}, {512, 3}, {1024, 7}, {32768, 1}, {131072, 5}, {262144, 2}, {524288, 1}, {1048576, 6}},
        5},
       {8, {{64, 5}, {128, 6}, {2048, 5}, {8192, 6}, {1048576, 1}}, 2},
       {16, {{8, 7}, {64, 5}, {4096, 7}, {16384, 5}, {32768, 6}}, 1},
       {32, {{4096, 7}, {1048576, 6}}, 8},
       {64, {{2048, 6}}, 7},
       {128, {}, 7},
       {256, {{2, 6}, {16384, 5}, {32768, 1}, {65536, 5}}, 7},
       {1024, {{16384, 7}, {32768, 4}}, 7},
       {2048, {{524288, 7}}, 8},
       {4096, {{262144, 7}}, 8},
       {0, {{8192, 7}, {16384, 5}, {262144, 7}}, 8}},
      s, p);
}

// ompi_coll_tuned_reduce_intra_dec_fixed, Open MPI 4.1.4 and 5.0.7, non-commutative branch.
int reduce_noncommutative_rule(size_t s, int p) {
  return lookup({{4, {{8, 6}}, 1},
                 {8, {}, 1},
                 {16, {{1024, 6}, {8192, 1}, {16384, 6}, {262144, 1}}, 6},
                 {128, {}, 6},
                 {256, {{512, 6}, {1024, 1}}, 6},
                 {0, {}, 6}},
                s, p);
}

// ompi_coll_tuned_reduce_intra_dec_fixed, Open MPI 4.1.4 and 5.0.7, commutative branch.
int reduce_commutative_rule(size_t s, int p) {
  return lookup({{4, {{8, 7}, {16, 4}, {32, 3}, {262144, 1}, {524288, 3}, {1048576, 2}}, 3},
                 {8, {{4096, 4}, {65536, 2}, {262144, 5}, {524288, 1}, {1048576, 5}}, 1},
                 {16, {{8192, 4}}, 5},
                 {32, {{4096, 4}}, 5},
                 {256, {}, 5},
                 {512, {{8192, 5}, {16384, 6}}, 5},
                 {2048, {}, 5},
                 {4096, {{512, 5}, {1024, 6}, {8192, 5}, {16384, 6}}, 5},
                 {0, {{16, 5}, {32, 6}, {1024, 5}, {2048, 6}, {8192, 5}, {16384, 6}}, 5}},
                s, p);
}

}  // namespace

int allreduce_fixed_rule(size_t s, int p, bool commutative) {
  if (!commutative)
    return lookup({{4, {{131072, 3}}, 1},
                   {8, {}, 3},
                   {16, {{1048576, 3}}, 2},
                   {128, {}, 3},
                   {256, {{131072, 2}, {524288, 3}}, 2},
                   {512, {{4096, 2}, {524288, 3}}, 2},
                   {0, {{2048, 2}}, 3}},
                  s, p);
  return lookup({{4, {{8, 4}, {4096, 3}, {8192, 4}, {16384, 3}, {65536, 4}, {262144, 5}}, 6},
                 {8, {{16, 4}, {8192, 3}}, 6},
                 {16, {{8192, 3}}, 6},
                 {32, {{64, 5}, {4096, 3}}, 6},
                 {64, {{128, 5}}, 6},
                 {128, {{262144, 3}}, 6},
                 {256, {{131072, 2}, {262144, 3}}, 6},
                 {512, {{4096, 2}}, 6},
                 {2048, {{2048, 2}, {16384, 3}}, 6},
                 {4096, {{2048, 2}, {4096, 5}, {16384, 3}}, 6},
                 {0, {{2048, 2}, {16384, 5}, {32768, 3}}, 6}},
                s, p);
}

Candidate ompi_fixed_decision(Op op, size_t bytes, int comm_size, bool commutative, OmpiVersion ompi) {
  // The same rules in both lines (the file did not change from 4.1.4 to 5.0.7); a release that
  // changes them gets its own functions here.
  (void)ompi;
  int alg;
  if (op == Op::bcast)
    alg = bcast_rule(bytes, comm_size);
  else if (op == Op::allreduce)
    alg = allreduce_fixed_rule(bytes, comm_size, commutative);
  else
    alg = commutative ? reduce_commutative_rule(bytes, comm_size) : reduce_noncommutative_rule(bytes, comm_size);
  const AlgorithmSpec *spec = find_algorithm(op, alg);
  return Candidate{op, alg, 0, spec ? spec->parameters.tuned_fixed_fanout : 0};
}

Candidate what_runs(const Candidate &c, size_t count, size_t type_size, int comm_size, bool commutative) {
  const CallShape call{c.op, count, type_size, 0, commutative};
  Candidate runs = c;
  // A fallback could itself fall back; the registry's never do more than once, so a few suffice.
  for (int hop = 0; hop < 4; ++hop) {
    const AlgorithmSpec *spec = find_algorithm(runs.op, runs.algorithm);
    std::optional<Candidate> next =
        spec && spec->runs_instead ? spec->runs_instead(runs, call, comm_size) : std::nullopt;
    if (!next) break;
    runs = *next;
  }
  return runs;
}

Fallback ompi_fallback(OmpiVersion ompi, const Placement &placement, bool han_enabled) {
  if (ompi == OmpiVersion::v4_1 || !han_enabled) return Fallback::tuned;
  for (const RankPlace &r : placement.ranks())
    if (r.node != placement[0].node) return Fallback::han;
  return Fallback::tuned;
}

bool han_runs_hierarchical(const Placement &placement) {
  std::set<int32_t> nodes;
  for (const RankPlace &r : placement.ranks())
    if (!nodes.insert(r.node).second) return true;  // a node holds two of its ranks
  return false;
}

bool fallback_runs_tuned_rule(OmpiVersion ompi, const Placement &placement, bool han_enabled) {
  return ompi_fallback(ompi, placement, han_enabled) == Fallback::tuned || !han_runs_hierarchical(placement);
}

}  // namespace modeltuned
