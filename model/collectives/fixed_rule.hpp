// The shape of tuned's fixed rules (coll_tuned_decision_fixed.c), which every family's fixed rule
// transcribes: bands of communicator sizes, each a list of message-size limits.
#pragma once
#include <cstddef>
#include <initializer_list>
#include <utility>

namespace modeltuned {

// One communicator-size band of a decision function: below `below_p` ranks, scan `steps` for the
// first message-size limit above the size; `otherwise` when none is. Algorithms are tuned's
// numbers, as coll_tuned_decision_fixed.c writes them.
struct Band {
  int below_p;  // 0: no upper bound
  std::initializer_list<std::pair<size_t, int>> steps;
  int otherwise;
};

inline int fixed_rule_lookup(std::initializer_list<Band> bands, size_t bytes, int p) {
  for (const Band &band : bands) {
    if (band.below_p != 0 && p >= band.below_p) continue;
    for (auto [limit, alg] : band.steps)
      if (bytes < limit) return alg;
    return band.otherwise;
  }
  return 0;  // unreachable: the last band is unbounded
}

}  // namespace modeltuned
