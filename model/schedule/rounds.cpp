#include "model/schedule/rounds.hpp"

namespace modeltuned {

std::vector<std::vector<Transfer>> sends_per_rank(int size, const std::vector<Round> &rounds) {
  std::vector<std::vector<Transfer>> out(size);
  for (const Round &round : rounds)
    for (const Transfer &t : round)
      if (t.from >= 0 && t.from < size) out[t.from].push_back(t);
  return out;
}

int floor_power_of_two(int n) {
  int p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

}  // namespace modeltuned
